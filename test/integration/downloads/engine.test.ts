import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import type { DownloadJob } from '../../../common/calls/downloads';
import { DownloadsService, TEMP_PREFIX } from '../../../main/services/downloads';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { clientFor, CountingClient, countItems, harness, listFiles } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, invoiceCount: 1500, seed: 7 });
});
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(() => sandbox.reset());

const withCode = () => sandbox.catalogue.list('withCode');

async function runJob(h: ReturnType<typeof harness>, input: Parameters<typeof h.service.create>[0]): Promise<DownloadJob> {
  const { job } = await h.service.create(input);
  h.service.start(job.id);
  return await h.service.whenDone(job.id);
}

describe('downloads against the sandbox', () => {
  it.each(['Xml', 'Pdf', 'Html'] as const)('saves %s byte-identical to what the sandbox serves', async (type) => {
    const h = harness(sandbox);
    try {
      const ids = withCode().slice(0, 6);
      const job = await runJob(h, { ids, type, kind: 'withCode', folder: h.out });
      expect(job).toMatchObject({ status: 'done', total: 6, saved: 6, failed: 0 });
      const ext = { Xml: '.xml', Pdf: '.pdf', Html: '.html' }[type];
      for (const id of ids) {
        const got = fs.readFileSync(path.join(h.out, id + ext));
        expect(Buffer.compare(got, Buffer.from(await sandbox.catalogue.expected(id, type)))).toBe(0);
      }
      expect(listFiles(h.out)).toHaveLength(6);
    } finally {
      await h.close();
    }
  });

  it('All: keeps the zip, or extracts it into a folder per invoice', async () => {
    const h = harness(sandbox);
    try {
      const ids = withCode().slice(10, 13);
      const kept = await runJob(h, { ids, type: 'All', kind: 'withCode', folder: path.join(h.out, 'zips') });
      expect(kept.saved).toBe(3);
      const extracted = await runJob(h, { ids, type: 'All', kind: 'withCode', unzip: true, folder: path.join(h.out, 'dirs') });
      expect(extracted.saved).toBe(3);
      for (const id of ids) {
        const expected = Buffer.from(await sandbox.catalogue.expected(id, 'All'));
        expect(Buffer.compare(fs.readFileSync(path.join(h.out, 'zips', `${id}.zip`)), expected)).toBe(0);
        const entries = unzipSync(new Uint8Array(expected));
        const names = Object.keys(entries).filter((n) => !n.endsWith('/'));
        expect(names.length).toBeGreaterThanOrEqual(2);
        for (const n of names) {
          expect(Buffer.compare(fs.readFileSync(path.join(h.out, 'dirs', id, n)), Buffer.from(entries[n]!))).toBe(0);
        }
      }
    } finally {
      await h.close();
    }
  });

  it('sends the flags, batches of at most 50 (120 IDs → 3 calls), unknown IDs fail alone with their code', async () => {
    const h = harness(sandbox);
    try {
      const good = sandbox.catalogue.list('cashRegister').slice(0, 117);
      const bad = ['NOPE-1', 'NOPE-2', 'NOPE-3'];
      const ids = [...good.slice(0, 40), bad[0]!, ...good.slice(40, 80), bad[1]!, ...good.slice(80), bad[2]!];
      expect(ids).toHaveLength(120);
      const job = await runJob(h, { ids, type: 'Xml', kind: 'cashRegister', folder: h.out });
      expect(job).toMatchObject({ status: 'done', saved: 117, failed: 3 });
      const calls = sandbox.requests({ op: 'download' });
      expect(calls).toHaveLength(3);
      for (const c of calls) expect(c.query).toMatchObject({ invoiceWithCode: 'true', invoiceCalcu: 'true', downloadDataType: 'Xml' });
      expect(h.client.requested.map((r) => r.length)).toEqual([50, 50, 20]);
      const failed = h.service.repo.page(job.id, 0, 100, 'failed').items;
      expect(failed.map((f) => f.transactionId).sort()).toEqual(bad);
      for (const f of failed) {
        expect(f.errorCode).toBe('InvoiceNotExist');
        expect(f.message?.en).toBeTruthy();
        expect(f.message?.vi).toBeTruthy();
      }
      // Without the flags, the same invoices are "not found" for this kind: the flags really reach the service.
      const other = await runJob(h, { ids: good.slice(0, 3), type: 'Xml', folder: path.join(h.out, 'noflags') });
      expect(other).toMatchObject({ saved: 0, failed: 3 });
    } finally {
      await h.close();
    }
  });

  it('handles every answer variant of docs/service.md#download and the single-link form', async () => {
    const variants = [
      { casing: 'pascal' },
      { dataEncoding: 'object' },
      { dataEncoding: 'double' },
      { itemDataField: 'Data' },
      { itemDataField: 'mixed' },
      { downloadPdfAsLink: true },
      { tooManyIds: 'http400', maxDownloadIds: 20 },
      { tooManyIds: 'envelope', maxDownloadIds: 30 },
    ] as const;
    const ids = withCode().slice(100, 160);
    for (const [n, quirks] of variants.entries()) {
      sandbox.reset();
      sandbox.setQuirks(quirks);
      const h = harness(sandbox);
      try {
        const some = [...ids.slice(0, 'downloadPdfAsLink' in quirks ? 5 : 60), 'NOPE-X'];
        const job = await runJob(h, { ids: some, type: 'Pdf', kind: 'withCode', folder: h.out });
        expect(job, JSON.stringify(quirks)).toMatchObject({ status: 'done', saved: some.length - 1, failed: 1 });
        for (const id of some.slice(0, -1)) {
          const got = fs.readFileSync(path.join(h.out, `${id}.pdf`));
          expect(Buffer.compare(got, Buffer.from(await sandbox.catalogue.expected(id, 'Pdf'))), `${n} ${id}`).toBe(0);
        }
        const failed = h.service.repo.page(job.id, 0, 10, 'failed').items[0]!;
        expect(failed.transactionId).toBe('NOPE-X');
        expect(failed.errorCode).toBe('InvoiceNotExist');
      } finally {
        await h.close();
      }
    }
  });

  it('keeps hostile TransactionIDs from breaking out of the folder', async () => {
    const h = harness(sandbox);
    try {
      const hostile = ['../x', 'a/b', 'CON', 'x'.repeat(300), 'a\u0001b', '..\\..\\evil', '/etc/passwd'];
      const job = await runJob(h, { ids: [...hostile, withCode()[0]!], type: 'Xml', kind: 'withCode', folder: h.out });
      expect(job.done).toBe(8);
      const parent = path.dirname(h.out);
      expect(fs.readdirSync(parent).sort()).toEqual(
        ['einvoice.db', 'einvoice.db-shm', 'einvoice.db-wal', 'out'].filter((f) => fs.existsSync(path.join(parent, f))).sort(),
      );
      for (const f of listFiles(h.out)) expect(f).not.toContain(path.sep);
    } finally {
      await h.close();
    }
  });

  it('existing files: skip, overwrite, keep both', async () => {
    const h = harness(sandbox);
    try {
      const ids = withCode().slice(200, 203);
      fs.mkdirSync(h.out, { recursive: true });
      fs.writeFileSync(path.join(h.out, `${ids[0]}.xml`), 'old');
      const skip = await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out, existing: 'skip' });
      expect(skip).toMatchObject({ saved: 2, skipped: 1 });
      expect(fs.readFileSync(path.join(h.out, `${ids[0]}.xml`), 'utf8')).toBe('old');
      const both = await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out, existing: 'keepBoth' });
      expect(both).toMatchObject({ saved: 3 });
      expect(fs.existsSync(path.join(h.out, `${ids[0]} (2).xml`))).toBe(true);
      const over = await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out, existing: 'overwrite' });
      expect(over).toMatchObject({ saved: 3 });
      expect(Buffer.compare(fs.readFileSync(path.join(h.out, `${ids[0]}.xml`)), Buffer.from(await sandbox.catalogue.expected(ids[0]!, 'Xml')))).toBe(0);
      expect(listFiles(h.out)).toHaveLength(6);
    } finally {
      await h.close();
    }
  });

  it('publishes throttled progress events with counts, bytes, rate and ETA', async () => {
    const h = harness(sandbox);
    try {
      sandbox.setFaults({ download: { latencyMs: 40 } });
      const events: DownloadJob[] = [];
      h.bus.on('downloads.progress', (e) => events.push(e));
      const ids = withCode().slice(0, 400);
      const started = Date.now();
      await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out });
      const secs = (Date.now() - started) / 1000;
      expect(events.length).toBeGreaterThan(1);
      expect(events.length).toBeLessThanOrEqual(Math.ceil(secs * 10) + 4);
      const last = events[events.length - 1]!;
      expect(last).toMatchObject({ status: 'done', total: 400, done: 400, saved: 400 });
      expect(last.bytes).toBeGreaterThan(0);
      expect(events.some((e) => e.status === 'running' && e.rate > 0 && e.etaSeconds !== null)).toBe(true);
      const dones = events.map((e) => e.done);
      expect([...dones].sort((a, b) => a - b)).toEqual(dones);
    } finally {
      await h.close();
    }
  });

  it('pause, resume and cancel', async () => {
    const h = harness(sandbox, { engine: { concurrency: 2, retryDelayMs: 50 } });
    try {
      sandbox.setFaults({ download: { latencyMs: 150 } });
      const ids = withCode().slice(0, 600);
      const { job } = await h.service.create({ ids, type: 'Xml', kind: 'withCode', folder: h.out });
      h.service.start(job.id);
      await waitFor(() => h.service.view(job.id).saved >= 100);
      const paused = await h.service.pause(job.id);
      expect(paused.status).toBe('paused');
      expect(paused.saved).toBeLessThan(600);
      const savedAtPause = paused.saved;
      const savedIdsAtPause = new Set(h.service.repo.page(job.id, 0, 600, 'saved').items.map((i) => i.transactionId));
      const callsAtPause = h.client.requested.length;
      await new Promise((r) => setTimeout(r, 300));
      expect(h.service.view(job.id).saved).toBe(savedAtPause);
      expect(listFiles(h.out).filter((f) => f.startsWith(TEMP_PREFIX))).toEqual([]);
      expect(listFiles(h.out)).toHaveLength(savedAtPause);

      h.service.start(job.id);
      await waitFor(() => h.service.view(job.id).saved >= savedAtPause + 100);
      const cancelled = await h.service.cancel(job.id);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.saved).toBeLessThan(600);

      sandbox.setFaults({});
      h.service.start(job.id);
      const done = await h.service.whenDone(job.id);
      expect(done).toMatchObject({ status: 'done', saved: 600, failed: 0 });
      // Nothing saved before the pause was fetched again (aborted in-flight batches are asked again).
      const askedLater = h.client.requested.slice(callsAtPause).flat();
      expect(askedLater.filter((id) => savedIdsAtPause.has(id))).toEqual([]);
      expect(listFiles(h.out)).toHaveLength(600);
    } finally {
      await h.close();
    }
  });

  it('continues after a restart without fetching saved items again', async () => {
    const first = harness(sandbox);
    const ids = withCode().slice(0, 500);
    sandbox.setFaults({ download: { latencyMs: 100 } });
    const { job } = await first.service.create({ ids, type: 'Pdf', kind: 'withCode', folder: first.out });
    first.service.start(job.id);
    await waitFor(() => first.service.view(job.id).saved >= 100);
    await first.service.close(); // the app quits mid-job
    const savedBefore = first.service.repo.counts(job.id).saved;
    const askedBefore = first.client.idsRequested();
    first.store.close();
    await first.client.inner.close();
    expect(savedBefore).toBeLessThan(500);

    sandbox.setFaults({});
    const second = harness(sandbox, {}, first.dir);
    try {
      expect(second.service.repo.get(job.id)!.status).toBe('running');
      expect(second.service.resumeInterrupted()).toEqual([job.id]);
      const done = await second.service.whenDone(job.id);
      expect(done).toMatchObject({ status: 'done', saved: 500 });
      const savedIds = new Set(
        second.service.repo
          .page(job.id, 0, 500)
          .items.filter((i) => i.state === 'saved')
          .map((i) => i.transactionId),
      );
      const askedAgain = second.client.idsRequested();
      expect(askedAgain.length).toBeLessThanOrEqual(500 - savedBefore + 4 * 50);
      expect(askedAgain.length + Math.min(askedBefore.length, 500)).toBeGreaterThanOrEqual(500);
      expect(savedIds.size).toBe(500);
      expect(listFiles(second.out)).toHaveLength(500);
    } finally {
      await second.close();
      fs.rmSync(first.dir, { recursive: true, force: true });
    }
  });

  it('tells the updater a download is running (work-in-progress probe)', async () => {
    const work = new WorkInProgress();
    const h = harness(sandbox, { work });
    try {
      expect((await work.check()).busy).toBe(false);
      sandbox.setFaults({ download: { latencyMs: 200 } });
      const { job } = await h.service.create({ ids: withCode().slice(0, 100), type: 'Xml', kind: 'withCode', folder: h.out });
      h.service.start(job.id);
      const during = await work.check();
      expect(during.busy).toBe(true);
      expect(during.reasons[0]).toMatchObject({ source: 'downloads', message: { en: 'A download is running' } });
      await h.service.whenDone(job.id);
      expect((await work.check()).busy).toBe(false);
    } finally {
      sandbox.setFaults({});
      await h.close();
    }
  });

  it('retry failed and export the failed list', async () => {
    const h = harness(sandbox);
    try {
      sandbox.setFaults({ download: { status503: 1 } });
      const ids = withCode().slice(0, 30);
      const job = await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out });
      expect(job).toMatchObject({ status: 'done', failed: 30, saved: 0 });
      const exported = h.service.exportFailed(job.id);
      expect(exported.count).toBe(30);
      expect(exported.csv).toContain('api.unavailable');
      sandbox.setFaults({});
      h.service.retryFailed(job.id);
      const again = await h.service.whenDone(job.id);
      expect(again).toMatchObject({ status: 'done', failed: 0, saved: 30 });
    } finally {
      await h.close();
    }
  }, 60_000);

  it('keeps the progress counters on the job row equal to a recount of its items through saved, skipped, failed, cancelled and retried items', async () => {
    const h = harness(sandbox);
    try {
      const ids = [...withCode().slice(0, 240), 'NOPE-1', 'NOPE-2'];
      fs.mkdirSync(h.out, { recursive: true });
      fs.writeFileSync(path.join(h.out, `${ids[3]}.xml`), 'already here');
      sandbox.setFaults({ download: { latencyMs: 400 } });
      const { job } = await h.service.create({ ids, type: 'Xml', kind: 'withCode', folder: h.out }, h.profileId);
      const rowEqualsRecount = () => expect(h.service.repo.get(job.id)!.counts).toEqual(countItems(h.store, job.id));
      rowEqualsRecount();
      expect(h.service.repo.get(job.id)!.counts).toMatchObject({ total: 242, pending: 242 });
      h.service.start(job.id);
      await waitFor(() => h.service.view(job.id).saved >= 20);
      const cancelled = await h.service.cancel(job.id);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.done).toBeLessThan(242);
      rowEqualsRecount();
      sandbox.setFaults({});
      h.service.retryFailed(job.id); // starts the cancelled job again: the rest and the failed ones
      const done = await h.service.whenDone(job.id);
      expect(done).toMatchObject({ status: 'done', total: 242, failed: 2, skipped: 1, saved: 239 });
      rowEqualsRecount();
      h.service.retryFailed(job.id);
      await h.service.whenDone(job.id);
      rowEqualsRecount();
      expect(h.service.view(job.id)).toMatchObject({ failed: 2, saved: 239, bytes: countItems(h.store, job.id).bytes });
    } finally {
      sandbox.setFaults({});
      await h.close();
    }
  }, 60_000);
});

async function waitFor(cond: () => boolean, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('sign-in refused mid-job', () => {
  it('pauses the job with the reason, reports the auth failure, and continues after a new token', async () => {
    const { ApiClient } = await import('../../../main/services/api');
    const reported: string[] = [];
    let token = sandbox.issueToken({ ttlMs: -1000 });
    const h = harness(sandbox, {
      reportAuthFailure: (profileId) => void reported.push(profileId),
      session: async (profileId) => {
        const client = new ApiClient({ baseUrl: sandbox.baseUrl, token, retry: { retries: 0 } });
        return { profileId, client, release: () => client.close() };
      },
    });
    try {
      const ids = withCode().slice(0, 20);
      const first = await runJob(h, { ids, type: 'Xml', kind: 'withCode', folder: h.out });
      expect(first.status).toBe('paused');
      expect(first.saved).toBe(0);
      expect(first.failed).toBe(0);
      expect(first.lastError?.en).toMatch(/expired|token/i);
      expect(reported).toEqual([h.profileId]);
      token = sandbox.devToken;
      h.service.start(first.id);
      const done = await h.service.whenDone(first.id);
      expect(done).toMatchObject({ status: 'done', saved: 20, lastError: null });
    } finally {
      await h.close();
    }
  });
});

describe('answers past the client’s ceiling', () => {
  it('a batch whose answer is past the client’s ceiling is split in half down to one ID: every invoice saved, calls bounded', async () => {
    const ids = withCode().slice(40, 48);
    // The answer carries each PDF in base64 (4/3 of its size) in a small envelope: pick a ceiling
    // above any one invoice's answer and below any two invoices' answer.
    const sizes = await Promise.all(ids.map(async (id) => (await sandbox.catalogue.expected(id, 'Pdf')).byteLength));
    const one = Math.ceil((Math.max(...sizes) * 4) / 3) + 2_000;
    const two = Math.floor((2 * Math.min(...sizes) * 4) / 3);
    expect(one).toBeLessThan(two);
    const client = new CountingClient(clientFor(sandbox, { answerLimits: { download: Math.floor((one + two) / 2) } }));
    const h = harness(sandbox);
    const service = new DownloadsService({
      store: h.store,
      activeProfileId: () => h.profileId,
      session: async () => ({ profileId: h.profileId, client }),
      engine: { retryDelayMs: 20, concurrency: 1 },
    });
    try {
      const { job } = await service.create({ ids, type: 'Pdf', kind: 'withCode', folder: h.out });
      service.start(job.id);
      expect(await service.whenDone(job.id)).toMatchObject({ status: 'done', saved: 8, failed: 0 });
      expect(client.requested.filter((r) => r.length === 1)).toHaveLength(8);
      expect(client.requested.length).toBeLessThanOrEqual(2 * ids.length - 1);
      for (const id of ids)
        expect(Buffer.compare(fs.readFileSync(path.join(h.out, `${id}.pdf`)), Buffer.from(await sandbox.catalogue.expected(id, 'Pdf')))).toBe(0);
    } finally {
      await service.close();
      await client.inner.close();
      await h.close();
    }
  });
});
