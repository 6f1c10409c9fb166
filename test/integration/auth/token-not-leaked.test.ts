import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callNames } from '../../../common/contract';
import { createServices, type Services } from '../../../main/services';
import { secretAccounts } from '../../../main/services/secrets';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { sampleRequests } from '../../support/contract-samples';

let dir: string;
let services: Services;
let sandbox: Sandbox;
const logFile = () => path.join(dir, 'logs', 'app.log');
const responses: unknown[] = [];
const events: unknown[] = [];

beforeAll(async () => {
  process.env.EINVOICE_KEYCHAIN = 'off'; // in-memory secrets: this test must not touch a real keychain
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-leak-'));
  fs.mkdirSync(path.join(dir, 'logs'));
  sandbox = await startSandbox({ port: 0, invoiceCount: 50 });
  services = await createServices({
    dataDir: dir,
    version: '0.0.0-test',
    host: 'browser',
    log: (level, message) => fs.appendFileSync(logFile(), `[${level}] ${message}\n`),
  });
  services.bus.onAny((name, payload) => events.push({ name, payload }));
});

afterAll(async () => {
  await services?.close();
  await sandbox?.close();
  delete process.env.EINVOICE_KEYCHAIN;
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = async (name: string, request: unknown) => {
  const result = await services.dispatch(name, request, { host: 'browser' });
  responses.push(result);
  return result;
};

it('after signing in (token pasted, and user name + password), the token is in no database file, log, response or event', async () => {
  const added = await call('profiles.add', { name: 'Local service', kind: 'custom', baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl });
  expect(added.ok).toBe(true);
  const id = (added as { ok: true; value: { id: string } }).value.id;
  expect((await call('profiles.activate', { id })).ok).toBe(true);

  // 1. Paste a token.
  const pasted = sandbox.issueToken();
  const signedIn = await call('auth.signInWithToken', { token: pasted });
  expect(signedIn).toMatchObject({ ok: true, value: { state: 'signedIn', method: 'token', daysLeft: 14 } });

  // 2. User name + password through the token operation, password remembered (keychain only).
  const creds = sandbox.credentials;
  const viaPassword = await call('auth.signInWithPassword', {
    appId: creds.appid,
    taxCode: creds.taxcode,
    userName: creds.username,
    password: creds.password,
    rememberPassword: true,
  });
  expect(viaPassword).toMatchObject({ ok: true, value: { state: 'signedIn', method: 'credentials', passwordRemembered: true } });
  const issued = await services.secrets.get(secretAccounts.token(id));
  expect(issued).toBeTruthy();
  expect(issued).not.toBe(pasted);

  // The sign-in works: test connection lists the templates with it.
  const tested = await call('profiles.test', { id });
  expect(tested).toMatchObject({ ok: true, value: { ok: true, reachable: true } });
  expect((tested as { ok: true; value: { templates: unknown[] } }).value.templates.length).toBeGreaterThan(0);

  // Every contract call once more, after the sign-in (read-only samples; sign-in/out ones skipped
  // so the state stays signed in).
  for (const name of callNames) {
    if (name.startsWith('auth.sign') || name.startsWith('updates.restart') || name === 'profiles.activate') continue;
    await call(name, sampleRequests[name]);
  }
  await call('auth.status', {});
  await call('auth.status', { profileId: id });

  const secrets = [pasted, issued!, creds.password];
  const haystacks: Array<[string, Buffer | string]> = [
    ['responses', JSON.stringify(responses)],
    ['events', JSON.stringify(events)],
  ];
  // Every file in the data folder: einvoice.db, its -wal, the app's log files, anything else.
  const walk = (d: string): string[] =>
    fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
  for (const f of walk(dir)) haystacks.push([path.relative(dir, f), fs.readFileSync(f)]);
  const names = haystacks.map(([n]) => n);
  expect(names).toEqual(expect.arrayContaining(['einvoice.db', 'einvoice.db-wal', path.join('logs', 'app.log')]));
  expect(names.filter((n) => n.startsWith('logs')).length).toBeGreaterThan(1); // the app's own log file too
  for (const [name, hay] of haystacks) {
    for (const secret of secrets) {
      const text = typeof hay === 'string' ? hay : hay.toString('latin1');
      expect(text.includes(secret), `${name} contains a secret`).toBe(false);
      // Also the JWT's signature part alone (a partial leak).
      const tail = secret.split('.').at(-1)!;
      if (tail.length > 12) expect(text.includes(tail), `${name} contains part of a token`).toBe(false);
    }
  }
  // The log did record the sign-in, so it was really looked at.
  expect(fs.readFileSync(logFile(), 'utf8')).toMatch(/signed in to profile Local service/);
});
