import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../../main/sandbox';
import type { FaultOp } from '../../../main/sandbox/faults';
import { CLI_BIN, cliEnv, cliWorld } from '../../support/cli-process';
import { sampleInvoiceData } from '../../support/sandbox-invoice';

const world = cliWorld('einvoice-cli-signals-', { seed: 5, invoiceCount: 200 });
const env = () => ({ EINVOICE_DATA_DIR: path.join(world.tmp, 'data'), EINVOICE_KEYCHAIN: 'off', EINVOICE_TOKEN: world.sb.devToken });

beforeEach(() => world.sb.reset());

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the signal to the process's exit. */
  endedMs: number;
  stderr: string;
}

/**
 * Starts `einvoice ARGS`, waits until the sandbox has seen its `op` request (which hangs), sends
 * `sig`, and measures how long the CLI takes to end.
 */
async function interrupt(args: string[], op: FaultOp, sig: NodeJS.Signals, extraEnv: Record<string, string> = {}, stdin = ''): Promise<Interrupted> {
  const before = world.sb.requests({ op }).length;
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: world.tmp, env: cliEnv({ ...env(), ...extraEnv }), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.resume();
  child.stdin.end(stdin);
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  const deadline = Date.now() + 20_000;
  while (world.sb.requests({ op }).length === before) {
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`einvoice ${args.join(' ')} never reached ${op}\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const sent = performance.now();
  child.kill(sig);
  const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const { code, signal } = await closed;
  clearTimeout(guard);
  const endedMs = performance.now() - sent;
  console.log(`einvoice ${args[0]} ended ${Math.round(endedMs)} ms after ${sig} (exit ${code})`);
  return { code, signal, endedMs, stderr };
}

describe('SIGINT and SIGTERM end the CLI within a second, every loop that talks to the service honours the abort', () => {
  it('templates waiting on a hung service: SIGINT ends it within a second', async () => {
    world.sb.setFaults('templates:hang=1');
    const r = await interrupt(['templates', '--base-url', world.sb.baseUrl], 'templates', 'SIGINT');
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code).not.toBe(0);
    expect(r.endedMs, r.stderr).toBeLessThan(1_000);
  });

  it('preview waiting on a hung service: SIGTERM ends it within a second', async () => {
    fs.writeFileSync(path.join(world.tmp, 'invoice.json'), JSON.stringify(sampleInvoiceData()));
    world.sb.setFaults('preview:hang=1');
    const r = await interrupt(['preview', 'invoice.json', '--save', 'p.pdf', '--base-url', world.sb.baseUrl], 'preview', 'SIGTERM');
    expect(r.signal, r.stderr).toBeNull();
    expect(r.endedMs, r.stderr).toBeLessThan(1_000);
    expect(fs.existsSync(path.join(world.tmp, 'p.pdf'))).toBe(false);
  });

  it('login waiting on a hung token operation: SIGINT ends it within a second, signed out, no password kept', async () => {
    const add = spawn(process.execPath, [CLI_BIN, 'profile', 'add', 'shop', '--base-url', world.sb.baseUrl], { cwd: world.tmp, env: cliEnv(env()) });
    await new Promise((r) => add.on('close', r));
    world.sb.setFaults('token:hang=1');
    const r = await interrupt(
      [
        'login',
        '--profile',
        'shop',
        '--appid',
        SANDBOX_CREDENTIALS.appid,
        '--taxcode',
        SANDBOX_CREDENTIALS.taxcode,
        '--username',
        SANDBOX_CREDENTIALS.username,
        '--password-stdin',
      ],
      'token',
      'SIGINT',
      { EINVOICE_TOKEN: '' },
      `${SANDBOX_CREDENTIALS.password}\n`,
    );
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code).not.toBe(0);
    expect(r.endedMs, r.stderr).toBeLessThan(1_000);
    world.sb.setFaults('');
    const status = spawn(process.execPath, [CLI_BIN, 'status', '--profile', 'shop', '--json'], {
      cwd: world.tmp,
      env: cliEnv({ ...env(), EINVOICE_TOKEN: '' }),
    });
    let json = '';
    status.stdout.setEncoding('utf8').on('data', (d: string) => (json += d));
    await new Promise((r) => status.on('close', r));
    expect(JSON.parse(json)).toMatchObject({ auth: { state: 'signedOut', passwordRemembered: false } });
  });

  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`download in the middle of a job: ${sig} ends it within a second; the job is consistent and the same command finishes it`, async () => {
      const ids = world.sb.catalogue.list('withoutCode').slice(0, 120);
      const out = `dl-${sig}`;
      const args = ['download', '--type', 'xml', '--out', out, '--concurrency', '2', '--base-url', world.sb.baseUrl, '--json', ...ids];
      world.sb.setFaults('download:latency=60000');
      const r = await interrupt(args, 'download', sig);
      expect(r.signal, r.stderr).toBeNull();
      expect(r.endedMs, r.stderr).toBeLessThan(1_000);
      const folder = path.join(world.tmp, out);
      // No partial file under a temporary or a final name.
      expect(fs.readdirSync(folder).filter((n) => !n.endsWith('.xml'))).toEqual([]);
      world.sb.setFaults('');
      const again = await world.run(args, { env: { EINVOICE_TOKEN: world.sb.devToken }, timeoutMs: 60_000 });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/Continuing the unfinished job/);
      expect(again.json).toMatchObject({ saved: ids.length, failed: 0 });
      expect(fs.readdirSync(folder).filter((n) => n.endsWith('.xml'))).toHaveLength(ids.length);
    });
  }
});
