/**
 * The register of issued invoices against the sandbox on 127.0.0.1, through the app's own wiring:
 * a month of 2 000+ invoices over 4 series synced in pages of ≤ 100, each served once; a re-sync
 * reads only unsynced days and today; an invoice issued during a sync is neither lost nor doubled;
 * a stopped sync resumes without loss or doubles; tax-authority status refreshed until final;
 * the issue queue writes what it issues; a correction drafted from a row is linked both ways.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vietnamToday } from '../../../common/rules';
import { ApiClient } from '../../../main/services/api';
import { syncRange } from '../../../main/services/register';
import { addDays, RECHECK_DAYS } from '../../../main/services/register/sync';
import { issuingData } from '../sandbox/issuing-support';
import { startIssuing, waitFor, type IssuingHarness } from '../issuing/harness';

const DAY_MS = 86_400_000;
const today = vietnamToday(new Date());
const yy = today.slice(2, 4);
// The sandbox spreads its invoices from 1 January to the 1st of this month: size it so last month holds 2 000+.
const [year, month] = today.split('-').map(Number) as [number, number];
const span = Math.round((Date.UTC(year, month - 1, 1) - Date.UTC(year, 0, 1)) / DAY_MS) + 1;
const monthFrom = month === 1 ? `${year}-01-01` : new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
const monthTo = month === 1 ? `${year}-01-31` : new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);
const monthDays = month === 1 ? 1 : Number(monthTo.slice(8));
const INVOICES = Math.ceil((2_150 * span) / monthDays);

let h: IssuingHarness;
let client: ApiClient;

beforeAll(async () => {
  h = await startIssuing({ sandbox: { invoiceCount: INVOICES, seed: 41 } });
  client = new ApiClient({ baseUrl: h.sandbox.baseUrl, token: h.sandbox.devToken, timeoutMs: 10_000 });
}, 120_000);
afterAll(async () => {
  await client?.close();
  await h?.close();
});

/** Live invoices of the sandbox catalogue in a date range, by kind. */
function expected(from: string, to: string): Record<'withCode' | 'withoutCode' | 'cashRegister', string[]> {
  const out = { withCode: [] as string[], withoutCode: [] as string[], cashRegister: [] as string[] };
  for (const kind of ['withCode', 'withoutCode', 'cashRegister'] as const) {
    for (const id of h.sandbox.catalogue.list(kind)) {
      const inv = h.sandbox.catalogue.get(id)!;
      if (!inv.deleted && inv.InvDate >= from && inv.InvDate <= to) out[kind].push(id);
    }
  }
  return out;
}

const registerIds = (from: string, to: string): string[] => h.services.register.all({ from, to }).map((i) => i.transactionId);

describe('syncing the register', () => {
  it('a month of 2 000+ invoices over 4 series: pages of ≤ 100, each invoice served once', async () => {
    const want = expected(monthFrom, monthTo);
    const all = [...want.withCode, ...want.withoutCode, ...want.cashRegister];
    expect(all.length).toBeGreaterThanOrEqual(2_000);
    h.sandbox.reset();
    const summary = await h.services.register.sync({ from: monthFrom, to: monthTo });
    const served = h.sandbox.pagingServed();
    expect(served.items).toBe(all.length);
    // The sandbox refuses Take > 100, so the fewest possible requests means pages of 100.
    const pages = Object.values(want).reduce((n, ids) => n + Math.max(1, Math.ceil(ids.length / 100)), 0);
    expect(served.requests).toBe(pages);
    expect(summary).toMatchObject({ fetched: all.length, added: all.length, pagingRequests: pages });
    const ids = registerIds(monthFrom, monthTo);
    expect(ids.length).toBe(all.length);
    expect(new Set(ids)).toEqual(new Set(all));
    const series = new Set(h.services.register.all({ from: monthFrom, to: monthTo }).map((i) => i.invSeries));
    expect([...series].sort()).toEqual([`1C${yy}MAA`, `1C${yy}TAA`, `1K${yy}TAA`, `2C${yy}TBB`]);
    const one = h.services.register.get(want.withCode[0]!);
    const inv = h.sandbox.catalogue.get(want.withCode[0]!)!;
    expect(one).toMatchObject({ invNo: inv.InvNo, invDate: inv.InvDate, invSeries: inv.InvSeries, kind: 'withCode', sendTaxStatus: 2 });
  }, 120_000);

  it('an email added by hand goes as the kind its invoice was issued as; an invoice number typed for the lookup code is refused, naming the code', () => {
    const invoices = h.services.register.all({ from: monthFrom, to: monthTo });
    const withCode = invoices.find((i) => i.kind === 'withCode')!;
    const added = h.services.emails.add([
      { transactionId: withCode.transactionId, receiverName: 'Kế toán', receiverEmail: 'ketoan@example.com', kind: 'withoutCode' },
    ]);
    expect(added.rejected).toEqual([]);
    const entry = h.services.emails.list({ search: withCode.transactionId }).items.find((e) => e.id === added.added[0]);
    expect(entry?.kind).toBe('withCode');

    const other = invoices.find((i) => i.kind === 'withoutCode' && i.transactionId !== withCode.transactionId)!;
    const typed = String(Number(other.invNo)); // as a person types it, without the leading zeros
    const refused = h.services.emails.add([{ transactionId: typed, receiverName: 'Kế toán', receiverEmail: 'ketoan@example.com', kind: 'withoutCode' }]);
    expect(refused.added).toEqual([]);
    expect(refused.rejected[0]!.reason.vi).toContain(`"${typed}" là số hóa đơn, không phải mã tra cứu`);
    expect(refused.rejected[0]!.reason.vi).toContain(`số ${other.invNo}: ${other.transactionId}`);
    expect(refused.rejected[0]!.reason.en).toContain('is an invoice number, not a lookup code');
  });

  it('a re-sync reads nothing already synced; a range up to today reads only the new days and today', async () => {
    h.sandbox.reset();
    const again = await h.services.register.sync({ from: monthFrom, to: monthTo });
    expect(h.sandbox.pagingServed()).toEqual({ requests: 0, items: 0 });
    expect(again).toMatchObject({ ranges: [], fetched: 0, added: 0 });

    const after = addDays(monthTo, 1);
    h.sandbox.reset();
    const wider = await h.services.register.sync({ from: monthFrom, to: today });
    const want = expected(after, today);
    expect(wider.ranges).toEqual((['withCode', 'withoutCode', 'cashRegister'] as const).map((kind) => ({ kind, from: after, to: today })));
    expect(h.sandbox.pagingServed().items).toBe(want.withCode.length + want.withoutCode.length + want.cashRegister.length);
    // The last days are never final (an invoice issued before midnight can reach the list after
    // it): the next sync reads them again, and only them.
    h.sandbox.reset();
    const third = await h.services.register.sync({ from: monthFrom, to: today });
    const recheckFrom = [addDays(today, -RECHECK_DAYS), monthFrom].sort()[1]!;
    expect(third.ranges.map((r) => [r.from, r.to])).toEqual([
      [recheckFrom, today],
      [recheckFrom, today],
      [recheckFrom, today],
    ]);
  }, 60_000);

  it('an invoice issued while the sync pages is in the register exactly once', async () => {
    // Spread today's list over several pages first.
    for (let i = 0; i < 3; i++) await issueToday();
    h.sandbox.setFaults({ paging: { latencyMs: 30 } });
    let during = '';
    let pages = 0;
    const done = syncRange(
      {
        store: h.services.store,
        repo: h.services.register.repo,
        client: pagedClient(1),
        scope: h.services.register.scope(),
        now: () => new Date(),
        onProgress: (p) => {
          if (p.phase === 'list' && p.kind === 'withCode' && ++pages === 1) void issueToday().then((tx) => (during = tx));
        },
      },
      { from: today, to: today, kinds: ['withCode'] },
    );
    await done;
    h.sandbox.setFaults({});
    await waitFor(() => during !== '', 10_000, 'issued during the sync');
    const ids = registerIds(today, today);
    // Either this sync saw it (the pages shifted: read again from the top) or the next one does; never twice.
    await h.services.register.sync({ from: today, to: today, kinds: ['withCode'] });
    const after = registerIds(today, today);
    expect(after.filter((id) => id === during)).toHaveLength(1);
    expect(new Set(after).size).toBe(after.length);
    expect(ids.length).toBeLessThanOrEqual(after.length);
    expect(after).toEqual(expect.arrayContaining(expected(today, today).withCode));
  }, 60_000);

  it('a sync stopped half-way loses nothing and doubles nothing when run again', async () => {
    const from = addDays(monthFrom, -31);
    const to = addDays(monthFrom, -1);
    const want = expected(from, to);
    const controller = new AbortController();
    let pages = 0;
    const stopped = syncRange(
      {
        store: h.services.store,
        repo: h.services.register.repo,
        client,
        scope: h.services.register.scope(),
        now: () => new Date(),
        onProgress: (p) => {
          if (p.phase === 'list' && ++pages === 3) controller.abort();
        },
        signal: controller.signal,
      },
      { from, to },
    );
    await expect(stopped).rejects.toThrow();
    const half = registerIds(from, to);
    expect(half.length).toBeGreaterThan(0);
    expect(half.length).toBeLessThan(want.withCode.length + want.withoutCode.length + want.cashRegister.length);
    expect(h.services.register.repo.syncedDays(h.services.register.scope(), 'withCode', from, to).size).toBe(0);
    await h.services.register.sync({ from, to });
    const ids = registerIds(from, to);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set([...want.withCode, ...want.withoutCode, ...want.cashRegister]));
  }, 60_000);

  it("refreshes a with-code invoice's tax-authority status until it is accepted", async () => {
    h.sandbox.setQuirks({ invoiceCodeDelayMs: 3_600_000 });
    const tx = await issueToday();
    await h.services.register.sync({ from: today, to: today, kinds: ['withCode'] });
    expect(h.services.register.get(tx)).toMatchObject({ sendTaxStatus: 1, invoiceCode: null });
    expect(h.services.register.repo.pendingTax(h.services.register.scope(), today)).toContain(tx);
    h.sandbox.setQuirks({ invoiceCodeDelayMs: 0 });
    h.sandbox.reset();
    const summary = await h.services.register.sync({ from: monthFrom, to: monthTo });
    expect(summary.fetched).toBe(0); // nothing listed again: the status call did it
    expect(summary.statusRefreshed).toBeGreaterThanOrEqual(1);
    expect(h.services.register.get(tx)).toMatchObject({ sendTaxStatus: 2 });
    expect(h.services.register.get(tx).invoiceCode).toMatch(/^M1-/);
    expect(h.services.register.repo.pendingTax(h.services.register.scope(), today)).not.toContain(tx);
  }, 60_000);
});

describe('view', () => {
  it('fetches the invoice as the service shows it into a PDF file, with the seller tax code as CompanyTaxCode', async () => {
    const [tx] = registerIds(monthFrom, monthTo);
    const got = await h.services.register.view(tx!);
    const bytes = fs.readFileSync(got.file);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(got.size).toBe(bytes.length);
    expect(path.dirname(got.file)).toBe(path.join(h.dir, 'data', 'views'));
    expect(h.sandbox.requests({ op: 'publishview' }).at(-1)?.headers.companytaxcode).toBe(h.sandbox.certificate().TaxCode);
    await expect(h.services.register.view('NOTINREGISTER')).rejects.toMatchObject({ code: 'issued_not_found' });
  });
});

describe('the issue queue and corrections', () => {
  it('an invoice issued by the queue is listed at once; its adjustment, issued through the queue, is linked both ways', async () => {
    const draftId = h.draft(1, { InvSeries: `1C${yy}TAA`, BuyerLegalName: 'Công ty TNHH Sửa Sai' });
    const entry = h.services.issuing.queueDraft(draftId);
    await waitFor(() => h.services.issuing.queue.get(entry.id)?.state === 'issued', 30_000, 'issued');
    const tx = h.services.issuing.queue.get(entry.id)!.transactionId!;
    expect(h.services.register.get(tx)).toMatchObject({ source: 'queue', buyerName: 'Công ty TNHH Sửa Sai', referenceType: 0, invDate: today });
    expect(h.services.register.list({ from: today, to: today, text: 'sua sai' }).items.map((i) => i.transactionId)).toEqual([tx]);

    expect(() => h.services.register.draftCorrection({ transactionId: tx, correction: 'adjust', reason: '   ' })).toThrow(/reason|lý do/i);
    const { draftId: adjId } = h.services.register.draftCorrection({ transactionId: tx, correction: 'adjust', reason: 'Giảm giá sau khi giao hàng' });
    const adj = h.services.drafting.drafts.get(adjId).draft;
    const original = h.services.register.get(tx);
    expect(adj.correction).toEqual({
      ReferenceType: 2,
      OrgInvoiceType: 1,
      OrgInvTemplateNo: original.invSeries.slice(0, 1),
      OrgInvSeries: original.invSeries.slice(1),
      OrgInvNo: original.invNo,
      OrgInvDate: original.invDate,
      InvoiceNote: 'Giảm giá sau khi giao hàng',
    });
    h.services.drafting.drafts.save(adjId, {
      ...adj,
      lines: [{ ...h.services.drafting.drafts.get(draftId).draft.lines[0]!, Quantity: '1', UnitPrice: '10000' }],
    });
    const adjEntry = h.services.issuing.queueDraft(adjId);
    await waitFor(() => h.services.issuing.queue.get(adjEntry.id)?.state === 'issued', 30_000, 'adjustment issued');
    const adjTx = h.services.issuing.queue.get(adjEntry.id)!.transactionId!;
    expect(h.services.register.get(adjTx)).toMatchObject({
      referenceType: 2,
      original: { series: original.invSeries, invNo: original.invNo, transactionId: tx },
    });
    expect(h.services.register.get(tx)).toMatchObject({ correctedBy: adjTx, eInvoiceStatus: 8 });
    // The service agrees once synced: the original is "adjusted", the adjustment names it.
    await h.services.register.sync({ from: today, to: today });
    expect(h.services.register.get(tx)).toMatchObject({ correctedBy: adjTx, eInvoiceStatus: 8 });
    expect(h.services.register.get(adjTx)).toMatchObject({ eInvoiceStatus: 5, original: { transactionId: tx } });
  }, 90_000);
});

async function issueToday(): Promise<string> {
  const out = await client.issue([issuingData({ InvDate: today, InvSeries: `1C${yy}TAA` })], {
    signType: 2,
    certificateSN: h.sandbox.certificate().CertificateSN,
  });
  const tx = out.items[0]?.transactionId;
  if (!tx) throw new Error(`not issued: ${out.items[0]?.errorCode}`);
  return tx;
}

/** The client, paging `take` at a time (to spread today's few invoices over several pages). */
function pagedClient(take: number): ApiClient {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'paging') return (q: Parameters<ApiClient['paging']>[0], o?: Parameters<ApiClient['paging']>[1]) => target.paging({ ...q, take }, o);
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}
