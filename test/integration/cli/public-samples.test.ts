import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SandboxQuirks } from '../../../main/sandbox/quirks';
import { cliWorld } from '../../support/cli-process';

const world = cliWorld('einvoice-cli-samples-', { seed: 21, invoiceCount: 60 });
let next = 0;

beforeEach(() => world.sb.reset());

/** `einvoice email` for one fresh invoice in its own data folder, the sandbox answering with `quirks`. */
async function emailOnce(quirks: Partial<SandboxQuirks>) {
  const id = world.sb.catalogue.list('withoutCode')[next++]!;
  world.sb.setQuirks(quirks);
  const before = world.sb.requests({ op: 'sendemail' }).length;
  const r = await world.run(['email', '--id', id, '--to', 'buyer@example.vn', '--base-url', world.sb.baseUrl, '--json', '--wait', '5'], {
    env: { EINVOICE_TOKEN: world.sb.devToken, EINVOICE_DATA_DIR: path.join(world.tmp, `data-${next}`) },
    timeoutMs: 30_000,
  });
  const items = (r.json.items ?? []) as Array<{ transactionId: string; state: string }>;
  return { r, id, items, requests: world.sb.requests({ op: 'sendemail' }).length - before };
}

describe('a per-item ErrorCode of 0, "0", "" or null with SendEmailStatus 3/4 is success (the email queue, end to end)', () => {
  for (const itemNoError of ['zero', 'zeroString', 'emptyString', 'null', 'emptyList', 'emptyObject'] as const) {
    it(`ErrorCode ${itemNoError}: the email is sent (or requested), exit 0, one request`, async () => {
      const { r, id, items, requests } = await emailOnce({ itemNoError });
      expect(r.code, r.stderr).toBe(0);
      expect(items).toEqual([expect.objectContaining({ transactionId: id, state: expect.stringMatching(/^(sent|requested)$/) })]);
      expect(requests).toBe(1);
    });
  }
});

describe('answers the public documentation shows (the email queue, end to end)', () => {
  it('success: true with data "": the email is requested, not unknown; exit 0, one request', async () => {
    const { r, id, items, requests } = await emailOnce({ emailAnswer: 'emptyData' });
    expect(r.code, r.stderr).toBe(0);
    expect(items).toEqual([expect.objectContaining({ transactionId: id, state: 'requested' })]);
    expect(requests).toBe(1);
  });

  it('a result without TransactionID for a one-invoice request is that invoice', async () => {
    const { r, id, items, requests } = await emailOnce({ emailAnswer: 'noTransactionId', emailStatus: 3 });
    expect(r.code, r.stderr).toBe(0);
    expect(items).toEqual([expect.objectContaining({ transactionId: id, state: 'sent' })]);
    expect(requests).toBe(1);
  });
});
