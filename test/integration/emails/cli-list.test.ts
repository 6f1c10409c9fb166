import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliSandbox, runCli } from './cli-support';

const ctx = cliSandbox('einvoice-emails-cli-list-', { seed: 7, invoiceCount: 10 });

/** More entries than `queue list` reads per page (1 000), so the list spans three pages. */
const N = 2_345;

describe('einvoice queue list over several pages', () => {
  it('writes every entry once, in entry order, as one JSON document; and as lines of text', async () => {
    const rows = Array.from({ length: N }, (_, i) => `LIST${String(i).padStart(5, '0')};Khách ${i};k${i}@example.com`);
    fs.writeFileSync(`${ctx.dir}/many.csv`, `TransactionID;ReceiverName;ReceiverEmail\n${rows.join('\n')}\n`);
    // Offline: the entries stay queued.
    await ctx.sb.stop();
    const queued = await runCli(['email', '--csv', 'many.csv', '--with-code', '--wait', '0', '--json', '--base-url', ctx.sb.baseUrl], ctx.env(), ctx.dir);
    expect(queued.code, queued.stderr).toBe(4);

    const list = await runCli(['queue', 'list', '--json'], ctx.env(), ctx.dir);
    expect(list.code, list.stderr).toBe(0);
    const doc = JSON.parse(list.stdout) as { items: Array<{ id: number; transactionId: string; state: string }>; counts: Record<string, number> };
    expect(doc.items.map((i) => i.transactionId)).toEqual(Array.from({ length: N }, (_, i) => `LIST${String(i).padStart(5, '0')}`));
    const ids = doc.items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(N);
    expect(doc.items.every((i) => i.state === 'queued')).toBe(true);
    expect(doc.counts.queued).toBe(N);

    const text = await runCli(['queue', 'list'], ctx.env(), ctx.dir);
    expect(text.code, text.stderr).toBe(0);
    for (const tx of ['LIST00000', 'LIST00999', 'LIST01000', 'LIST02344']) expect(text.stdout).toContain(tx);
    expect(text.stdout.split('\n').filter((l) => l.includes('LIST')).length).toBe(N);
  }, 120_000);
});
