import { describe, expect, it } from 'vitest';
import { AppError } from '../../../common/errors';
import { checkServiceUrl, isLoopbackHost, PRESETS, ProfileService, SANDBOX_PROFILE_ID } from '../../../main/services/profiles';
import { freshStorePerTest } from '../../support/temp-dir';

const db = freshStorePerTest('einv-prof-');

function appError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('service URLs', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(checkServiceUrl('baseUrl', ' https://api.example.vn/api/integration/invoice/ ')).toBe('https://api.example.vn/api/integration/invoice');
    expect(checkServiceUrl('baseUrl', 'http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(checkServiceUrl('baseUrl', 'http://localhost:1/x')).toBe('http://localhost:1/x');
    expect(checkServiceUrl('baseUrl', 'http://[::1]:9/x')).toBe('http://[::1]:9/x');
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', '192.168.1.2', 'example.com', '127.0.0.1.evil.com', 'localhost.evil.com', 'a.localhost'])
      expect(isLoopbackHost(host)).toBe(false);
  });

  it('refuses http:// for a non-loopback host with a message naming the field', () => {
    const error = appError(() => checkServiceUrl('baseUrl', 'http://api.example.vn/api/integration/invoice'));
    expect(error.code).toBe('profile_url_invalid');
    expect(error.message).toMatch(/^Service address \(base URL\): http:\/\/ is allowed only for this computer/);
    expect(error.messageVi).toMatch(/^Địa chỉ dịch vụ \(base URL\): http:\/\/ chỉ được dùng cho chính máy này/);
    expect(error.issues?.[0]?.path).toBe('baseUrl');
    expect(appError(() => checkServiceUrl('tokenUrl', 'http://10.0.0.5/token')).issues?.[0]?.path).toBe('tokenUrl');
    expect(appError(() => checkServiceUrl('baseUrl', 'ftp://x.vn')).message).toMatch(/only https/);
    expect(appError(() => checkServiceUrl('baseUrl', 'not a url')).message).toMatch(/full address/);
    expect(appError(() => checkServiceUrl('baseUrl', 'https://u:p@x.vn')).message).toMatch(/user name or password/);
  });
});

describe('ProfileService', () => {
  it('first run: the built-in Sandbox exists and is active', () => {
    const profiles = new ProfileService(db.store);
    expect(profiles.list()).toEqual([{ id: SANDBOX_PROFILE_ID, name: 'Sandbox', kind: 'sandbox', baseUrl: null, tokenUrl: null, builtin: true, active: true }]);
    expect(profiles.active().kind).toBe('sandbox');
    // A second construction (next start, or the CLI) does not duplicate it.
    expect(new ProfileService(db.store).list()).toHaveLength(1);
  });

  it('adds presets with their public addresses and custom profiles with checked URLs', () => {
    const profiles = new ProfileService(db.store);
    const test = profiles.add({ name: 'Test', kind: 'test' });
    expect(test).toMatchObject({ kind: 'test', baseUrl: PRESETS.test.baseUrl, tokenUrl: PRESETS.test.tokenUrl, active: false });
    expect(PRESETS.test.baseUrl).toBe('https://testapi.meinvoice.vn/api/integration/invoice');
    expect(PRESETS.test.tokenUrl).toBe('https://testapi.meinvoice.vn/api/integration/auth/token');
    expect(profiles.add({ name: 'Prod', kind: 'production' }).baseUrl).toBe('https://api.meinvoice.vn/api/integration/invoice');
    const custom = profiles.add({ name: 'Local', kind: 'custom', baseUrl: 'http://127.0.0.1:5000/api/integration/invoice' });
    expect(custom).toMatchObject({ kind: 'custom', tokenUrl: null });
    expect(appError(() => profiles.add({ name: 'Bad', kind: 'custom', baseUrl: 'http://shop.example.vn/api' })).issues?.[0]?.path).toBe('baseUrl');
    expect(appError(() => profiles.add({ name: 'NoUrl', kind: 'custom' })).issues?.[0]?.path).toBe('baseUrl');
    expect(appError(() => profiles.add({ name: 'local', kind: 'test' })).code).toBe('profile_name_taken');
    expect(appError(() => profiles.add({ name: '  ', kind: 'test' })).issues?.[0]?.path).toBe('name');
    expect(profiles.list().map((p) => p.name)).toEqual(['Sandbox', 'Test', 'Prod', 'Local']);
  });

  it('edits, activates, finds by name, and removes (falling back to the Sandbox)', () => {
    const profiles = new ProfileService(db.store);
    const changes: string[] = [];
    profiles.onActiveChange((p) => changes.push(p.id));
    const custom = profiles.add({ name: 'Shop', kind: 'custom', baseUrl: 'https://a.example.vn/invoice' });
    const edited = profiles.update(custom.id, { baseUrl: 'https://b.example.vn/invoice', tokenUrl: 'https://b.example.vn/auth/token' });
    expect(edited).toMatchObject({ baseUrl: 'https://b.example.vn/invoice', tokenUrl: 'https://b.example.vn/auth/token' });
    expect(appError(() => profiles.update(custom.id, { baseUrl: 'http://b.example.vn/invoice' })).code).toBe('profile_url_invalid');
    expect(profiles.get(custom.id).baseUrl).toBe('https://b.example.vn/invoice');
    profiles.activate(custom.id);
    expect(profiles.active().id).toBe(custom.id);
    expect(profiles.find('shop').id).toBe(custom.id);
    expect(new ProfileService(db.store).activeId()).toBe(custom.id); // persisted
    profiles.remove(custom.id);
    expect(profiles.active().id).toBe(SANDBOX_PROFILE_ID);
    expect(changes).toEqual([custom.id, SANDBOX_PROFILE_ID]);
    expect(appError(() => profiles.remove(SANDBOX_PROFILE_ID)).code).toBe('profile_builtin');
    expect(appError(() => profiles.update(SANDBOX_PROFILE_ID, { baseUrl: 'https://x.vn' })).code).toBe('profile_builtin');
    expect(appError(() => profiles.get('nope')).code).toBe('profile_not_found');
  });

  it('removing a profile removes its per-profile rows (cascade)', () => {
    const profiles = new ProfileService(db.store);
    const p = profiles.add({ name: 'T', kind: 'test' });
    db.store.db.prepare("INSERT INTO profile_auth(profile_id, method, signed_in_at) VALUES (?, 'token', '2026-01-01T00:00:00Z')").run(p.id);
    profiles.remove(p.id);
    expect(db.store.db.prepare('SELECT count(*) AS n FROM profile_auth').get()).toEqual({ n: 0 });
  });
});
