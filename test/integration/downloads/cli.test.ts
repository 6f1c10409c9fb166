import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { makeTempDir } from '../../support/temp-dir';

const CLI = path.resolve(__dirname, '../../../out/main/cli.cjs');
const run = promisify(execFile);

let sandbox: Sandbox;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('build first: node scripts/build.mjs --quiet');
  sandbox = await startSandbox({ port: 0, invoiceCount: 300, seed: 5 });
});
afterAll(async () => {
  await sandbox?.close();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env: { ...process.env, EINVOICE_TOKEN: sandbox.devToken } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('einvoice download', () => {
  it('--json lists every item; exit 1 when any failed; IDs as arguments; --calc/--with-code reach the service', async () => {
    const tmp = makeTempDir('einvoice-cli-dl-');
    try {
      const ids = sandbox.catalogue.list('cashRegister').slice(0, 3);
      const out = path.join(tmp.dir, 'out');
      const common = ['--base-url', sandbox.baseUrl, '--data-dir', path.join(tmp.dir, 'data')];
      const r = await cli(['download', '--type', 'xml', '--with-code', '--calc', '--out', out, '--json', ...common, ...ids, 'NOPE-1', ids[0]!]);
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as { items: Array<Record<string, unknown>>; saved: number; failed: number; skipped: number };
      expect(report).toMatchObject({ saved: 3, failed: 1, skipped: 0 });
      expect(report.items).toHaveLength(4);
      expect(report.items[0]).toEqual({ transactionId: ids[0], status: 'saved', file: path.join(out, `${ids[0]}.xml`), errorCode: null, message: null });
      expect(report.items[3]).toMatchObject({ transactionId: 'NOPE-1', status: 'failed', file: null, errorCode: 'InvoiceNotExist' });
      expect(String(report.items[3]!.message).length).toBeGreaterThan(5);
      expect(Buffer.compare(fs.readFileSync(path.join(out, `${ids[1]}.xml`)), Buffer.from(await sandbox.catalogue.expected(ids[1]!, 'Xml')))).toBe(0);

      // Again, same command: a finished job is not resumed; existing files are skipped (default policy).
      const again = await cli(['download', '--type', 'xml', '--with-code', '--calc', '--out', out, '--json', ...common, ...ids]);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ saved: 0, skipped: 3, failed: 0 });

      // --ids-file (CSV) and --unzip for All.
      const csv = path.join(tmp.dir, 'ids.csv');
      fs.writeFileSync(csv, `TransactionID,Note\n${ids[0]},a\n${ids[1]},b\n`);
      const all = await cli([
        'download',
        '--type',
        'all',
        '--unzip',
        '--with-code',
        '--calc',
        '--out',
        path.join(tmp.dir, 'all'),
        '--ids-file',
        csv,
        ...common,
      ]);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain('Saved 2, skipped 0, failed 0');
      expect(fs.readdirSync(path.join(tmp.dir, 'all', ids[0]!)).length).toBeGreaterThanOrEqual(2);
    } finally {
      tmp.cleanup();
    }
  }, 60_000);

  it('refuses a wrong command line with exit 2', async () => {
    const common = ['--base-url', sandbox.baseUrl];
    expect((await cli(['download', '--type', 'docx', '--out', '/tmp/x', ...common, 'A'])).code).toBe(2);
    expect((await cli(['download', '--type', 'pdf', ...common, 'A'])).code).toBe(2);
    expect((await cli(['download', '--type', 'pdf', '--out', '/tmp/x', ...common])).code).toBe(2);
    expect((await cli(['download', '--type', 'pdf', '--unzip', '--out', '/tmp/x', ...common, 'A'])).code).toBe(2);
  });
});
