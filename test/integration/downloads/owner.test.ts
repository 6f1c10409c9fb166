import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { makeTempDir } from '../../support/temp-dir';
import { recordHardening } from '../../support/hardening-report';
import { listFiles, runCli as runCliAt, BUILT_CLI, sandboxForBuiltCli, writeIdsFile } from './helpers';

const JOB_SIZE = 600;

const sandboxOf = sandboxForBuiltCli(11);

function runCli(args: string[]) {
  return runCliAt(BUILT_CLI, args, { EINVOICE_TOKEN: sandboxOf().devToken });
}

interface ItemRow {
  transaction_id: string;
  status: string;
  attempts: number;
}

function readJob(dataDir: string): { job: { id: string; n_saved: number; owner: string | null; base_url: string | null } | undefined; items: ItemRow[] } {
  if (!fs.existsSync(path.join(dataDir, 'einvoice.db'))) return { job: undefined, items: [] };
  // Read as is (no migration), so the processes under test own the schema.
  const db = new DatabaseSync(path.join(dataDir, 'einvoice.db'), { readOnly: true });
  try {
    const job = db.prepare('SELECT * FROM download_jobs').get() as { id: string; n_saved: number; owner: string | null; base_url: string | null } | undefined;
    const items = job ? (db.prepare('SELECT transaction_id, status, attempts FROM download_items WHERE job_id = ?').all(job.id) as unknown as ItemRow[]) : [];
    return { job, items };
  } catch {
    return { job: undefined, items: [] }; // not created yet
  } finally {
    db.close();
  }
}

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('one owner per job', () => {
  it('two CLI processes on one job: the second is told it runs in another window and writes nothing; after kill -9 of the owner it takes over; 0 files written twice', async () => {
    const sandbox = sandboxOf();
    const tmp = makeTempDir('einvoice-owner-');
    try {
      const { idsFile } = writeIdsFile(sandbox, tmp.dir, JOB_SIZE);
      const dataDir = path.join(tmp.dir, 'data');
      const out = path.join(tmp.dir, 'out');
      const args = [
        'download',
        '--type',
        'pdf',
        '--with-code',
        '--concurrency',
        '1',
        '--out',
        out,
        '--ids-file',
        idsFile,
        '--base-url',
        sandbox.baseUrl,
        '--data-dir',
        dataDir,
        '--json',
      ];
      // Slow each call so the job lasts a few seconds: 12 calls of 50 IDs, one at a time.
      sandbox.setFaults({ download: { latencyMs: 400 } });

      const first = runCli(args);
      await until(() => (readJob(dataDir).job?.n_saved ?? 0) >= 50, 'the first process to save a batch');
      // A second process on the same job while the owner lives: refused, in both languages.
      const second = await runCli(args).done;
      expect(second.code).not.toBe(0);
      expect(second.stdout + second.stderr).toMatch(/running in another window/);
      expect(second.stdout + second.stderr).toMatch(/đang chạy ở một cửa sổ khác/);
      const owner = readJob(dataDir).job!;
      expect(owner.owner).toMatch(new RegExp(`^${first.child.pid}:`));
      expect(owner.base_url).toBe(sandbox.baseUrl);

      // The owner is killed mid-job: the row still names it, but it is gone, so a third one takes over.
      const before = readJob(dataDir);
      expect(before.items.filter((i) => i.status === 'saved').length).toBeLessThan(JOB_SIZE);
      first.child.kill('SIGKILL');
      expect((await first.done).signal).toBe('SIGKILL');
      const savedAtKill = new Set(
        readJob(dataDir)
          .items.filter((i) => i.status === 'saved')
          .map((i) => i.transaction_id),
      );
      const callsAtKill = sandbox.requests({ op: 'download' }).length;

      sandbox.setFaults({});
      const third = await runCli(args).done;
      expect(third.code, third.stderr).toBe(0);
      const report = JSON.parse(third.stdout) as { saved: number; failed: number; skipped: number };
      expect(report.failed, third.stdout.slice(0, 400) + second.stdout).toBe(0);
      expect(report.saved + report.skipped, JSON.stringify(report).slice(-200)).toBe(JOB_SIZE);

      const after = readJob(dataDir);
      expect(after.job!.owner).toBeNull(); // let go at the end
      // 0 files written twice: every item was recorded saved by exactly one process, once.
      const twice = after.items.filter((i) => i.attempts !== 1).map((i) => i.transaction_id);
      expect(twice).toEqual([]);
      const files = listFiles(out);
      expect(files).toHaveLength(JOB_SIZE);
      expect(files.filter((f) => / \(\d+\)\./.test(f))).toEqual([]);
      // The taker asked only for what was not saved when the owner died.
      const callsAfter = sandbox.requests({ op: 'download' }).length - callsAtKill;
      expect(callsAfter).toBeLessThanOrEqual(Math.ceil((JOB_SIZE - savedAtKill.size) / 50) + 1);
      recordHardening('downloads-two-processes', { twoProcessDownloadRounds: 1, downloadFilesWrittenTwice: twice.length });
      console.log(
        `one owner: second process refused (exit ${second.code}); ${savedAtKill.size} saved at the kill; ${callsAtKill} + ${callsAfter} Download calls; 0 items recorded twice`,
      );
    } finally {
      sandbox.setFaults({});
      tmp.cleanup();
    }
  }, 120_000);
});
