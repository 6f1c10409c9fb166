import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliSandbox, jsonItems, runCli } from '../emails/cli-support';
import { SERIES, writeInvoice, type IssueItem } from './cli-support';

const ctx = cliSandbox('einvoice-issuing-cli-', { seed: 11, invoiceCount: 300 });
const run = (args: string[], env: Record<string, string> = {}) => runCli([...args, '--json', ...ctx.api()], { ...ctx.env(), ...env }, ctx.dir);
const items = (stdout: string) => jsonItems<IssueItem>(stdout);
const issuedAt = (refId: string) => ctx.sb.issued().filter((i) => i.RefID === refId);

describe('einvoice issue / issue-queue', () => {
  it('issue two files: exit 0, each issued with the number the sandbox gave it; the same file again is not issued twice', async () => {
    const a = writeInvoice(ctx.dir, 'a.json');
    const b = writeInvoice(ctx.dir, 'b.json', { InvSeries: SERIES.withoutCode });
    const r = await run(['issue', 'a.json', 'b.json']);
    expect(r.code, r.stderr).toBe(0);
    const out = items(r.stdout);
    expect(out.map((i) => [i.input, i.refId, i.state])).toEqual([
      ['a.json', a.RefID, 'issued'],
      ['b.json', b.RefID, 'issued'],
    ]);
    for (const i of out) {
      const [at] = issuedAt(i.refId);
      expect(i).toMatchObject({ transactionId: at!.TransactionID, invNo: at!.InvNo, invSeries: at!.InvSeries, errorCode: null, message: null });
      expect(i.invNo).toMatch(/^\d{8}$/);
    }
    expect(out[0]!.invoiceCode).toBeTruthy(); // a with-code series

    const again = await runCli(['issue', 'a.json', ...ctx.api()], ctx.env(), ctx.dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`#${out[0]!.id} a.json ${a.RefID}: đã phát hành / issued ${out[0]!.invSeries} ${out[0]!.invNo}`);
    expect(again.stderr).toMatch(/already in the issue queue/);
    expect(ctx.sb.issueAttempts(a.RefID)).toEqual([{ RefID: a.RefID, requests: 1, recorded: 1 }]);
  });

  it('--sign-type and --cert choose how this run signs; sign type 1 is refused with the reason, nothing sent', async () => {
    const g = writeInvoice(ctx.dir, 'g.json');
    writeInvoice(ctx.dir, 'noref.json', { RefID: '' });
    const noRef = await run(['issue', 'noref.json']);
    expect(noRef.code).toBe(2);
    expect(noRef.stderr).toMatch(/noref\.json: RefID is empty/);
    const usb = await run(['issue', 'g.json', '--sign-type', '1']);
    expect(usb.code).toBe(2);
    expect(usb.stderr).toMatch(/USB token/);
    expect(ctx.sb.issueAttempts(g.RefID)).toEqual([]);
    const wrongCert = await run(['issue', 'g.json', '--sign-type', '2', '--cert', 'NOT-THE-CERT']);
    expect(wrongCert.code).toBe(1);
    expect(items(wrongCert.stdout)[0]).toMatchObject({ state: 'failed', errorCode: 'InvalidCertByRegistration' });
    expect(ctx.sb.issued().filter((i) => i.RefID === g.RefID)).toHaveLength(0);
    const h = writeInvoice(ctx.dir, 'h.json');
    const ok = await run(['issue', 'h.json', '--sign-type', '2', '--cert', ctx.sb.certificate().CertificateSN]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ctx.sb.issued().find((i) => i.RefID === h.RefID)?.signType).toBe(2);
  });

  it('bad input: exit 2 naming the file (or draft) and the field; nothing of that run is issued, nothing lost', async () => {
    const good = writeInvoice(ctx.dir, 'good.json');
    writeInvoice(ctx.dir, 'bad.json', { BuyerTaxCode: '12x' });
    const r = await run(['issue', 'good.json', 'bad.json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/bad\.json: BuyerTaxCode: .*12x/);
    const out = items(r.stdout);
    const bad = out.find((i) => i.input === 'bad.json')!;
    expect(bad).toMatchObject({ id: null, state: 'rejected', field: 'BuyerTaxCode', draftId: expect.any(String) });
    expect(out.find((i) => i.input === 'good.json')).toMatchObject({ state: 'queued', refId: good.RefID });
    expect(ctx.sb.issueAttempts(good.RefID)).toEqual([]);

    const draft = await run(['issue', '--draft', bad.draftId!]);
    expect(draft.code).toBe(2);
    expect(draft.stderr).toContain(`--draft ${bad.draftId}: BuyerTaxCode`);

    const count = async () => JSON.parse((await run(['issue-queue', 'list'])).stdout).items.length as number;
    const before = await count();
    writeInvoice(ctx.dir, 'date.json', { InvDate: '25/11/2026' });
    fs.writeFileSync(path.join(ctx.dir, 'broken.json'), '{"RefID": ');
    const cases: Array<[string[], RegExp]> = [
      [['date.json'], /date\.json is not an InvoiceData: InvDate/],
      [['broken.json'], /broken\.json is not valid JSON/],
      [['good.json', 'missing.json'], /Cannot read missing\.json \(ENOENT\)/],
      [['--draft', 'no-such-draft'], /--draft no-such-draft: There is no draft/],
    ];
    for (const [args, why] of cases) {
      const bad2 = await run(['issue', ...args]);
      expect(bad2.code, args.join(' ')).toBe(2);
      expect(bad2.stderr).toMatch(why);
    }
    expect(JSON.parse((await run(['issue', 'date.json'])).stdout).error.issues[0].path).toBe('date.json: InvDate');
    expect(await count()).toBe(before);

    // The good invoice was kept in the queue: running its file again issues that entry.
    const again = await run(['issue', 'good.json']);
    expect(again.code, again.stderr).toBe(0);
    expect(items(again.stdout)).toMatchObject([{ id: out.find((i) => i.input === 'good.json')!.id, state: 'issued' }]);
    expect(issuedAt(good.RefID)).toHaveLength(1);
  });

  it('sandbox stopped: exit 4 and the invoice stays queued; issue-queue flush issues it once the sandbox is back', async () => {
    const c = writeInvoice(ctx.dir, 'c.json', { InvSeries: SERIES.cashRegister });
    await ctx.sb.stop();
    try {
      const off = await run(['issue', 'c.json', '--wait', '1']);
      expect(off.code, off.stderr).toBe(4);
      expect(items(off.stdout)).toMatchObject([{ refId: c.RefID, state: 'queued', message: expect.stringMatching(/Cannot reach/) }]);
      const listed = await run(['issue-queue', 'list', '--state', 'queued']);
      expect(listed.code).toBe(0);
      expect(items(listed.stdout).map((i) => i.refId)).toEqual([c.RefID]);
    } finally {
      await ctx.sb.start();
    }
    const flush = await run(['issue-queue', 'flush']);
    expect(flush.code, flush.stderr).toBe(0);
    const [at] = issuedAt(c.RefID);
    expect(items(flush.stdout)).toMatchObject([{ refId: c.RefID, state: 'issued', transactionId: at!.TransactionID, invNo: at!.InvNo }]);
  });

  it('the sandbox refuses (licence used up): exit 1 with the code and a message; a refused token: exit 3, queued', async () => {
    ctx.sb.setQuirks({ licenceInvoices: ctx.sb.issued().length });
    const d = writeInvoice(ctx.dir, 'd.json');
    try {
      const r = await run(['issue', 'd.json']);
      expect(r.code, r.stderr).toBe(1);
      expect(items(r.stdout)).toMatchObject([
        { refId: d.RefID, state: 'failed', errorCode: 'LicenseInfo_OutOfInvoice', transactionId: null, message: expect.stringMatching(/licence/i) },
      ]);
      expect(items(r.stdout)[0]!.messageVi).toMatch(/hết/);
    } finally {
      ctx.sb.setQuirks({ licenceInvoices: null });
    }
    expect(issuedAt(d.RefID)).toEqual([]);

    const e = writeInvoice(ctx.dir, 'e.json');
    const queued = await run(['issue', 'e.json', '--queue-only']);
    expect(queued.code, queued.stderr).toBe(0);
    expect(items(queued.stdout)).toMatchObject([{ refId: e.RefID, state: 'queued' }]);
    const refused = await run(['issue-queue', 'flush'], { EINVOICE_TOKEN: 'not-a-token' });
    expect(refused.code, refused.stderr).toBe(3);
    expect(items(refused.stdout)).toMatchObject([{ refId: e.RefID, state: 'queued' }]);
    const flush = await run(['issue-queue', 'flush']);
    expect(flush.code, flush.stderr).toBe(0);
    expect(items(flush.stdout)).toMatchObject([{ refId: e.RefID, state: 'issued', transactionId: issuedAt(e.RefID)[0]!.TransactionID }]);
  });

  it('an answer lost after the sandbox issued: unknown (exit 1), never sent again; issue-queue check adopts it', async () => {
    ctx.sb.setFaults({ issue: { reset: 1, limit: 1 }, status: { status503: 1 } });
    const f = writeInvoice(ctx.dir, 'f.json');
    try {
      const r = await run(['issue', 'f.json', '--wait', '1']);
      expect(r.code, r.stderr).toBe(1);
      expect(items(r.stdout)).toMatchObject([{ refId: f.RefID, state: 'unknown', transactionId: null }]);
    } finally {
      ctx.sb.setFaults({});
    }
    expect(issuedAt(f.RefID)).toHaveLength(1);
    const check = await run(['issue-queue', 'check']);
    expect(check.code, check.stderr).toBe(0);
    const answer = JSON.parse(check.stdout) as { items: IssueItem[]; settled: number; unknown: number };
    expect(answer).toMatchObject({ settled: 1, unknown: 0 });
    expect(answer.items).toMatchObject([{ refId: f.RefID, state: 'issued', transactionId: issuedAt(f.RefID)[0]!.TransactionID }]);
    expect(ctx.sb.issueAttempts(f.RefID)).toEqual([{ RefID: f.RefID, requests: 1, recorded: 1 }]);
  });
});
