import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, SANDBOX_CREDENTIALS, type Sandbox } from '../../main/sandbox';
import { createServices, type Services } from '../../main/services';
import { keychainServiceFor } from '../../main/services/secrets';

let sb: Sandbox;
let dir: string;
let services: Services;

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run these tests with scripts/test-keychain.sh');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-kc-origin-'));
  sb = await startSandbox({ port: 0, invoiceCount: 5 });
  services = await createServices({ dataDir: dir, version: '0.0.0-test', host: 'browser' });
});
afterAll(async () => {
  await services?.close();
  await sb?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function ok<T = Record<string, unknown>>(name: string, request: unknown): Promise<T> {
  const result = await services.dispatch(name, request, { host: 'browser' });
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

/** The secret as the Secret Service holds it, or null when there is none. */
function lookup(account: string): string | null {
  try {
    return execFileSync('secret-tool', ['lookup', 'service', keychainServiceFor(dir), 'username', account], { encoding: 'utf8', stdio: 'pipe' });
  } catch {
    return null;
  }
}

it('a token follows its origin: a path change keeps the keychain entries; another host removes the token and the remembered password', async () => {
  const { id } = await ok<{ id: string }>('profiles.add', { name: 'Shop', kind: 'custom', baseUrl: sb.baseUrl });
  const status = await ok('auth.signInWithPassword', {
    profileId: id,
    appId: SANDBOX_CREDENTIALS.appid,
    taxCode: SANDBOX_CREDENTIALS.taxcode,
    userName: SANDBOX_CREDENTIALS.username,
    password: SANDBOX_CREDENTIALS.password,
    rememberPassword: true,
  });
  expect(status).toMatchObject({ state: 'signedIn', storage: 'keychain', passwordRemembered: true });
  expect(lookup(`profile:${id}:password`)).toBe(SANDBOX_CREDENTIALS.password);
  const token = lookup(`profile:${id}:token`);
  expect(token).toBeTruthy();

  const samePlace = await ok('profiles.update', { id, baseUrl: sb.baseUrl.replace('/api/', '/v2/api/') });
  expect(samePlace).toMatchObject({ signedOutByOriginChange: false });
  expect(lookup(`profile:${id}:token`)).toBe(token);
  expect(lookup(`profile:${id}:password`)).toBe(SANDBOX_CREDENTIALS.password);

  const moved = await ok('profiles.update', { id, baseUrl: sb.baseUrl.replace('127.0.0.1', 'localhost') });
  expect(moved).toMatchObject({ signedOutByOriginChange: true });
  expect(lookup(`profile:${id}:token`)).toBeNull();
  expect(lookup(`profile:${id}:password`)).toBeNull();
  expect(await ok('auth.status', { profileId: id })).toMatchObject({ state: 'signedOut', passwordRemembered: false });
});
