import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtinCommands } from '../../../main/cli/commands';
import { runCli } from '../../../main/cli/run';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase } from '../../../main/services/store';

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  process.env.EINVOICE_KEYCHAIN = 'off'; // never touch a real keychain from tests
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-cli-login-'));
  sandbox = await startSandbox({ port: 0, invoiceCount: 20 });
  const store = openDatabase(dir);
  new ProfileService(store).add({ name: 'Local', kind: 'custom', baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl });
  store.close();
});
afterAll(async () => {
  delete process.env.EINVOICE_KEYCHAIN;
  await sandbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string; json: Record<string, unknown> | undefined }> {
  let out = '';
  let err = '';
  const code = await runCli([...args, '--data-dir', dir], builtinCommands(), {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      env: { EINVOICE_KEYCHAIN: 'off', ...env },
      cwd: dir,
      stdin: Readable.from([Buffer.from(stdin)]),
    } as never,
  });
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(out) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  return { code, out, err, json };
}

it('status --json on first run: the built-in Sandbox, signed in by itself, reachable', async () => {
  const r = await cli(['status', '--json']);
  expect(r.code).toBe(0);
  expect(r.json).toMatchObject({ profile: { id: 'sandbox', kind: 'sandbox', active: true }, auth: { state: 'signedIn', method: 'sandbox' }, online: true });
  const text = await cli(['status']);
  expect(text.out).toMatch(/Sandbox \(SANDBOX\)/);
});

it('login --token-stdin and --password-stdin sign in to a named profile; the token is never printed', async () => {
  const token = sandbox.issueToken();
  const viaToken = await cli(['login', '--profile', 'local', '--token-stdin', '--json'], `${token}\n`);
  expect(viaToken.code, viaToken.err).toBe(0);
  expect(viaToken.json).toMatchObject({ profile: { name: 'Local' }, status: { state: 'signedIn', method: 'token', daysLeft: 14, storage: 'memory' } });
  expect(viaToken.err).toMatch(/kept in memory for this run only/); // no keychain: said plainly
  expect(viaToken.out + viaToken.err).not.toContain(token);

  const c = sandbox.credentials;
  const viaPassword = await cli(
    ['login', '--profile', 'Local', '--appid', c.appid, '--taxcode', c.taxcode, '--username', c.username, '--password-stdin', '--json'],
    c.password,
  );
  expect(viaPassword.code, viaPassword.err).toBe(0);
  expect(viaPassword.json).toMatchObject({ status: { state: 'signedIn', method: 'credentials', userName: c.username } });
  expect(viaPassword.out + viaPassword.err).not.toContain(c.password);
});

it('a refused password exits 3; contradictory or missing options exit 2', async () => {
  const c = sandbox.credentials;
  const wrong = await cli(
    ['login', '--profile', 'Local', '--appid', c.appid, '--taxcode', c.taxcode, '--username', c.username, '--password-stdin'],
    'wrong-password',
  );
  expect(wrong.code).toBe(3);
  expect((await cli(['login', '--profile', 'Local', '--token-stdin', '--appid', 'x'], 'tok')).code).toBe(2);
  expect((await cli(['login', '--profile', 'Local', '--appid', 'x', '--password-stdin'], 'pw')).code).toBe(2);
  expect((await cli(['login', '--profile', 'Local'])).code).toBe(2);
  expect((await cli(['login', '--profile', 'Local', '--token-stdin'], '')).code).toBe(2);
  const unknown = await cli(['status', '--profile', 'Nope', '--json']);
  expect(unknown.code).not.toBe(0);
  expect(unknown.json).toMatchObject({ error: { code: 'profile_not_found' } });
});

it('logout signs the profile out', async () => {
  const r = await cli(['logout', '--profile', 'Local', '--json']);
  expect(r.code).toBe(0);
  expect(r.json).toMatchObject({ status: { state: 'signedOut' } });
});

it('other commands use a named profile: its address, and its token (EINVOICE_TOKEN overrides); signed out → exit 3', async () => {
  const ok = await cli(['templates', '--profile', 'Local', '--json'], '', { EINVOICE_TOKEN: sandbox.devToken });
  expect(ok.code, ok.err).toBe(0);
  expect((ok.json?.templates as unknown[]).length).toBeGreaterThan(0);
  const signedOut = await cli(['templates', '--profile', 'Local', '--json']);
  expect(signedOut.code).toBe(3);
  expect(signedOut.err).toMatch(/einvoice login --profile "Local"/);
  expect((await cli(['templates', '--profile', 'shop-1'])).code).toBe(2);
});
