import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../main/services';
import { originChanged } from '../../../common/rules/network';
import { MemorySecretStore, secretAccounts } from '../../../main/services/secrets';
import { startSandbox, SANDBOX_CREDENTIALS, type Sandbox } from '../../../main/sandbox';
import { startAnswerServer, type AnswerServer } from '../../support/answer-server';

let dir: string;
let services: Services;
let secrets: MemorySecretStore;
let sb: Sandbox;
let other: AnswerServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-origin-'));
  secrets = new MemorySecretStore();
  sb = await startSandbox({ port: 0, seed: 3, invoiceCount: 5 });
  other = await startAnswerServer();
  other.answer({ body: JSON.stringify({ success: true, errorCode: null, errors: [], data: [] }) });
  services = await createServices({ dataDir: dir, version: '0.0.0-test', host: 'browser', secrets });
});
afterAll(async () => {
  await services?.close();
  await sb?.close();
  await other?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function ok<T = Record<string, unknown>>(name: string, request: unknown): Promise<T> {
  const result = await services.dispatch(name, request, { host: 'browser' });
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

async function signedInShop(name: string): Promise<string> {
  const profile = await ok<{ id: string }>('profiles.add', { name, kind: 'custom', baseUrl: sb.baseUrl });
  const status = await ok('auth.signInWithPassword', {
    profileId: profile.id,
    appId: SANDBOX_CREDENTIALS.appid,
    taxCode: SANDBOX_CREDENTIALS.taxcode,
    userName: SANDBOX_CREDENTIALS.username,
    password: SANDBOX_CREDENTIALS.password,
    rememberPassword: true,
  });
  expect(status).toMatchObject({ state: 'signedIn', passwordRemembered: true });
  return profile.id;
}

describe('a token follows its origin', () => {
  it('a path change on the same origin keeps the token and the remembered password', async () => {
    const id = await signedInShop('Same origin');
    const moved = sb.baseUrl.replace('/api/integration/invoice', '/v2/api/integration/invoice');
    const saved = await ok('profiles.update', { id, baseUrl: moved });
    expect(saved).toMatchObject({ baseUrl: moved, signedOutByOriginChange: false });
    expect(await ok('auth.status', { profileId: id })).toMatchObject({ state: 'signedIn', passwordRemembered: true });
    expect(await secrets.get(secretAccounts.password(id))).toBe(SANDBOX_CREDENTIALS.password);
  });

  it('moving the profile to another host signs it out, forgets the password, and sends no token to the new host', async () => {
    const id = await signedInShop('Moved away');
    const saved = await ok('profiles.update', { id, baseUrl: other.baseUrl });
    await ok('profiles.test', { id });
    expect(other.requests.map((r) => r.authorization).filter(Boolean)).toEqual([]);
    expect(await ok('auth.status', { profileId: id })).toMatchObject({ state: 'signedOut', passwordRemembered: false });
    expect(await secrets.get(secretAccounts.token(id))).toBeNull();
    expect(await secrets.get(secretAccounts.password(id))).toBeNull();
    expect(saved).toMatchObject({ baseUrl: other.baseUrl, signedOutByOriginChange: true });
  });

  it('scheme, host, port and the token address each count; the path and the letter case of the host do not', () => {
    const at = (baseUrl: string, tokenUrl: string | null = null) => ({ baseUrl, tokenUrl });
    const base = at('https://api.example.vn/api/integration/invoice');
    expect(originChanged(base, at('https://api.example.vn/v2/api/integration/invoice'))).toBe(false);
    expect(originChanged(base, at('https://API.example.vn:443/api/integration/invoice'))).toBe(false);
    expect(originChanged(base, at('https://api.example.vn/api/integration/invoice', 'https://api.example.vn/auth/token'))).toBe(false);
    expect(originChanged(base, at('https://api2.example.vn/api/integration/invoice'))).toBe(true);
    expect(originChanged(base, at('https://api.example.vn:8443/api/integration/invoice'))).toBe(true);
    expect(originChanged(at('http://127.0.0.1:5000/x'), at('https://127.0.0.1:5000/x'))).toBe(true);
    expect(originChanged(base, at('https://api.example.vn/api/integration/invoice', 'https://login.example.vn/auth/token'))).toBe(true);
    // Half-typed form values never throw; an unreadable address counts as another place.
    expect(originChanged(base, at('https://'))).toBe(true);
    expect(originChanged(base, at('  https://api.example.vn/x  ', '  '))).toBe(false);
  });
});
