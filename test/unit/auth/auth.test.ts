import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthStatus } from '../../../common/calls/auth';
import { AppError } from '../../../common/errors';
import { EventBus } from '../../../common/ipc/bus';
import { AuthService, expiryInfo, jwtExpiry, type Endpoint, type RequestToken } from '../../../main/services/auth';
import { ProfileService, SANDBOX_PROFILE_ID } from '../../../main/services/profiles';
import { MemorySecretStore, keychainUnavailable, secretAccounts } from '../../../main/services/secrets';
import { openDatabase, type Store } from '../../../main/services/store';

const DAY = 86_400_000;
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (exp: number | undefined) => `${b64({ alg: 'HS256' })}.${b64(exp === undefined ? { sub: 'x' } : { sub: 'x', exp })}.c2ln`;

describe('JWT expiry', () => {
  const now = new Date('2026-03-01T00:00:00Z');
  it('reads exp, counts days left (rounded up) and warns two days ahead', () => {
    const in5 = jwt(now.getTime() / 1000 + 5 * 86400);
    expect(jwtExpiry(in5)?.toISOString()).toBe('2026-03-06T00:00:00.000Z');
    expect(expiryInfo(jwtExpiry(in5), now)).toEqual({ daysLeft: 5, expiringSoon: false, expired: false });
    expect(expiryInfo(new Date(now.getTime() + 2 * DAY), now)).toEqual({ daysLeft: 2, expiringSoon: true, expired: false });
    expect(expiryInfo(new Date(now.getTime() + 2 * DAY + 1000), now)).toMatchObject({ daysLeft: 3, expiringSoon: false });
    expect(expiryInfo(new Date(now.getTime() + 3_600_000), now)).toEqual({ daysLeft: 1, expiringSoon: true, expired: false });
    expect(expiryInfo(new Date(now.getTime() - 1), now)).toEqual({ daysLeft: 0, expiringSoon: true, expired: true });
    expect(expiryInfo(null, now)).toEqual({ daysLeft: null, expiringSoon: false, expired: false });
  });
  it('no exp, not a JWT, or garbage → null', () => {
    expect(jwtExpiry(jwt(undefined))).toBeNull();
    expect(jwtExpiry('plain-opaque-token')).toBeNull();
    expect(jwtExpiry('a.%%%.c')).toBeNull();
  });
});

describe('AuthService and AuthGate', () => {
  let dir: string;
  let store: Store;
  let profiles: ProfileService;
  let now: Date;
  let bus: EventBus;
  let events: AuthStatus[];
  let secrets: MemorySecretStore;
  let tokenCalls: Array<Parameters<RequestToken>[0]>;
  let nextToken: string | Error;

  const endpointOf = async (p: { kind: string; baseUrl: string | null; tokenUrl: string | null }): Promise<Endpoint> =>
    p.kind === 'sandbox' ? { baseUrl: 'http://127.0.0.1:1/invoice', tokenUrl: null, devToken: 'dev-token' } : { baseUrl: p.baseUrl!, tokenUrl: p.tokenUrl };

  const make = () =>
    new AuthService({
      store,
      secrets,
      profiles,
      bus,
      now: () => now,
      resolveEndpoint: endpointOf,
      requestToken: async (req) => {
        tokenCalls.push(req);
        if (nextToken instanceof Error) throw nextToken;
        return nextToken;
      },
    });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-auth-'));
    store = openDatabase(dir);
    profiles = new ProfileService(store);
    now = new Date('2026-03-01T00:00:00Z');
    bus = new EventBus();
    events = [];
    bus.on('auth.changed', (s) => events.push(s));
    secrets = new MemorySecretStore();
    tokenCalls = [];
    nextToken = jwt(now.getTime() / 1000 + 14 * 86400);
  });
  afterEach(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the Sandbox is signed in by itself with its development token', async () => {
    const auth = make();
    expect(await auth.status()).toMatchObject({ profileId: SANDBOX_PROFILE_ID, state: 'signedIn', method: 'sandbox' });
    const session = await auth.gate.ready();
    expect(session.token).toBe('dev-token');
    expect(session.profile.kind).toBe('sandbox');
  });

  it('paste a token: stored in the SecretStore only, expiry from exp, status never carries it', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    expect((await auth.status(p.id)).state).toBe('signedOut');
    const token = jwt(now.getTime() / 1000 + 1.5 * 86400);
    const status = await auth.signInWithToken(p.id, `  ${token}\n`);
    expect(status).toMatchObject({ state: 'signedIn', method: 'token', daysLeft: 2, expiringSoon: true, storage: 'memory' });
    expect(await secrets.get(secretAccounts.token(p.id))).toBe(token);
    expect(JSON.stringify(status)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(store.db.prepare('SELECT * FROM profile_auth').all())).not.toContain(token);
    expect(events.at(-1)?.state).toBe('signedIn');
    now = new Date(now.getTime() + 2 * DAY);
    expect((await auth.status(p.id)).state).toBe('expired');
  });

  it('refuses an already-expired or malformed token', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    await expect(auth.signInWithToken(p.id, jwt(now.getTime() / 1000 - 10))).rejects.toMatchObject({ code: 'auth_token_expired' });
    await expect(auth.signInWithToken(p.id, 'two words')).rejects.toMatchObject({ code: 'auth_token_invalid' });
    expect(await secrets.get(secretAccounts.token(p.id))).toBeNull();
  });

  it('user name + password: the token operation, the password kept only when asked', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    const status = await auth.signInWithPassword(p.id, { appId: 'APP', taxCode: '0101243150', userName: 'thu.ngan', password: 'pw-1' });
    expect(tokenCalls[0]).toMatchObject({ appId: 'APP', taxCode: '0101243150', userName: 'thu.ngan', password: 'pw-1', endpoint: { baseUrl: p.baseUrl } });
    expect(status).toMatchObject({ state: 'signedIn', method: 'credentials', appId: 'APP', userName: 'thu.ngan', passwordRemembered: false, daysLeft: 14 });
    expect(await secrets.get(secretAccounts.password(p.id))).toBeNull();
    expect(await auth.renew(p.id)).toBeNull();

    await auth.signInWithPassword(p.id, { appId: 'APP', taxCode: '0101243150', userName: 'thu.ngan', password: 'pw-2', rememberPassword: true });
    expect(await secrets.get(secretAccounts.password(p.id))).toBe('pw-2');
    expect(JSON.stringify(store.db.prepare('SELECT * FROM profile_auth').all())).not.toContain('pw-2');
    nextToken = jwt(now.getTime() / 1000 + 7 * 86400);
    expect((await auth.renew(p.id))?.daysLeft).toBe(7);
    expect(tokenCalls.at(-1)?.password).toBe('pw-2');

    nextToken = new AppError('api.auth', { en: 'Wrong password', vi: 'Sai mật khẩu' });
    await expect(auth.signInWithPassword(p.id, { appId: 'A', taxCode: '1', userName: 'u', password: 'x' })).rejects.toMatchObject({ code: 'api.auth' });

    const out = await auth.signOut(p.id);
    expect(out.state).toBe('signedOut');
    expect(await secrets.get(secretAccounts.token(p.id))).toBeNull();
    expect(await secrets.get(secretAccounts.password(p.id))).toBeNull();
  });

  it('an auth failure mid-work pauses the work; a new sign-in resumes the same ready() call', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    profiles.activate(p.id);
    await auth.signInWithToken(p.id, 'first-token');
    const done: string[] = [];
    // A worker that processes three jobs, going through the gate before each request.
    const worker = (async () => {
      for (const job of ['a', 'b', 'c']) {
        for (;;) {
          const session = await auth.gate.ready();
          if (session.token === 'first-token' && job === 'b') {
            await auth.gate.reportAuthFailure(); // the service said TokenExpiredCode
            continue; // retry the same job after the new sign-in
          }
          done.push(`${job}:${session.token}`);
          break;
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toEqual(['a:first-token']);
    expect((await auth.status()).state).toBe('paused');
    expect(events.some((e) => e.state === 'paused')).toBe(true);
    await auth.signInWithToken(undefined, 'second-token');
    await worker;
    expect(done).toEqual(['a:first-token', 'b:second-token', 'c:second-token']);
  });

  it('ready() blocks while signed out and honours an abort signal', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    profiles.activate(p.id);
    const controller = new AbortController();
    const waiting = auth.gate.ready(controller.signal);
    let settled = false;
    void waiting.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');

    const later = auth.gate.ready();
    await auth.signInWithToken(p.id, 'tok');
    expect((await later).token).toBe('tok');
  });

  it('switching the active profile wakes waiting work', async () => {
    const auth = make();
    const p = profiles.add({ name: 'Test', kind: 'test' });
    profiles.activate(p.id);
    profiles.onActiveChange(() => auth.wake());
    const waiting = auth.gate.ready();
    profiles.activate(SANDBOX_PROFILE_ID);
    expect((await waiting).token).toBe('dev-token');
  });

  it('reports the in-memory fallback plainly in the status', async () => {
    secrets = new MemorySecretStore(keychainUnavailable('no Secret Service on the session bus'));
    const status = await make().status();
    expect(status.storage).toBe('memory');
    expect(status.storageMessage?.en).toMatch(/kept in memory for this run only/);
    expect(status.storageMessage?.vi).toMatch(/chỉ được giữ trong bộ nhớ/);
  });
});

describe('AuthService.session', () => {
  it('gives the session of any profile without waiting, or null', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-auth-s-'));
    const store = openDatabase(dir);
    const profiles = new ProfileService(store);
    const auth = new AuthService({
      store,
      secrets: new MemorySecretStore(),
      profiles,
      resolveEndpoint: async (p) =>
        p.kind === 'sandbox' ? { baseUrl: 'http://127.0.0.1:1/x', tokenUrl: null, devToken: 'dev' } : { baseUrl: p.baseUrl!, tokenUrl: p.tokenUrl },
    });
    const p = profiles.add({ name: 'T', kind: 'test' });
    expect(await auth.session(p.id)).toBeNull();
    await auth.signInWithToken(p.id, 'tok');
    expect(await auth.session(p.id)).toMatchObject({ token: 'tok', endpoint: { baseUrl: p.baseUrl }, profile: { id: p.id } });
    expect((await auth.session())?.token).toBe('dev');
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('automatic renewal', () => {
  it('an auth failure renews with the remembered password instead of pausing (at most once a minute)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-auth-r-'));
    const store = openDatabase(dir);
    const profiles = new ProfileService(store);
    let now = new Date('2026-03-01T00:00:00Z');
    let issued = 0;
    const auth = new AuthService({
      store,
      secrets: new MemorySecretStore(),
      profiles,
      now: () => now,
      resolveEndpoint: async (p) => ({ baseUrl: p.baseUrl!, tokenUrl: p.tokenUrl }),
      requestToken: async () => `token-${++issued}`,
    });
    const p = profiles.add({ name: 'T', kind: 'test' });
    profiles.activate(p.id);
    await auth.signInWithPassword(p.id, { appId: 'A', taxCode: '1', userName: 'u', password: 'pw', rememberPassword: true });
    expect((await auth.gate.ready()).token).toBe('token-1');
    await auth.gate.reportAuthFailure();
    expect((await auth.status()).state).toBe('signedIn');
    expect((await auth.gate.ready()).token).toBe('token-2');
    await auth.gate.reportAuthFailure(); // again within a minute: pause and ask the user
    expect((await auth.status()).state).toBe('paused');
    expect(issued).toBe(2);
    now = new Date(now.getTime() + 120_000);
    await auth.signInWithToken(p.id, 'typed-token');
    expect((await auth.gate.ready()).token).toBe('typed-token');
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
