import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEMP_PREFIX } from '../../../main/services/downloads';
import { CRASH_SEEDS, seededRandom } from '../../support/crash';
import { recordHardening } from '../../support/hardening-report';
import { makeTempDir } from '../../support/temp-dir';
import { openDatabase } from '../../../main/services/store';
import { countItems, listFiles, runCli, type CliDone, BUILT_CLI, sandboxForBuiltCli, writeIdsFile } from './helpers';

const sandboxOf = sandboxForBuiltCli(3);

const JOB_SIZE = 600;

describe('crash safety of the download command', () => {
  it(`kill -9 at a seeded random moment of a job, ${CRASH_SEEDS} seeds: no partial file under a final name; every job completes byte-identical with no temp file left`, async () => {
    const sandbox = sandboxOf();
    const tmp = makeTempDir('einvoice-crash-');
    try {
      const { ids, idsFile } = writeIdsFile(sandbox, tmp.dir, JOB_SIZE);
      const expected = new Map<string, Buffer>();
      for (const id of ids) expected.set(`${id}.pdf`, Buffer.from(await sandbox.catalogue.expected(id, 'Pdf')));
      const env = { EINVOICE_TOKEN: sandbox.devToken };
      let job = 0;
      const argsFor = (n: number) => [
        'download',
        '--type',
        'pdf',
        '--with-code',
        '--out',
        path.join(tmp.dir, `out-${n}`),
        '--ids-file',
        idsFile,
        '--base-url',
        sandbox.baseUrl,
        '--data-dir',
        path.join(tmp.dir, 'data'),
        '--json',
      ];

      /** After any stop: a file under its final name is complete; only temp names may be partial. */
      const checkFolder = (n: number) => {
        const files = listFiles(path.join(tmp.dir, `out-${n}`));
        const finals = files.filter((f) => !f.startsWith(TEMP_PREFIX) && !f.includes('.einvoice-part'));
        for (const f of finals) expect(Buffer.compare(fs.readFileSync(path.join(tmp.dir, `out-${n}`, f)), expected.get(f) ?? Buffer.alloc(0)), f).toBe(0);
        return { files, finals };
      };
      const checkComplete = (n: number, result: CliDone) => {
        expect(result.code, result.stderr).toBe(0);
        const report = JSON.parse(result.stdout) as { saved: number; failed: number; skipped: number };
        // A kill can land after the last file was saved but before the job was closed: the run
        // after it then finds every file in place and skips them. Either way, nothing failed.
        expect(report.failed).toBe(0);
        expect(report.saved + report.skipped).toBe(JOB_SIZE);
        const { files, finals } = checkFolder(n);
        expect(finals).toHaveLength(JOB_SIZE);
        expect(files).toHaveLength(JOB_SIZE); // no temp file left behind
        expect(files.filter((f) => / \(\d+\)\./.test(f))).toEqual([]); // nothing saved twice
      };

      /** The progress counters on each job row equal a recount of its items, whatever moment the kill hit. */
      const countersMatch = () => {
        const store = openDatabase(path.join(tmp.dir, 'data'));
        try {
          const jobs = store.db.prepare('SELECT id FROM download_jobs').all() as Array<{ id: string }>;
          for (const { id } of jobs) {
            const row = store.db
              .prepare(
                'SELECT n_total AS total, n_pending AS pending, n_placing AS placing, n_saved AS saved, n_skipped AS skipped, n_failed AS failed, n_bytes AS bytes FROM download_jobs WHERE id = ?',
              )
              .get(id);
            expect({ ...row }).toEqual(countItems(store, id));
          }
        } finally {
          store.close();
        }
      };

      // Slow the service a little so the kills land mid-job (while files are being written).
      sandbox.setFaults({ download: { latencyMs: 300, jitterMs: 300 } });
      let kills = 0;
      let completedJobs = 0;
      const progress: number[] = [];
      for (let seed = 0; seed < CRASH_SEEDS; seed++) {
        const random = seededRandom(7000 + seed);
        const run = runCli(BUILT_CLI, argsFor(job), env);
        // The CLI takes ~0.5 s to load and open the database; kill somewhere after that.
        const wait = 400 + Math.floor(random() * 1400);
        const result = await Promise.race([run.done, new Promise<null>((r) => setTimeout(() => r(null), wait))]);
        if (result !== null) {
          checkComplete(job, result); // this job ended before the kill: it is the "run again"
          completedJobs++;
          job++;
          continue;
        }
        run.child.kill('SIGKILL');
        const killed = await run.done;
        if (killed.signal !== 'SIGKILL') {
          checkComplete(job, killed); // it finished in the instant before the signal
          completedJobs++;
          job++;
          continue;
        }
        kills++;
        progress.push(checkFolder(job).finals.length);
        countersMatch();
      }
      sandbox.setFaults({});
      checkComplete(job, await runCli(BUILT_CLI, argsFor(job), env).done);
      completedJobs++;
      countersMatch(); // after the resumed runs too
      console.log(`crash test: ${kills} kills over ${completedJobs} jobs; files saved at each kill: ${progress.join(', ')}`);
      expect(kills).toBeGreaterThanOrEqual(Math.ceil(CRASH_SEEDS * 0.6));
      // The kills really happened mid-job: some files existed after a kill, not all of them.
      expect(progress.some((n) => n > 0 && n < JOB_SIZE)).toBe(true);
      recordHardening('crash-downloads', { crashSeeds: CRASH_SEEDS, crashKills: kills, crashScenarios: 1, crashLosses: 0 }); // reached only when every invariant held
    } finally {
      tmp.cleanup();
    }
  }, 900_000);
});
