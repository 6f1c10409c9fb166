import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { buildOnce, spawnCli } from '../../support/cli-process';

let sb: Sandbox;
let tmp: string;

beforeAll(async () => {
  buildOnce();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-cli-refused-'));
  sb = await startSandbox({ port: 0, seed: 9, invoiceCount: 30 });
}, 300_000);

afterAll(async () => {
  await sb?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it('a token from the environment that the service refuses is not handed out again: email ends with exit 3 after one request', async () => {
  const id = sb.catalogue.list('withoutCode')[0]!;
  const before = sb.requests({ op: 'sendemail' }).length;
  const r = await spawnCli(['email', '--id', id, '--to', 'buyer@example.vn', '--base-url', sb.baseUrl, '--json', '--wait', '5'], {
    cwd: tmp,
    env: { EINVOICE_DATA_DIR: path.join(tmp, 'data'), EINVOICE_KEYCHAIN: 'off', EINVOICE_TOKEN: 'not-the-token' },
    timeoutMs: 20_000,
  });
  expect(r.code, r.stderr).toBe(3);
  expect(sb.requests({ op: 'sendemail' }).length - before).toBe(1);
  expect(sb.sentEmails().filter((e) => e.TransactionID === id)).toHaveLength(0);
  expect(r.stdout + r.stderr).not.toContain('not-the-token');
});

it('queue flush with the refused token: exit 3 after one request, the entry stays queued for a later run', async () => {
  const env = { EINVOICE_DATA_DIR: path.join(tmp, 'data2'), EINVOICE_KEYCHAIN: 'off', EINVOICE_TOKEN: 'not-the-token' };
  const id = sb.catalogue.list('withoutCode')[0]!;
  const queued = await spawnCli(['email', '--id', id, '--to', 'buyer@example.vn', '--base-url', sb.baseUrl, '--no-send'], { cwd: tmp, env });
  expect(queued.code, queued.stderr).toBe(0);
  const before = sb.requests({ op: 'sendemail' }).length;
  const flush = await spawnCli(['queue', 'flush', '--base-url', sb.baseUrl, '--json', '--wait', '5'], { cwd: tmp, env, timeoutMs: 20_000 });
  expect(flush.code, flush.stderr).toBe(3);
  expect(sb.requests({ op: 'sendemail' }).length - before).toBe(1);
  expect(flush.json).toMatchObject({ items: [{ transactionId: id, state: 'queued' }] });
});
