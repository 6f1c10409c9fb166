import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { harness, listFiles } from './helpers';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, invoiceCount: 1200, seed: 11 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('downloads under injected faults', () => {
  it('a 500-item job with 429, 503 HTML, resets and truncated bodies ends with every item saved or failed with a reason, nothing twice', async () => {
    sandbox.setFaults({
      download: { status429: 0.12, retryAfterS: 0, status503: 0.12, reset: 0.12, truncated: 0.12, malformed: 0.05, emptyData: 0.03, latencyMs: 5 },
    });
    const h = harness(sandbox);
    try {
      const ids = [...sandbox.catalogue.list('withCode').slice(0, 495), 'MISSING-1', 'MISSING-2', 'MISSING-3', 'MISSING-4', 'MISSING-5'];
      const { job } = await h.service.create({ ids, type: 'Pdf', kind: 'withCode', folder: h.out });
      h.service.start(job.id);
      const done = await h.service.whenDone(job.id);
      const faults = sandbox.requests({ op: 'download' }).filter((r) => r.fault);
      const kinds = new Set(faults.map((f) => f.fault));
      expect(kinds).toEqual(new Set(['status429', 'status503', 'reset', 'truncated', 'malformed', 'emptyData']));
      expect(done.status).toBe('done');
      expect(done.saved + done.failed).toBe(500);
      const items = h.service.repo.page(job.id, 0, 1000).items;
      for (const item of items) {
        expect(['saved', 'failed']).toContain(item.state);
        if (item.state === 'failed') {
          expect(item.errorCode).toBeTruthy();
          expect(item.message?.vi).toBeTruthy();
        }
      }
      for (const id of ['MISSING-1', 'MISSING-5'])
        expect(items.find((i) => i.transactionId === id)).toMatchObject({ state: 'failed', errorCode: 'InvoiceNotExist' });
      // Nothing saved twice: one file per saved item, each recorded once, byte-identical.
      const saved = items.filter((i) => i.state === 'saved');
      expect(saved.length).toBeGreaterThanOrEqual(450);
      const files = listFiles(h.out);
      expect(files).toHaveLength(saved.length);
      expect(files.filter((f) => / \(\d+\)\./.test(f))).toEqual([]);
      const attempts = h.store.db.prepare(`SELECT max(attempts) AS m FROM download_items WHERE job_id = ? AND status = 'saved'`).get(job.id) as { m: number };
      expect(attempts.m).toBe(1);
      for (const item of saved.slice(0, 60)) {
        expect(Buffer.compare(fs.readFileSync(path.join(h.out, item.file!)), Buffer.from(await sandbox.catalogue.expected(item.transactionId, 'Pdf')))).toBe(0);
      }
    } finally {
      sandbox.setFaults({});
      await h.close();
    }
  }, 120_000);
});
