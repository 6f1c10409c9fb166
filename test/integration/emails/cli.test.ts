import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliSandbox, jsonItems, runCli } from './cli-support';

interface Item {
  id: number | null;
  transactionId: string | null;
  state: string;
  sendEmailStatus: number | null;
  errorCode: string | null;
  line?: number | null;
}

const ctx = cliSandbox('einvoice-emails-cli-', { seed: 5, invoiceCount: 300, quirks: { emailEnvelopeFailure: true } });
const env = ctx.env;
const api = ctx.api;
const items = (stdout: string) => jsonItems<Item>(stdout);

describe('einvoice email / queue', () => {
  it('email --csv --with-code: good rows sent, bad rows refused with their line, exit 1', async () => {
    const ids = ctx.sb.catalogue.list('withCode').slice(0, 3);
    const csv = `\uFEFFTransactionID;ReceiverName;ReceiverEmail;CCEmail\n${ids[0]};Ann;"a@example.com,b@example.com";\n${ids[1]};Bad;nope;\n${ids[2]};Cat;c@example.com;cc@example.com\n`;
    fs.writeFileSync(`${ctx.dir}/in.csv`, csv);
    const r = await runCli(['email', '--csv', 'in.csv', '--with-code', '--json', ...api()], env(), ctx.dir);
    expect(r.code, r.stderr).toBe(1);
    const out = items(r.stdout);
    expect(out).toHaveLength(3);
    const good = out.filter((i) => i.state !== 'rejected');
    expect(good.map((i) => i.transactionId)).toEqual([ids[0], ids[2]]);
    for (const g of good) {
      expect(g.state).toBe(ctx.sb.catalogue.expectedEmailStatus(g.transactionId!) === 3 ? 'sent' : 'requested');
      expect(g.errorCode).toBeNull();
    }
    expect(out.find((i) => i.state === 'rejected')).toMatchObject({ transactionId: ids[1], line: 3 });
    expect(ctx.sb.sentEmails().find((e) => e.TransactionID === ids[0])?.to).toEqual(['a@example.com', 'b@example.com']);
  });

  it('email --id --to: one invoice, exit 0; a missing invoice fails with its code, exit 1', async () => {
    const id = ctx.sb.catalogue.list('withoutCode')[0]!;
    const r = await runCli(
      ['email', '--id', id, '--to', 'x@example.com;y@example.com', '--name', 'Xuân', '--cc', 'z@example.com', '--json', ...api()],
      env(),
      ctx.dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(items(r.stdout)).toMatchObject([{ transactionId: id, state: expect.stringMatching(/^(sent|requested)$/), errorCode: null }]);
    const missing = await runCli(['email', '--id', 'NOPE-404', '--to', 'x@example.com', '--json', ...api()], env(), ctx.dir);
    expect(missing.code).toBe(1);
    expect(items(missing.stdout)).toMatchObject([{ transactionId: 'NOPE-404', state: 'failed', sendEmailStatus: 0, errorCode: 'InvoiceNotExist' }]);
  });

  it('queue list / retry; offline entries stay queued (exit 4) and queue flush sends them later', async () => {
    const list = await runCli(['queue', 'list', '--state', 'failed', '--json', ...api()], env(), ctx.dir);
    expect(list.code).toBe(0);
    expect(items(list.stdout).map((i) => i.transactionId)).toEqual(['NOPE-404']);
    const retry = await runCli(['queue', 'retry', '--json', ...api()], env(), ctx.dir);
    expect(retry.code).toBe(1);
    expect(items(retry.stdout)).toMatchObject([{ transactionId: 'NOPE-404', state: 'failed' }]);

    const id = ctx.sb.catalogue.list('withoutCode')[1]!;
    await ctx.sb.stop();
    const offline = await runCli(['email', '--id', id, '--to', 'q@example.com', '--wait', '0', '--json', ...api()], env(), ctx.dir);
    expect(offline.code, offline.stderr).toBe(4);
    expect(items(offline.stdout)).toMatchObject([{ transactionId: id, state: 'queued' }]);
    await ctx.sb.start();
    const flush = await runCli(['queue', 'flush', '--json', ...api()], env(), ctx.dir);
    expect(flush.code, flush.stderr).toBe(0);
    expect(items(flush.stdout)).toMatchObject([{ transactionId: id, state: expect.stringMatching(/^(sent|requested)$/) }]);
  });
});
