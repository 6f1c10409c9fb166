import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INVOICE_KINDS } from '../../../common/model/kind';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { call, download, headers, unwrap } from './helpers';
import { NOW, TODAY, issue, issueBody, issuingData, postIssue, resultItems, status } from './issuing-support';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 300, seed: 3, now: () => new Date(NOW) });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

/** The highest number the generated catalogue holds for a series (0 when none). */
function generatedTail(series: string): number {
  let max = 0;
  for (const kind of INVOICE_KINDS) {
    for (const id of [...sb.catalogue.list(kind), ...sb.catalogue.deletedIds(kind)]) {
      const inv = sb.catalogue.get(id)!;
      if (inv.InvSeries === series && !sb.issued().some((i) => i.TransactionID === id)) max = Math.max(max, Number(inv.InvNo));
    }
  }
  return max;
}

function issuingLine() {
  return {
    ItemType: 1 as const,
    ItemCode: 'X1',
    ItemName: 'Bánh quy bơ',
    UnitName: 'hộp',
    Quantity: '2',
    UnitPrice: '90000',
    DiscountRate: '',
    DiscountAmountOC: '',
    discountBy: 'rate' as const,
    VATRateName: '10%',
  };
}

describe('issue', () => {
  it('answers the envelope with data null and a JSON-string publishInvoiceResult', async () => {
    const data = issuingData();
    const { status: http, env } = await postIssue(sb, issueBody(sb, [data]));
    expect(http).toBe(200);
    expect(Object.keys(env)).toEqual(['success', 'errorCode', 'descriptionErrorCode', 'errors', 'data', 'customData', 'publishInvoiceResult']);
    expect(env).toMatchObject({ success: true, errorCode: null, data: null });
    expect(typeof env.publishInvoiceResult).toBe('string');
    const [item] = resultItems(env);
    expect(Object.keys(item!)).toEqual(['RefID', 'TransactionID', 'InvNo', 'InvSeries', 'InvDate', 'InvoiceCode', 'ErrorCode', 'DescriptionErrorCode']);
    expect(item).toMatchObject({ RefID: data.RefID, InvSeries: '1C26TAA', InvDate: TODAY, ErrorCode: '' });
    expect(item!.TransactionID).toMatch(/^[A-Z2-9]{10}$/);
    expect(item!.InvNo).toMatch(/^\d{8}$/);
    expect(item!.InvoiceCode).toBe(`M1-26-SBX00-${item!.TransactionID}`);
  });

  it('records into the catalogue: Download serves the new invoice and sendemail sends it', async () => {
    const data = issuingData({ BuyerFullName: 'Lê Thị Hồng Nhung' });
    const [item] = await issue(sb, [data]);
    const id = item!.TransactionID!;
    expect(sb.catalogue.kindOf(id)).toBe('withCode');
    expect(sb.catalogue.list('withCode').at(-1)).toBe(id);
    expect(sb.catalogue.get(id)).toMatchObject({ RefID: data.RefID, InvNo: item!.InvNo, BuyerTaxCode: '0101234567', TotalAmountOC: data.TotalAmountOC });
    const [pdf] = await download(sb, [id], 'invoiceWithCode=true&downloadDataType=Pdf');
    expect(pdf!.ErrorCode).toBe('');
    const bytes = Buffer.from(pdf!.data!, 'base64');
    expect(new Uint8Array(bytes)).toEqual(await sb.catalogue.expected(id, 'Pdf'));
    const text = (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text.normalize('NFC');
    expect(text).toContain('Lê Thị Hồng Nhung');
    expect(text).toContain(item!.InvNo!);
    expect(text).toContain(data.TotalAmountInWords!);
    const [xml] = await download(sb, [id], 'invoiceWithCode=true&downloadDataType=Xml');
    expect(xml!.data).toContain(`<SHDon>${item!.InvNo}</SHDon>`);
    const mail = await call(sb, 'POST', 'sendemail', {
      body: { SendEmailDatas: [{ TransactionID: id, ReceiverEmail: 'khach@hotay.example.vn' }], IsInvoiceCode: true },
    });
    expect(unwrap(mail.env.data)).toEqual([expect.objectContaining({ TransactionID: id, RefID: data.RefID, ErrorCode: '' })]);
    expect(sb.sentEmails().map((e) => e.TransactionID)).toEqual([id]);
  });

  it('takes the kind from the series: K without code, M cash register; the six-character form resolves', async () => {
    const [k, m, six] = await issue(sb, [issuingData({ InvSeries: '1K26TAA' }), issuingData({ InvSeries: '1C26MAA' }), issuingData({ InvSeries: 'c26taa' })], {
      signType: 5,
    });
    expect(k).toMatchObject({ ErrorCode: '', InvSeries: '1K26TAA', InvoiceCode: null });
    expect(m).toMatchObject({ ErrorCode: '', InvSeries: '1C26MAA', InvoiceCode: `M1-26-SBX00-${m!.TransactionID}` });
    expect(six).toMatchObject({ ErrorCode: '', InvSeries: '1C26TAA' });
    expect([k, m, six].map((i) => sb.catalogue.kindOf(i!.TransactionID!))).toEqual(['withoutCode', 'cashRegister', 'withCode']);
    expect((await download(sb, [k!.TransactionID], 'invoiceWithCode=false&downloadDataType=Xml'))[0]!.ErrorCode).toBe('');
    expect((await download(sb, [k!.TransactionID], 'invoiceWithCode=true&downloadDataType=Xml'))[0]!.ErrorCode).toBe('InvoiceNotExist');
    expect((await download(sb, [m!.TransactionID], 'invoiceWithCode=true&invoiceCalcu=true&downloadDataType=Xml'))[0]!.ErrorCode).toBe('');
    expect(
      sb
        .issued()
        .slice(-3)
        .map((i) => i.kind),
    ).toEqual(['withoutCode', 'cashRegister', 'withCode']);
  });

  it('numbers continue after the catalogue per series, one by one, and series are independent', async () => {
    const tailC = generatedTail('1C26TAA') + sb.issued().filter((i) => i.InvSeries === '1C26TAA').length;
    const tailK = generatedTail('1K26TAA') + sb.issued().filter((i) => i.InvSeries === '1K26TAA').length;
    expect(tailC).toBeGreaterThan(0);
    const first = await issue(sb, [issuingData(), issuingData({ InvSeries: '1K26TAA' }), issuingData()]);
    const second = await issue(sb, [issuingData({ InvSeries: '1K26TAA' }), issuingData()]);
    const no = (n: number) => String(n).padStart(8, '0');
    expect(first.map((i) => i.InvNo)).toEqual([no(tailC + 1), no(tailK + 1), no(tailC + 2)]);
    expect(second.map((i) => i.InvNo)).toEqual([no(tailK + 2), no(tailC + 3)]);
    const fresh = await issue(sb, [issuingData({ InvSeries: '1C26TBH' }), issuingData({ InvSeries: '1C26TBH' })]);
    expect(fresh.map((i) => i.InvNo)).toEqual(['00000001', '00000002']);
    expect(new Set(sb.issued().map((i) => i.TransactionID)).size).toBe(sb.issued().length);
  });

  it('refuses a RefID already issued (in an earlier request, the same request, or a generated invoice)', async () => {
    const data = issuingData();
    const [ok] = await issue(sb, [data]);
    const count = sb.issued().length;
    const [again, twin, twinAgain] = await issue(sb, [data, ...Array(2).fill(issuingData({ RefID: '0b6f4c7e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' }))]);
    expect(again).toMatchObject({ RefID: data.RefID, ErrorCode: 'DuplicateInvoiceRefID', TransactionID: null, InvNo: null });
    expect(again!.DescriptionErrorCode).toBeTruthy();
    expect(twin!.ErrorCode).toBe('');
    expect(twinAgain!.ErrorCode).toBe('DuplicateInvoiceRefID');
    const generated = sb.catalogue.get(sb.catalogue.list('withCode')[0]!)!;
    expect((await issue(sb, [issuingData({ RefID: generated.RefID })]))[0]!.ErrorCode).toBe('DuplicateInvoiceRefID');
    expect(sb.issued()).toHaveLength(count + 1);
    expect(sb.issueAttempts(data.RefID)).toEqual([{ RefID: data.RefID, requests: 2, recorded: 1 }]);
    expect(
      sb
        .issued()
        .filter((i) => i.RefID === data.RefID)
        .map((i) => i.TransactionID),
    ).toEqual([ok!.TransactionID]);
  });

  it('InvalidInvoiceDate before the series’ last issued date; the same day is fine', async () => {
    const [a] = await issue(sb, [issuingData({ InvSeries: '1K26TDL', InvDate: '2026-11-20' })]);
    const [b, c] = await issue(sb, [
      issuingData({ InvSeries: '1K26TDL', InvDate: '2026-11-19' }),
      issuingData({ InvSeries: '1K26TDL', InvDate: '2026-11-20' }),
    ]);
    expect([a!.ErrorCode, b!.ErrorCode, c!.ErrorCode]).toEqual(['', 'InvalidInvoiceDate', '']);
    expect(b!.TransactionID).toBeNull();
    // The generated catalogue counts: its invoices run from 1 January to the first of this month.
    expect((await issue(sb, [issuingData({ InvSeries: '1C26MAA', InvDate: '2026-01-01' })]))[0]!.ErrorCode).toBe('InvalidInvoiceDate');
  });

  it('TaxReductionDateInValid for 8 % outside its window (2025-07-01..2026-12-31 for these dates)', async () => {
    const eight = { lines: [{ ...issuingLine(), VATRateName: '8%' }] };
    const ten = { lines: [{ ...issuingLine(), VATRateName: '10%' }] };
    const items = await issue(sb, [
      issuingData({ InvSeries: '2C26TBB', InvDate: '2026-12-31', ...eight }),
      issuingData({ InvSeries: '2C26TBB', InvDate: '2027-01-05', ...eight }),
      issuingData({ InvSeries: '2C26TBB', InvDate: '2027-01-05', ...ten }),
    ]);
    expect(items.map((i) => i.ErrorCode)).toEqual(['', 'TaxReductionDateInValid', '']);
  });

  it('refuses items with missing identity, an unknown or inactive series, or a certificate not registered', async () => {
    const good = issuingData();
    const items = await issue(sb, [
      { ...good, RefID: '' },
      { ...issuingData(), InvSeries: undefined },
      { ...issuingData(), InvDate: '' },
      { ...issuingData(), OriginalInvoiceDetail: [] },
      { ...issuingData(), RefID: 'not-a-uuid' },
      'nonsense',
      issuingData({ InvSeries: '1C26TZZ' }),
      issuingData({ InvSeries: '1C26TXD' }),
      { ...issuingData(), BuyerLegalName: '', BuyerFullName: '', BuyerTaxCode: '' },
    ]);
    expect(items.map((i) => i.ErrorCode)).toEqual([
      'InvalidInvoiceData',
      'InvalidInvoiceData',
      'InvalidInvoiceData',
      'InvalidInvoiceData',
      'InvalidInvoiceData',
      'InvalidInvoiceData',
      'InvoiceTemplateNotExist',
      'InvoiceTemplateNotExist',
      'RequireError_BuyerFullName',
    ]);
    for (const signType of [2, 3]) {
      const noCert = await issue(sb, [issuingData()], { signType, cert: null });
      const wrong = await issue(sb, [issuingData()], { signType, cert: 'ABCDEF0123456789' });
      expect([noCert[0]!.ErrorCode, wrong[0]!.ErrorCode]).toEqual(['InvalidCertByRegistration', 'InvalidCertByRegistration']);
    }
    expect((await issue(sb, [issuingData()], { signType: 4, cert: null }))[0]!.ErrorCode).toBe('');
    expect(sb.issued().some((i) => i.RefID === good.RefID)).toBe(false);
  });

  it('call-level errors: InvalidSignType, InvoiceQuantityTooLarge (> 50), InvalidRequestBody', async () => {
    const count = sb.issued().length;
    for (const signType of [1, 7, 0, '2']) {
      const r = await postIssue(sb, { ...issueBody(sb, [issuingData()]), SignType: signType });
      expect(r.env).toMatchObject({ success: false, errorCode: 'InvalidSignType', publishInvoiceResult: null });
    }
    const many = await postIssue(
      sb,
      issueBody(
        sb,
        Array.from({ length: 51 }, () => issuingData()),
      ),
    );
    expect(many.env).toMatchObject({ success: false, errorCode: 'InvoiceQuantityTooLarge' });
    const fifty = await issue(
      sb,
      Array.from({ length: 50 }, () => issuingData({ InvSeries: '1K26TAA' })),
      { signType: 5 },
    );
    expect(fifty.every((i) => i.ErrorCode === '')).toBe(true);
    for (const body of [[issuingData()], { SignType: 2, InvoiceData: [] }, { SignType: 2 }]) {
      const r = await postIssue(sb, body);
      expect([r.status, r.env.errorCode]).toEqual([400, 'InvalidRequestBody']);
    }
    const broken = await fetch(sb.baseUrl, { method: 'POST', headers: headers(sb.devToken), body: '{"SignType": 2,' });
    expect(broken.status).toBe(400);
    expect(sb.issued()).toHaveLength(count + 50);
  });

  it('SignType 3 and 6 answer without TransactionID/InvNo; the invoice is issued and found by status', async () => {
    const a = issuingData();
    const b = issuingData({ InvSeries: '1C26MAA' });
    const [ia] = await issue(sb, [a], { signType: 3 });
    const [ib] = await issue(sb, [b], { signType: 6 });
    for (const [item, data] of [
      [ia, a],
      [ib, b],
    ] as const) {
      expect(item).toMatchObject({ RefID: data.RefID, ErrorCode: '', TransactionID: null, InvNo: null, InvoiceCode: null });
    }
    const [sa] = await status(sb, [a.RefID], 'invoiceWithCode=true&inputType=2');
    const [sbb] = await status(sb, [b.RefID], 'invoiceWithCode=true&invoiceCalcu=true&inputType=2');
    expect(sa).toMatchObject({ RefID: a.RefID, TransactionID: sb.issued().find((i) => i.RefID === a.RefID)!.TransactionID });
    expect(sbb!.InvNo).toMatch(/^\d{8}$/);
    expect(
      sb
        .issued()
        .slice(-2)
        .map((i) => i.signType),
    ).toEqual([3, 6]);
  });

  it('needs a valid token like every operation; nothing is issued without one', async () => {
    const data = issuingData();
    const r = await postIssue(sb, issueBody(sb, [data]), 'bad-token');
    expect(r.env).toMatchObject({ success: false, errorCode: 'InvalidTokenCode' });
    expect(sb.issued().some((i) => i.RefID === data.RefID)).toBe(false);
  });

  it('routes by method: GET on the base path, GET status and POST get-certificates are 405', async () => {
    const get = await fetch(sb.baseUrl, { headers: headers(sb.devToken) });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await call(sb, 'GET', 'status')).status).toBe(405);
    expect((await call(sb, 'POST', 'get-certificates', { body: [] })).status).toBe(405);
    expect((await postIssue(sb, issueBody(sb, [issuingData()]))).status).toBe(200);
    expect(sb.requests({ op: 'issue' }).map((r) => r.status)).toEqual([405, 200]);
  });
});

describe('certificates', () => {
  it('lists the one sandbox certificate, which SignType 2 accepts', async () => {
    const r = await call(sb, 'GET', 'get-certificates');
    expect(r.env.success).toBe(true);
    const list = unwrap(r.env.data) as Record<string, string>[];
    expect(list).toHaveLength(1);
    const cert = list[0]!;
    expect(Object.keys(cert)).toEqual(['CertificateSN', 'TaxCode', 'UserName', 'AuthOrganizeName', 'EffectiveTime', 'ExpirationTime']);
    expect(cert).toEqual(sb.certificate());
    expect(cert.CertificateSN).toMatch(/^[0-9A-F]{32}$/);
    expect(cert.TaxCode).toBe('0109876543');
    expect(cert.AuthOrganizeName).toBe('MISA CA');
    expect(Date.parse(cert.EffectiveTime!)).toBeLessThan(NOW);
    expect(Date.parse(cert.ExpirationTime!)).toBeGreaterThan(NOW + 300 * 86_400_000);
    expect((await issue(sb, [issuingData()], { signType: 2, cert: cert.CertificateSN }))[0]!.ErrorCode).toBe('');
  });
});

describe('status', () => {
  it('by TransactionID or RefID, only for the kind asked, unknown IDs absent', async () => {
    const [c, k] = await issue(sb, [issuingData(), issuingData({ InvSeries: '1K26TAA' })]);
    const withCode = await status(sb, [c!.TransactionID, k!.TransactionID, 'ZZZZZZZZZZ', 42], 'invoiceWithCode=true&invoiceCalcu=false&inputType=1');
    expect(withCode.map((s) => s.TransactionID)).toEqual([c!.TransactionID]);
    expect(withCode[0]).toMatchObject({
      RefID: c!.RefID,
      InvSeries: '1C26TAA',
      InvTempl: '1',
      InvNo: c!.InvNo,
      PublishStatus: 1,
      EInvoiceStatus: 1,
      ReferenceType: 0,
      InvoiceCode: c!.InvoiceCode,
      SendTaxStatus: 2,
      BuyerName: 'Công ty TNHH Thương mại Hồ Tây',
      BuyerTaxCode: '0101234567',
      BuyerFullName: 'Trần Văn Nam',
    });
    expect(Object.keys(withCode[0]!)).toHaveLength(18);
    const byRef = await status(sb, [k!.RefID, c!.RefID], 'invoiceWithCode=false&inputType=2');
    expect(byRef.map((s) => s.TransactionID)).toEqual([k!.TransactionID]);
    expect(byRef[0]).toMatchObject({ InvoiceCode: null, SendTaxStatus: 0 });
  });

  it('answers for generated catalogue invoices too, by TransactionID and by RefID; deleted ones are absent', async () => {
    const id = sb.catalogue.list('cashRegister')[0]!;
    const inv = sb.catalogue.get(id)!;
    const q = 'invoiceWithCode=true&invoiceCalcu=true';
    const [byId] = await status(sb, [id], `${q}&inputType=1`);
    const [byRef] = await status(sb, [inv.RefID], `${q}&inputType=2`);
    expect(byId).toEqual(byRef);
    expect(byId).toMatchObject({ TransactionID: id, RefID: inv.RefID, InvNo: inv.InvNo, InvoiceCode: `M1-26-SBX00-${id}`, SendTaxStatus: 2 });
    const deleted = INVOICE_KINDS.flatMap((k) => sb.catalogue.deletedIds(k).map((d) => [k, d] as const))[0];
    if (deleted) {
      const flags = sb.catalogue.flagsFor(deleted[0]);
      expect(await status(sb, [deleted[1]], `invoiceWithCode=${flags.invoiceWithCode}&invoiceCalcu=${flags.invoiceCalcu}&inputType=1`)).toEqual([]);
    }
  });

  it('at most 50 IDs; bad inputType or body → 400', async () => {
    const over = await call(sb, 'POST', 'status', { query: 'inputType=1', body: Array(51).fill('ABC') });
    expect(over.env).toMatchObject({ success: false, errorCode: 'InvoiceQuantityTooLarge' });
    expect((await call(sb, 'POST', 'status', { query: 'inputType=1', body: Array(50).fill('ABC') })).env.success).toBe(true);
    expect((await call(sb, 'POST', 'status', { query: 'inputType=3', body: [] })).status).toBe(400);
    expect((await call(sb, 'POST', 'status', { query: 'inputType=1', body: { ids: [] } })).status).toBe(400);
    expect((await call(sb, 'POST', 'status', { query: 'invoiceWithCode=maybe', body: [] })).status).toBe(400);
  });
});

describe('inspection and admin', () => {
  it('issued(), GET /__sandbox/issued and the state counts; reset keeps issued invoices and numbering', async () => {
    const [a] = await issue(sb, [issuingData({ InvSeries: '1K26TDL', InvDate: '2026-11-21' })], { signType: 5 });
    const mine = sb.issued().at(-1)!;
    expect(mine).toEqual({
      RefID: a!.RefID,
      TransactionID: a!.TransactionID,
      InvNo: a!.InvNo,
      InvSeries: '1K26TDL',
      InvDate: '2026-11-21',
      kind: 'withoutCode',
      issuedAt: new Date(NOW).toISOString(),
      signType: 5,
    });
    const admin = (await (await fetch(`${sb.origin}/__sandbox/issued`)).json()) as { issued: unknown[]; overlaps: number; attempts: unknown[] };
    expect(admin.issued).toEqual(sb.issued());
    expect(admin.overlaps).toBe(0);
    expect(admin.attempts).toContainEqual({ RefID: a!.RefID, requests: 1, recorded: 1 });
    const state = (await (await fetch(`${sb.origin}/__sandbox/state`)).json()) as Record<string, unknown>;
    expect(state).toMatchObject({ issued: sb.issued().length, overlaps: 0, certificateSN: sb.certificate().CertificateSN });
    sb.reset();
    expect(sb.issued().at(-1)).toEqual(mine);
    expect(sb.issueAttempts(a!.RefID)).toEqual([{ RefID: a!.RefID, requests: 0, recorded: 1 }]);
    const [next] = await issue(sb, [issuingData({ InvSeries: '1K26TDL' })], { signType: 5 });
    expect(Number(next!.InvNo)).toBe(Number(a!.InvNo) + 1);
    expect(sb.catalogue.get(a!.TransactionID!)).toBeDefined();
  });
});
