import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliSandbox, jsonItems, runCli } from './cli-support';
import { sentCounts, startHarness, waitFor } from './harness';

interface Item {
  id: number | null;
  transactionId: string | null;
  state: string;
  message?: string;
  messageVi?: string;
  line?: number | null;
}
const items = (stdout: string) => jsonItems<Item>(stdout);

describe('one history per invoice: the CLI never emails an invoice twice unless asked', () => {
  const ctx = cliSandbox('einvoice-emails-history-', { seed: 11, invoiceCount: 300 });
  const { env, api } = ctx;
  const recorded = (ids: readonly string[]) => ids.map((id) => sentCounts(ctx.sb).get(id) ?? 0);

  it('email --csv run twice sends each invoice once; the second run skips every row with its reason; --resend sends each once more', async () => {
    const ids = ctx.sb.catalogue.list('withCode').slice(0, 4);
    fs.writeFileSync(`${ctx.dir}/twice.csv`, `TransactionID,ReceiverEmail\n${ids.map((id, i) => `${id},k${i}@example.com`).join('\n')}\n`);
    const args = ['email', '--csv', 'twice.csv', '--with-code', '--json', ...api()];
    const first = await runCli(args, env(), ctx.dir);
    expect(first.code, first.stderr).toBe(0);
    expect(recorded(ids)).toEqual([1, 1, 1, 1]);

    const second = await runCli(args, env(), ctx.dir);
    expect(second.code, second.stderr).toBe(0);
    expect(recorded(ids)).toEqual([1, 1, 1, 1]); // nothing sent
    const skipped = items(second.stdout);
    expect(skipped.map((i) => [i.line, i.transactionId, i.state])).toEqual(ids.map((id, i) => [i + 2, id, 'skipped']));
    expect(skipped[0]!.message).toMatch(
      /^.+: (already sent on \d\d\/\d\d to k0@example\.com|the service took it on \d\d\/\d\d and will send it to k0@example\.com): skipped$/,
    );
    expect(skipped[0]!.messageVi).toMatch(/(đã gửi ngày|dịch vụ đã nhận ngày) \d\d\/\d\d .*k0@example\.com.*: bỏ qua$/);

    const again = await runCli([...args, '--resend'], env(), ctx.dir);
    expect(again.code, again.stderr).toBe(0);
    expect(recorded(ids)).toEqual([2, 2, 2, 2]);
    expect(items(again.stdout).every((i) => i.state === 'sent' || i.state === 'requested')).toBe(true);
    // Still one entry per invoice.
    const list = await runCli(['queue', 'list', '--json', ...api()], env(), ctx.dir);
    expect(items(list.stdout).filter((i) => ids.includes(i.transactionId!))).toHaveLength(4);
  });

  it('queue retry leaves an unknown outcome alone (even named with --ids) and sends it again once with --unknown', async () => {
    const id = ctx.sb.catalogue.list('withoutCode')[0]!;
    ctx.sb.setFaults({ sendemail: { reset: 1 } }); // the sandbox records the email, then the connection drops
    const lost = await runCli(['email', '--id', id, '--to', 'u@example.com', '--json', ...api()], env(), ctx.dir);
    ctx.sb.setFaults({});
    expect(lost.code).toBe(1);
    const [entry] = items(lost.stdout);
    expect(entry).toMatchObject({ transactionId: id, state: 'unknown' });
    expect(recorded([id])).toEqual([1]);

    const plain = await runCli(['queue', 'retry', '--json', ...api()], env(), ctx.dir);
    const named = await runCli(['queue', 'retry', '--ids', String(entry!.id), '--json', ...api()], env(), ctx.dir);
    expect(named.stderr).toMatch(/without a known outcome/);
    const readd = await runCli(['email', '--id', id, '--to', 'u@example.com', '--json', ...api()], env(), ctx.dir);
    expect(items(readd.stdout)).toMatchObject([{ transactionId: id, state: 'skipped' }]);
    expect([plain.code, named.code, readd.code]).toEqual([0, 0, 0]);
    expect(recorded([id])).toEqual([1]);

    const asked = await runCli(['queue', 'retry', '--unknown', '--json', ...api()], env(), ctx.dir);
    expect(asked.code, asked.stderr).toBe(0);
    expect(items(asked.stdout)).toMatchObject([{ transactionId: id, state: expect.stringMatching(/^(sent|requested)$/) }]);
    expect(recorded([id])).toEqual([2]);
  });
});

describe('one history per invoice through the app wiring', () => {
  it('adding a sent invoice again reports the row and sends nothing; emails.resend sends it once more and keeps the earlier outcome in emails.history', async () => {
    const h = await startHarness();
    try {
      const handlers = h.emails.handlers();
      const id = h.sandbox.catalogue.list('withCode')[5]!;
      const first = await handlers['emails.add']({ entries: [{ transactionId: id, receiverEmail: 'an@example.com', kind: 'withCode' }] }, {} as never);
      const entryId = first.added[0]!;
      await waitFor(() => ['sent', 'requested'].includes(h.emails.outbox.get(entryId)!.state), 20_000, 'sent');
      const again = await handlers['emails.importCsv']({ text: `TransactionID,ReceiverEmail\n${id},an@example.com\n`, kind: 'withCode' }, {} as never);
      expect(again).toMatchObject({ added: [], rejected: [], skipped: [{ line: 2, transactionId: id, entryId, receiverEmail: 'an@example.com' }] });
      await new Promise((r) => setTimeout(r, 300));
      expect(sentCounts(h.sandbox).get(id)).toBe(1);

      const retried = await handlers['emails.retry']({ ids: [entryId] }, {} as never);
      expect(retried).toMatchObject({ changed: 0, skipped: 1, left: [{ id: entryId, transactionId: id }] });
      const resent = await handlers['emails.resend']({ ids: [entryId] }, {} as never);
      expect(resent).toMatchObject({ changed: 1, skipped: 0, left: [] });
      await waitFor(() => sentCounts(h.sandbox).get(id) === 2, 20_000, 'sent again');
      await waitFor(() => ['sent', 'requested'].includes(h.emails.outbox.get(entryId)!.state), 20_000, 'settled');
      const history = await handlers['emails.history']({ id: entryId }, {} as never);
      expect(history.entry).toMatchObject({ id: entryId, attempts: 2 });
      expect(history.attempts).toHaveLength(1);
      expect(['sent', 'requested']).toContain(history.attempts[0]!.state);
      expect(sentCounts(h.sandbox).get(id)).toBe(2);
    } finally {
      await h.close();
    }
  });
});
