import path from 'node:path';
import { expect, it } from 'vitest';
import { cliWorld, spawnCli } from '../../support/cli-process';

const world = cliWorld('einvoice-cli-refused-', { seed: 9, invoiceCount: 30 });

it('a token from the environment that the service refuses is not handed out again: email ends with exit 3 after one request', async () => {
  const id = world.sb.catalogue.list('withoutCode')[0]!;
  const before = world.sb.requests({ op: 'sendemail' }).length;
  const r = await world.run(['email', '--id', id, '--to', 'buyer@example.vn', '--base-url', world.sb.baseUrl, '--json', '--wait', '5'], {
    env: { EINVOICE_TOKEN: 'not-the-token' },
    timeoutMs: 20_000,
  });
  expect(r.code, r.stderr).toBe(3);
  expect(world.sb.requests({ op: 'sendemail' }).length - before).toBe(1);
  expect(world.sb.sentEmails().filter((e) => e.TransactionID === id)).toHaveLength(0);
  expect(r.stdout + r.stderr).not.toContain('not-the-token');
});

it('queue flush with the refused token: exit 3 after one request, the entry stays queued for a later run', async () => {
  const env = { EINVOICE_DATA_DIR: path.join(world.tmp, 'data2'), EINVOICE_KEYCHAIN: 'off', EINVOICE_TOKEN: 'not-the-token' };
  const id = world.sb.catalogue.list('withoutCode')[0]!;
  const queued = await spawnCli(['email', '--id', id, '--to', 'buyer@example.vn', '--base-url', world.sb.baseUrl, '--no-send'], { cwd: world.tmp, env });
  expect(queued.code, queued.stderr).toBe(0);
  const before = world.sb.requests({ op: 'sendemail' }).length;
  const flush = await spawnCli(['queue', 'flush', '--base-url', world.sb.baseUrl, '--json', '--wait', '5'], { cwd: world.tmp, env, timeoutMs: 20_000 });
  expect(flush.code, flush.stderr).toBe(3);
  expect(world.sb.requests({ op: 'sendemail' }).length - before).toBe(1);
  expect(flush.json).toMatchObject({ items: [{ transactionId: id, state: 'queued' }] });
});

it('answers the public documentation shows: download with a refused token ends with exit 3 like the other commands', async () => {
  const id = world.sb.catalogue.list('withoutCode')[0]!;
  const before = world.sb.requests({ op: 'download' }).length;
  const r = await world.run(['download', '--type', 'xml', '--out', 'refused-out', '--base-url', world.sb.baseUrl, '--json', id], {
    env: { EINVOICE_TOKEN: 'not-the-token' },
    timeoutMs: 20_000,
  });
  expect(r.code, r.stderr).toBe(3);
  expect(world.sb.requests({ op: 'download' }).length - before).toBe(1);
  expect(r.stdout + r.stderr).not.toContain('not-the-token');
});
