import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { builtinCommands } from '../../main/cli/commands';
import { runCli } from '../../main/cli/run';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { ProfileService } from '../../main/services/profiles';
import { keychainServiceFor } from '../../main/services/secrets';
import { openDatabase } from '../../main/services/store';

let dir: string;
let sandbox: Sandbox;
let profileId: string;

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run these tests with scripts/test-keychain.sh');
  delete process.env.EINVOICE_KEYCHAIN;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-kc-cli-'));
  sandbox = await startSandbox({ port: 0, invoiceCount: 20 });
  const store = openDatabase(dir);
  profileId = new ProfileService(store).add({ name: 'Local', kind: 'custom', baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl }).id;
  store.close();
});
afterAll(async () => {
  await sandbox?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli([...args, '--data-dir', dir], builtinCommands(), {
    io: {
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      env: {},
      cwd: dir,
      stdin: Readable.from([Buffer.from(stdin)]),
    } as never,
  });
  return { code, out, err };
}

it('login saves the token in the Secret Service; later runs use it; logout removes it', async () => {
  const token = sandbox.issueToken();
  const login = await cli(['login', '--profile', 'Local', '--token-stdin', '--json'], token);
  expect(login.code, login.err).toBe(0);
  expect(JSON.parse(login.out)).toMatchObject({ status: { state: 'signedIn', storage: 'keychain' } });
  const stored = execFileSync('secret-tool', ['lookup', 'service', keychainServiceFor(dir), 'username', `profile:${profileId}:token`], { encoding: 'utf8' });
  expect(stored).toBe(token);
  // Not in the database file.
  for (const f of fs.readdirSync(dir).filter((f) => f.startsWith('einvoice.db'))) expect(fs.readFileSync(path.join(dir, f)).includes(token)).toBe(false);

  // A separate invocation (a new process in real life) reads it back from the keychain.
  const templates = await cli(['templates', '--profile', 'Local', '--json']);
  expect(templates.code, templates.err).toBe(0);
  const status = await cli(['status', '--profile', 'Local', '--json']);
  expect(JSON.parse(status.out)).toMatchObject({ auth: { state: 'signedIn', method: 'token', daysLeft: 14 }, online: true });

  expect((await cli(['logout', '--profile', 'Local'])).code).toBe(0);
  expect(() =>
    execFileSync('secret-tool', ['lookup', 'service', keychainServiceFor(dir), 'username', `profile:${profileId}:token`], { stdio: 'pipe' }),
  ).toThrow();
  expect((await cli(['templates', '--profile', 'Local'])).code).toBe(3);
});
