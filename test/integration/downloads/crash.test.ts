import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { TEMP_PREFIX } from '../../../main/services/downloads';
import { makeTempDir } from '../../support/temp-dir';
import { listFiles } from './helpers';

const CLI = path.resolve(__dirname, '../../../out/main/cli.cjs');

let sandbox: Sandbox;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('build first: node scripts/build.mjs --quiet');
  sandbox = await startSandbox({ port: 0, invoiceCount: 1800, seed: 3 });
});
afterAll(async () => {
  await sandbox?.close();
});

function runCli(args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

describe('crash safety of the download command', () => {
  it('kill -9 at random moments of a 1 000-item job, run again: completes, byte-identical, no temp file left', async () => {
    const tmp = makeTempDir('einvoice-crash-');
    try {
      const out = path.join(tmp.dir, 'out');
      const ids = sandbox.catalogue.list('withCode').slice(0, 1000);
      expect(ids).toHaveLength(1000);
      const idsFile = path.join(tmp.dir, 'ids.txt');
      fs.writeFileSync(idsFile, ids.join('\n') + '\n');
      const args = ['download', '--type', 'pdf', '--with-code', '--out', out, '--ids-file', idsFile, '--base-url', sandbox.baseUrl, '--data-dir', path.join(tmp.dir, 'data'), '--json'];
      const env = { EINVOICE_TOKEN: sandbox.devToken };
      // Slow the service a little so the kills land mid-job (while files are being written).
      sandbox.setFaults({ download: { latencyMs: 500, jitterMs: 300 } });

      let seed = 12345;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      let kills = 0;
      const progress: number[] = [];
      let finishedAlone: Awaited<ReturnType<typeof runCli>['done']> | null = null;
      for (let round = 0; round < 8; round++) {
        const run = runCli(args, env);
        // Kill at a random moment after start-up (the CLI takes ~0.5 s to load and open the database).
        const wait = 500 + Math.floor(random() * 1000);
        const result = await Promise.race([run.done, new Promise<null>((r) => setTimeout(() => r(null), wait))]);
        if (result !== null) {
          finishedAlone = result; // the job ended before this kill: that run is the "run again"
          break;
        }
        run.child.kill('SIGKILL');
        const killed = await run.done;
        expect(killed.signal).toBe('SIGKILL');
        kills++;
        progress.push(listFiles(out).filter((f) => !f.startsWith(TEMP_PREFIX)).length);
      }
      console.log(`crash test: ${kills} kills; files after each kill: ${progress.join(', ')}; finished by itself: ${finishedAlone !== null}`);
      expect(kills).toBeGreaterThanOrEqual(4);

      sandbox.setFaults({});
      const final = finishedAlone ?? (await runCli(args, env).done);
      expect(final.code, final.stderr).toBe(0);
      const report = JSON.parse(final.stdout) as { items: Array<{ transactionId: string; status: string; file: string }>; saved: number; failed: number; skipped: number };
      expect(report).toMatchObject({ saved: 1000, failed: 0, skipped: 0 });
      expect(report.items).toHaveLength(1000);

      const files = listFiles(out);
      expect(files.filter((f) => f.startsWith(TEMP_PREFIX) || f.includes('.einvoice-part'))).toEqual([]);
      expect(files).toHaveLength(1000);
      expect(files.filter((f) => / \(\d+\)\./.test(f))).toEqual([]);
      for (const id of ids) {
        const got = fs.readFileSync(path.join(out, `${id}.pdf`));
        expect(Buffer.compare(got, Buffer.from(await sandbox.catalogue.expected(id, 'Pdf'))), id).toBe(0);
      }
      // The kills really happened mid-job: some files existed after a kill, not all of them.
      expect(progress.some((n) => n > 0 && n < 1000)).toBe(true);
    } finally {
      tmp.cleanup();
    }
  }, 180_000);
});
