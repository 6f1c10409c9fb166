import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { keychainServiceFor } from '../../main/services/secrets';
import { buildOnce, spawnCli } from '../support/cli-process';

let sb: Sandbox;
let tmp: string;
let dataDir: string;

/** The built CLI in its own process: each run must find the sign-in in the Secret Service again. */
const run = (args: string[], stdin = '') => spawnCli(args, { cwd: tmp, stdin, env: { EINVOICE_DATA_DIR: dataDir } });

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run these tests with scripts/test-keychain.sh');
  buildOnce();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-kc-profile-'));
  dataDir = path.join(tmp, 'data');
  sb = await startSandbox({ port: 0, invoiceCount: 20 });
}, 300_000);
afterAll(async () => {
  await sb?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it('profile add + use, login once, then plain calls in new processes use the keychain token; remove forgets it', async () => {
  const add = await run(['profile', 'add', 'shop', '--base-url', sb.baseUrl, '--json']);
  expect(add.code, add.stderr).toBe(0);
  const shopId = (add.json.profile as { id: string }).id;
  expect((await run(['profile', 'use', 'shop'])).code).toBe(0);

  const token = sb.issueToken();
  const login = await run(['login', '--profile', 'shop', '--token-stdin', '--json'], token);
  expect(login.code, login.stderr).toBe(0);
  expect(login.json).toMatchObject({ status: { state: 'signedIn', storage: 'keychain' } });
  const lookup = () =>
    execFileSync('secret-tool', ['lookup', 'service', keychainServiceFor(dataDir), 'username', `profile:${shopId}:token`], { encoding: 'utf8', stdio: 'pipe' });
  expect(lookup()).toBe(token);

  // New processes, no EINVOICE_TOKEN: the active profile's address and its stored token.
  const before = sb.requests({ op: 'templates' }).length;
  const templates = await run(['templates', '--json']);
  expect(templates.code, templates.stderr).toBe(0);
  expect((templates.json.templates as unknown[]).length).toBeGreaterThan(0);
  expect(sb.requests({ op: 'templates' }).length).toBe(before + 1);
  const show = await run(['profile', 'show', '--json']);
  expect(show.json).toMatchObject({ profile: { id: shopId, active: true }, auth: { state: 'signedIn', method: 'token' } });

  const remove = await run(['profile', 'remove', 'shop', '--json']);
  expect(remove.code, remove.stderr).toBe(0);
  expect(remove.json).toMatchObject({ activeId: 'sandbox' });
  expect(lookup).toThrow();
});
