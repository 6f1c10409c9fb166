/** The built `einvoice` against the sandbox: issued list/sync, download and email by date range, paper-copy. */
import fs from 'node:fs';
import path from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { INVOICE_KINDS, type InvoiceKind } from '../../../common/model';
import { vietnamToday } from '../../../common/rules';
import { cliSandbox, runCli } from '../emails/cli-support';

const ctx = cliSandbox('einvoice-issued-cli-', { seed: 13, invoiceCount: 3_000 });
const run = (args: string[]) => runCli([...args, ...ctx.api()], ctx.env(), ctx.dir, 120_000);
const today = vietnamToday(new Date());
const yy = today.slice(2, 4);
const [year, month] = today.split('-').map(Number) as [number, number];
// The sandbox's invoices run from 1 January to the 1st of this month: take last month (January: all of it).
const FROM = month === 1 ? `${year}-01-01` : new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 10);
const TO = month === 1 ? `${year}-01-31` : new Date(Date.UTC(year, month - 1, 0)).toISOString().slice(0, 10);

function live(from: string, to: string, kinds: readonly InvoiceKind[] = INVOICE_KINDS) {
  return kinds.flatMap((k) =>
    ctx.sb.catalogue
      .list(k)
      .map((id) => ctx.sb.catalogue.get(id)!)
      .filter((i) => !i.deleted && i.InvDate >= from && i.InvDate <= to),
  );
}

type Listed = {
  transactionId: string;
  refId: string;
  invNo: string;
  invSeries: string;
  invDate: string;
  buyer: string;
  total: string;
  sendTaxStatus: number;
  eInvoiceStatus: number;
};

describe('einvoice issued', () => {
  it('list is empty before a sync; sync reads the range; list prints every invoice of it, filtered by series and kind', async () => {
    const before = await run(['issued', 'list', '--from', FROM, '--to', TO, '--json']);
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ invoices: [], total: 0 });

    const want = live(FROM, TO);
    const sync = await run(['issued', 'sync', '--from', FROM, '--to', TO, '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ fetched: want.length, added: want.length });

    const all = await run(['issued', 'list', '--from', FROM, '--to', TO, '--json']);
    const out = JSON.parse(all.stdout) as { invoices: Listed[]; total: number };
    expect(out.total).toBe(want.length);
    expect(new Set(out.invoices.map((i) => i.transactionId))).toEqual(new Set(want.map((i) => i.TransactionID)));
    const first = out.invoices[0]!;
    expect(Object.keys(first)).toEqual(['transactionId', 'refId', 'invNo', 'invSeries', 'invDate', 'buyer', 'total', 'sendTaxStatus', 'eInvoiceStatus']);
    const inv = ctx.sb.catalogue.get(first.transactionId)!;
    expect(first).toMatchObject({ refId: inv.RefID, invNo: inv.InvNo, invSeries: inv.InvSeries, invDate: inv.InvDate, total: String(inv.TotalAmountOC) });

    const series = `2C${yy}TBB`;
    const some = JSON.parse((await run(['issued', 'list', '--from', FROM, '--to', TO, '--series', series, '--json'])).stdout) as { invoices: Listed[] };
    expect(some.invoices.length).toBe(want.filter((i) => i.InvSeries === series).length);
    const calc = JSON.parse((await run(['issued', 'list', '--from', FROM, '--to', TO, '--calc', '--json'])).stdout) as { invoices: Listed[] };
    expect(calc.invoices.length).toBe(live(FROM, TO, ['cashRegister']).length);
    expect(calc.invoices.every((i) => i.invSeries === `1C${yy}MAA`)).toBe(true);

    const bad = await run(['issued', 'list', '--from', '2026-13-01', '--to', TO]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--from must be a date/);
  }, 180_000);

  it('download --from --to: the range synced, then every invoice of that kind and series saved as a PDF', async () => {
    const to = `${FROM.slice(0, 8)}05`;
    const series = `2C${yy}TBB`;
    const want = live(FROM, to, ['withCode']).filter((i) => i.InvSeries === series);
    const out = path.join(ctx.dir, 'by-date');
    const r = await run(['download', '--type', 'pdf', '--out', out, '--with-code', '--from', FROM, '--to', to, '--series', series, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ saved: want.length, failed: 0 });
    const files = fs.readdirSync(out).filter((f) => f.endsWith('.pdf'));
    expect(files).toHaveLength(want.length);
    for (const f of files) expect(fs.readFileSync(path.join(out, f)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }, 180_000);

  it('email --from --to --to-buyer: one email per invoice to its buyer; an invoice without an address is refused with the reason', async () => {
    const to = `${FROM.slice(0, 8)}04`;
    const want = live(FROM, to, ['cashRegister']);
    expect(want.length).toBeGreaterThan(0);
    const r = await run(['email', '--from', FROM, '--to', to, '--to-buyer', '--calc', '--json']);
    const items = (JSON.parse(r.stdout) as { items: Array<{ transactionId: string; state: string; messageVi?: string }> }).items;
    const withAddress = want.filter((i) => i.BuyerEmail);
    const sent = ctx.sb.sentEmails();
    for (const i of withAddress) {
      expect(sent.filter((m) => m.TransactionID === i.TransactionID).map((m) => m.to)).toEqual([[i.BuyerEmail]]);
    }
    for (const i of want.filter((x) => !x.BuyerEmail)) {
      expect(items.find((x) => x.transactionId === i.TransactionID)).toMatchObject({
        state: 'rejected',
        messageVi: expect.stringMatching(/không có địa chỉ email/),
      });
    }
    expect(r.code).toBe(want.length === withAddress.length ? 0 : 1);
    // Again: already sent, so skipped, never twice.
    await run(['email', '--from', FROM, '--to', to, '--to-buyer', '--calc', '--json']);
    expect(ctx.sb.sentEmails().length).toBe(sent.length);
  }, 180_000);

  it('paper-copy ID… --converter NAME --out DIR: one converted PDF per invoice, titled, with the converter and date', async () => {
    const ids = live(FROM, TO, ['withoutCode'])
      .slice(0, 2)
      .map((i) => i.TransactionID!);
    const out = path.join(ctx.dir, 'paper');
    const r = await run(['paper-copy', ...ids, 'NOTSYNCED1', '--converter', 'Nguyễn Văn An', '--date', '2026-10-05', '--out', out, '--json']);
    expect(r.code).toBe(1);
    const res = JSON.parse(r.stdout) as { written: Array<{ transactionId: string; file: string }>; failed: Array<{ transactionId: string; code: string }> };
    expect(res.written.map((w) => w.transactionId)).toEqual(ids);
    expect(res.failed).toEqual([expect.objectContaining({ transactionId: 'NOTSYNCED1', code: 'issued_not_found' })]);
    const doc = await getDocumentProxy(new Uint8Array(fs.readFileSync(res.written[0]!.file)));
    const text = (await extractText(doc, { mergePages: true })).text.normalize('NFC');
    expect(text).toContain('HÓA ĐƠN CHUYỂN ĐỔI TỪ HÓA ĐƠN ĐIỆN TỬ');
    expect(text).toContain('Nguyễn Văn An');
    expect(text).toContain('05/10/2026');
    const usage = await run(['paper-copy', ids[0]!, '--out', out]);
    expect(usage.code).toBe(2);
  }, 180_000);
});
