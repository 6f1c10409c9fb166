import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssueEntry } from '../../../common/calls/issuing';
import { startIssuing, waitFor, type IssuingHarness } from './harness';

let h: IssuingHarness;

beforeAll(async () => {
  h = await startIssuing();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('the issue queue against the sandbox over HTTP', () => {
  it('issues 50 drafts queued while offline as soon as the service is back: numbers, PDFs in the folder, one email per buyer', async () => {
    const { services, sandbox } = h;
    const before = sandbox.issued().length;
    await sandbox.stop();
    const ids = Array.from({ length: 50 }, (_, i) => h.draft(i, i % 2 ? { InvSeries: '1K26TDL' } : {}));
    const entries = ids.map((id) => services.issuing.queueDraft(id));
    expect(entries.every((e) => e.state === 'queued')).toBe(true);
    // Queued drafts are read-only.
    expect(() => services.drafting.drafts.save(ids[0]!, services.drafting.drafts.get(ids[0]!).draft)).toThrow(/can no longer be changed/);
    await waitFor(() => services.issuing.runner.status().state === 'offline', 20_000, 'offline');
    await waitFor(() => services.issuing.queue.counts(h.services.session.profileId()).queued === 50, 20_000, '50 queued');
    expect(sandbox.issued().length).toBe(before);
    expect(services.issuing.runner.status().lastError?.vi).toMatch(/kết nối/);

    await sandbox.start();
    await waitFor(() => services.issuing.queue.counts(h.services.session.profileId()).issued === 50, 60_000, '50 issued');
    const issued = sandbox.issued().slice(before);
    expect(issued).toHaveLength(50);
    const byRef = new Map(issued.map((i) => [i.RefID, i]));
    for (const e of services.issuing.queue.list(h.services.session.profileId()).items) {
      const s = byRef.get(e.refId);
      expect(s, e.refId).toBeDefined();
      expect(e.transactionId).toBe(s!.TransactionID);
      expect(e.invNo).toBe(s!.InvNo);
      expect(e.invNo).toMatch(/^\d{8}$/);
      expect(sandbox.issueAttempts(e.refId)[0]?.recorded).toBe(1);
      // The request and the answer are kept, without the token.
      const kept = services.issuing.exchanges.list(h.services.session.profileId(), e.refId);
      expect(kept.some((x) => x.request.includes(e.refId) && (x.answer ?? '').includes(s!.TransactionID))).toBe(true);
      expect(JSON.stringify(kept)).not.toContain(sandbox.devToken);
    }
    // Numbers are continuous per series.
    for (const series of ['1K26TAA', '1K26TDL']) {
      const nos = issued.filter((i) => i.InvSeries === series).map((i) => Number(i.InvNo));
      expect(nos).toHaveLength(25);
      expect(nos).toEqual(nos.map((_, k) => nos[0]! + k));
    }
    expect(sandbox.overlaps()).toBe(0);

    // The rest of the day happens by itself: PDFs land in the folder, each buyer gets one email.
    await waitFor(() => fs.readdirSync(h.folder).filter((f) => f.endsWith('.pdf')).length === 50, 60_000, '50 PDFs');
    await waitFor(() => issued.every((i) => sandbox.sentEmails().some((m) => m.TransactionID === i.TransactionID)), 60_000, '50 emails');
    const counts = new Map<string, number>();
    for (const m of sandbox.sentEmails()) counts.set(m.TransactionID, (counts.get(m.TransactionID) ?? 0) + 1);
    for (const i of issued) expect(counts.get(i.TransactionID)).toBe(1);
    const drafts = services.drafting.drafts.list().items.filter((d) => ids.includes(d.id));
    expect(drafts.every((d) => d.issue?.state === 'issued' && /^\d{8}$/.test(d.issue.invNo ?? ''))).toBe(true);
  }, 180_000);

  it('shows a refusal in words; the draft reopens with a new RefID and goes out once fixed', async () => {
    const { services, sandbox } = h;
    sandbox.setQuirks({ licenceInvoices: sandbox.issued().length });
    const id = h.draft(900);
    const entry = services.issuing.queueDraft(id);
    await waitFor(() => services.issuing.queue.get(entry.id)!.state === 'failed', 30_000, 'failed');
    const failed = services.issuing.queue.get(entry.id)!;
    expect(failed.errorCode).toBe('LicenseInfo_OutOfInvoice');
    expect(failed.lastError?.vi).toMatch(/[a-zà-ỹ]/);
    expect(failed.retryable).toBe(true);
    const oldRef = failed.refId;
    services.issuing.handlers()['issuing.reopen']({ id: entry.id }, {} as never);
    const reopened = services.drafting.drafts.get(id);
    expect(reopened.issue).toBeNull();
    expect(reopened.draft.RefID).not.toBe(oldRef);
    // The refusal stays as history: not counted as failed, not reopened twice, not retried.
    expect(services.issuing.queue.get(entry.id)).toMatchObject({ state: 'failed', reopened: true, retryable: false });
    expect(services.issuing.queue.counts(services.session.profileId()).failed).toBe(0);
    // Listed under All, it is counted under All: the count is the rows the filter lists.
    const listed = await services.issuing.handlers()['issuing.list']({}, {} as never);
    expect(listed.items.map((e) => e.id)).toContain(entry.id);
    expect(services.issuing.status().total).toBe(listed.items.length);
    expect(() => services.issuing.handlers()['issuing.reopen']({ id: entry.id }, {} as never)).toThrow(/already opened/);
    expect(() => services.issuing.queue.retry(entry.id)).toThrow();
    sandbox.setQuirks({ licenceInvoices: null });
    const again = services.issuing.queueDraft(id);
    await waitFor(() => services.issuing.queue.get(again.id)!.state === 'issued', 30_000, 'issued');
    expect(sandbox.issued().filter((i) => i.RefID === oldRef)).toHaveLength(0);
    expect(sandbox.issued().filter((i) => i.RefID === again.refId)).toHaveLength(1);
  }, 60_000);

  it("shows a with-code invoice's tax authority code when the service delivers it later", async () => {
    const { services, sandbox } = h;
    sandbox.setQuirks({ invoiceCodeDelayMs: 600 });
    const e = services.issuing.queueDraft(h.draft(902, { InvSeries: '1C26TAA' }));
    await waitFor(() => services.issuing.queue.get(e.id)!.state === 'issued', 30_000, 'issued');
    expect(services.issuing.queue.get(e.id)!.invoiceCode).toBeNull();
    await waitFor(() => services.issuing.queue.get(e.id)!.invoiceCode !== null, 30_000, 'the code');
    const tx = services.issuing.queue.get(e.id)!.transactionId!;
    expect(services.issuing.queue.get(e.id)!.invoiceCode).toContain(tx);
    sandbox.setQuirks({ invoiceCodeDelayMs: 0 });
  }, 60_000);

  it('refuses to queue a draft the service would refuse, naming the field, and keeps the draft editable', () => {
    const id = h.draft(901, { InvSeries: '1K26TXX' });
    expect(() => h.services.issuing.queueDraft(id)).toThrow(/template|mẫu/i);
    expect(h.services.drafting.drafts.get(id).issue).toBeNull();
  });

  it('pauses on a refused sign-in and goes on by itself after the next one, issuing each invoice once', async () => {
    const { services, sandbox } = h;
    await services.auth.signInWithToken(undefined, 'not-a-valid-token');
    const entries = [904, 905].map((i) => services.issuing.queueDraft(h.draft(i)));
    await waitFor(() => services.issuing.runner.status().state === 'paused', 20_000, 'paused');
    expect(entries.map((e) => services.issuing.queue.get(e.id)!.state)).toEqual(['queued', 'queued']);
    expect(entries.every((e) => sandbox.issueAttempts(e.refId)[0]?.recorded !== 1)).toBe(true);
    await services.auth.signInWithToken(undefined, sandbox.devToken);
    await waitFor(() => entries.every((e) => services.issuing.queue.get(e.id)!.state === 'issued'), 20_000, 'issued after sign-in');
    for (const e of entries) expect(sandbox.issued().filter((i) => i.RefID === e.refId)).toHaveLength(1);
  }, 60_000);

  it('refuses, before sending, an invoice dated before the last one issued on its series', async () => {
    const { services } = h;
    const e = services.issuing.queueDraft(h.draft(906, { InvSeries: '1K26TDL' }));
    await waitFor(() => services.issuing.queue.get(e.id)!.state === 'issued', 30_000, 'issued');
    const yesterday = new Date(Date.parse(`${e.invDate}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const id = h.draft(907, { InvSeries: '1K26TDL', InvDate: yesterday });
    expect(() => services.issuing.queueDraft(id)).toThrow(/before/);
    expect(services.drafting.drafts.get(id).issue).toBeNull();
  }, 60_000);

  it('downloads the issued invoices once a download folder is chosen, when none was; until then the screens are told why', async () => {
    const { services } = h;
    const get = async (id: number) => {
      const r = await services.dispatch('issuing.get', { id }, { host: 'browser' });
      if (!r.ok) throw new Error(r.error.message);
      return r.value as IssueEntry;
    };
    const list = async () => {
      const r = await services.dispatch('issuing.list', {}, { host: 'browser' });
      if (!r.ok) throw new Error(r.error.message);
      return (r.value as { items: IssueEntry[] }).items;
    };
    services.settings.update({ downloadFolder: null });
    const e = services.issuing.queueDraft(h.draft(908));
    await waitFor(() => services.issuing.queue.get(e.id)!.state === 'issued', 30_000, 'issued');
    await waitFor(() => services.issuing.queue.get(e.id)!.email === 'done', 30_000, 'email queued');
    // Stored as waiting; the contract says what it waits for.
    expect(services.issuing.queue.get(e.id)!.download).toBe('waiting');
    expect((await get(e.id)).download).toBe('noFolder');
    expect((await list()).find((x) => x.id === e.id)?.download).toBe('noFolder');
    // Choosing the folder downloads it, and the screens hear of it (issuing.changed names the entry).
    const heard: number[][] = [];
    const off = services.bus.on('issuing.changed', (x) => void heard.push(x.ids));
    services.settings.update({ downloadFolder: h.folder });
    await waitFor(() => services.issuing.queue.get(e.id)!.download === 'done', 30_000, 'downloaded');
    await waitFor(() => heard.some((ids) => ids.includes(e.id)), 10_000, 'issuing.changed');
    off();
    expect((await get(e.id)).download).toBe('done');
    const tx = services.issuing.queue.get(e.id)!.transactionId!;
    await waitFor(() => fs.readdirSync(h.folder).some((f) => f.includes(tx)), 30_000, 'the PDF');
  }, 60_000);

  it('issues an invoice whose copy into the register fails, and names it in the log', async () => {
    const { services } = h;
    services.store.db.exec("CREATE TRIGGER refuse_register BEFORE INSERT ON issued_invoices BEGIN SELECT RAISE(ABORT, 'register refused'); END");
    try {
      const e = services.issuing.queueDraft(h.draft(909));
      await waitFor(() => services.issuing.queue.get(e.id)!.state === 'issued', 30_000, 'issued');
      const tx = services.issuing.queue.get(e.id)!.transactionId!;
      const log = path.join(h.dir, 'data', 'logs', 'einvoice.log');
      const line = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n') : []).find((l) => l.includes('not copied into the register'));
      await waitFor(() => line() !== undefined, 10_000, 'the log line');
      expect(line()).toContain(tx);
      expect(line()).toContain('register refused');
      expect(() => services.register.get(tx)).toThrow(expect.objectContaining({ code: 'issued_not_found' }));
    } finally {
      services.store.db.exec('DROP TRIGGER refuse_register');
    }
  }, 60_000);

  it('keeps to the series this PC issues on', () => {
    h.services.settings.update({ issuing: { series: ['1K26TDL'] } });
    const id = h.draft(903);
    expect(() => h.services.issuing.queueDraft(id)).toThrow(/1K26TDL only/);
    h.services.settings.update({ issuing: { series: [] } });
    expect(h.services.issuing.queueDraft(id).state).toBe('queued');
  });
});
