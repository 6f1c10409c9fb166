import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServices, type Services } from '../../../main/services';

let dir: string;
let services: Services;
const onlineEvents: boolean[] = [];

beforeAll(async () => {
  process.env.EINVOICE_KEYCHAIN = 'off';
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-sbx-'));
  services = await createServices({ dataDir: dir, version: '0.0.0-test', host: 'browser' });
  services.bus.on('app.online', (e) => onlineEvents.push(e.online));
});
afterAll(async () => {
  await services?.close();
  delete process.env.EINVOICE_KEYCHAIN;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function until(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const ok = async <T>(name: string, request: unknown): Promise<T> => {
  const result = await services.dispatch(name, request, { host: 'browser' });
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
};

it('first run: the Sandbox profile is active, signed in by itself, online, and lists templates', async () => {
  const list = await ok<{ activeId: string; profiles: Array<{ kind: string; active: boolean }> }>('profiles.list', {});
  expect(list.activeId).toBe('sandbox');
  expect(list.profiles).toEqual([expect.objectContaining({ kind: 'sandbox', active: true, builtin: true })]);
  expect(await ok('app.info', {})).toMatchObject({ connectionKind: 'sandbox' });
  expect(await ok('auth.status', {})).toMatchObject({ state: 'signedIn', method: 'sandbox' });
  await until(() => services.connectivity.online);
  const tested = await ok<{ ok: boolean; templates: Array<{ series: string }> }>('profiles.test', { id: 'sandbox' });
  expect(tested.ok).toBe(true);
  expect(tested.templates.length).toBeGreaterThan(0);
  expect(tested.templates[0]!.series).toMatch(/^\d[CK]\d{2}[A-Z]{3}$/);
  const session = await services.auth.gate.ready();
  expect(session.endpoint.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/integration\/invoice$/);
});

it('stopping the sandbox goes offline (app.online false); starting it again comes back online', async () => {
  await until(() => services.connectivity.online);
  expect(await ok('profiles.sandbox', { running: false })).toMatchObject({ running: false });
  await until(() => !services.connectivity.online);
  expect(onlineEvents.at(-1)).toBe(false);
  expect(await ok('app.info', {})).toMatchObject({ online: false });
  expect(await ok('profiles.sandbox', { running: true })).toMatchObject({ running: true });
  await until(() => services.connectivity.online);
  expect(onlineEvents.at(-1)).toBe(true);
});

it('a custom profile with http:// on a non-loopback host is refused, naming the field', async () => {
  const result = await services.dispatch(
    'profiles.add',
    { name: 'Shop', kind: 'custom', baseUrl: 'http://einvoice.example.vn/api/integration/invoice' },
    { host: 'browser' },
  );
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe('profile_url_invalid');
  expect(result.error.message).toContain('Service address (base URL): http:// is allowed only for this computer');
  expect(result.error.issues?.[0]?.path).toBe('baseUrl');
});

it('switching to an unreachable profile goes offline and app.info reports its kind', async () => {
  const p = await ok<{ id: string }>('profiles.add', { name: 'Nowhere', kind: 'custom', baseUrl: 'http://127.0.0.1:9/api/integration/invoice' });
  await ok('profiles.activate', { id: p.id });
  expect(await ok('app.info', {})).toMatchObject({ connectionKind: 'custom' });
  await until(() => !services.connectivity.online);
  expect(await ok('auth.status', {})).toMatchObject({ state: 'signedOut', profileId: p.id });
  const tested = await ok<{ ok: boolean; reachable: boolean }>('profiles.test', { id: p.id });
  expect(tested).toMatchObject({ ok: false, reachable: false });
  await ok('profiles.activate', { id: 'sandbox' });
  await until(() => services.connectivity.online);
});
