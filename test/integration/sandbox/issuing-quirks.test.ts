import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_QUIRKS, startSandbox, type Sandbox } from '../../../main/sandbox';
import { call, unwrap } from './helpers';
import { NOW, issue, issueBody, issuingData, postIssue, resultItems, status } from './issuing-support';

let clock = NOW;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 120, seed: 21, now: () => new Date(clock) });
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.reset();
  clock = NOW;
});

const WITH_CODE = 'invoiceWithCode=true&inputType=1';

describe('issuing quirks', () => {
  it('defaults: answers at once, no licence limit, the documented result (a JSON string of PascalCase items)', () => {
    const { statusDelayMs, invoiceCodeDelayMs, issueProcessingMs, licenceInvoices, publishResultEncoding, publishItemCasing } = DEFAULT_QUIRKS;
    expect([statusDelayMs, invoiceCodeDelayMs, issueProcessingMs]).toEqual([0, 0, 0]);
    expect(licenceInvoices).toBeNull();
    expect([publishResultEncoding, publishItemCasing]).toEqual(['string', 'pascal']);
  });

  it('statusDelayMs: an issued invoice is absent from status (by ID and by RefID) until the delay has passed', async () => {
    sb.setQuirks({ statusDelayMs: 5_000 });
    const [item] = await issue(sb, [issuingData()]);
    expect(await status(sb, [item!.TransactionID], WITH_CODE)).toEqual([]);
    expect(await status(sb, [item!.RefID], 'invoiceWithCode=true&inputType=2')).toEqual([]);
    // Download knows it at once: only status lags.
    expect((await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Xml', body: [item!.TransactionID] })).env.success).toBe(true);
    clock += 4_999;
    expect(await status(sb, [item!.TransactionID], WITH_CODE)).toEqual([]);
    clock += 1;
    expect((await status(sb, [item!.TransactionID], WITH_CODE)).map((s) => s.RefID)).toEqual([item!.RefID]);
  });

  it('invoiceCodeDelayMs: with code → null and SendTaxStatus 1, then the code and 2; cash register has its code at once; without code never', async () => {
    sb.setQuirks({ invoiceCodeDelayMs: 60_000 });
    const [c, m, k] = await issue(sb, [issuingData(), issuingData({ InvSeries: '1C26MAA' }), issuingData({ InvSeries: '1K26TAA' })]);
    expect([c!.InvoiceCode, k!.InvoiceCode]).toEqual([null, null]);
    expect(m!.InvoiceCode).toBe(`M1-26-SBX00-${m!.TransactionID}`);
    const look = async () => [
      ...(await status(sb, [c!.TransactionID], WITH_CODE)),
      ...(await status(sb, [m!.TransactionID], 'invoiceWithCode=true&invoiceCalcu=true')),
      ...(await status(sb, [k!.TransactionID], 'invoiceWithCode=false')),
    ];
    expect((await look()).map((s) => [s.InvoiceCode, s.SendTaxStatus])).toEqual([
      [null, 1],
      [m!.InvoiceCode, 1],
      [null, 0],
    ]);
    clock += 60_000;
    expect((await look()).map((s) => [s.InvoiceCode, s.SendTaxStatus])).toEqual([
      [`M1-26-SBX00-${c!.TransactionID}`, 2],
      [m!.InvoiceCode, 2],
      [null, 0],
    ]);
  });

  it('licenceInvoices: items past the licence get LicenseInfo_OutOfInvoice; a request with none issuable fails at call level', async () => {
    sb.setQuirks({ licenceInvoices: sb.issued().length + 2 });
    const items = await issue(sb, [issuingData(), issuingData({ InvSeries: '1K26TAA' }), issuingData()]);
    expect(items.map((i) => i.ErrorCode)).toEqual(['', '', 'LicenseInfo_OutOfInvoice']);
    expect(items[2]).toMatchObject({ TransactionID: null, InvNo: null });
    const none = await postIssue(sb, issueBody(sb, [issuingData()]));
    expect(none.env).toMatchObject({ success: false, errorCode: 'LicenseInfo_OutOfInvoice', publishInvoiceResult: null });
    sb.setQuirks({ licenceInvoices: 0 });
    expect((await postIssue(sb, issueBody(sb, [issuingData()]))).env.errorCode).toBe('LicenseInfo_OutOfInvoice');
    sb.setQuirks({ licenceInvoices: null });
    expect((await issue(sb, [issuingData()]))[0]!.ErrorCode).toBe('');
  });

  it('publishResultEncoding list: the result is the list itself', async () => {
    sb.setQuirks({ publishResultEncoding: 'list' });
    const { env } = await postIssue(sb, issueBody(sb, [issuingData()]));
    expect(Array.isArray(env.publishInvoiceResult)).toBe(true);
    expect((env.publishInvoiceResult as Record<string, unknown>[])[0]!.ErrorCode).toBe('');
  });

  it('publishItemCasing camel: refID, transactionID, …', async () => {
    sb.setQuirks({ publishItemCasing: 'camel' });
    const data = issuingData();
    const { env } = await postIssue(sb, issueBody(sb, [data]));
    const [raw] = JSON.parse(env.publishInvoiceResult as string) as Record<string, unknown>[];
    expect(Object.keys(raw!)).toEqual(['refID', 'transactionID', 'invNo', 'invSeries', 'invDate', 'invoiceCode', 'errorCode', 'descriptionErrorCode']);
    expect(raw).toMatchObject({ refID: data.RefID, errorCode: '' });
  });

  it('casing pascal capitalises the envelope, PublishInvoiceResult included', async () => {
    sb.setQuirks({ casing: 'pascal' });
    const { env } = await postIssue(sb, issueBody(sb, [issuingData()]));
    expect(Object.keys(env)).toEqual(['Success', 'ErrorCode', 'DescriptionErrorCode', 'Errors', 'Data', 'CustomData', 'PublishInvoiceResult']);
    expect(resultItems(env)[0]!.ErrorCode).toBe('');
    expect(env.Data).toBeNull();
  });

  it('dataEncoding applies to status and get-certificates data', async () => {
    const [item] = await issue(sb, [issuingData()]);
    for (const [encoding, check] of [
      ['string', (d: unknown) => typeof d === 'string' && Array.isArray(JSON.parse(d))],
      ['object', (d: unknown) => Array.isArray(d)],
      ['double', (d: unknown) => typeof d === 'string' && typeof JSON.parse(d) === 'string'],
    ] as const) {
      sb.setQuirks({ dataEncoding: encoding });
      const st = await call(sb, 'POST', 'status', { query: WITH_CODE, body: [item!.TransactionID] });
      const certs = await call(sb, 'GET', 'get-certificates');
      expect([check(st.env.data), check(certs.env.data)]).toEqual([true, true]);
      expect((unwrap(st.env.data) as unknown[]).length).toBe(1);
    }
  });

  it('are validated, settable over the admin endpoint, and restored by reset', async () => {
    for (const bad of [
      { statusDelayMs: -1 },
      { invoiceCodeDelayMs: 1.5 },
      { issueProcessingMs: '100' },
      { licenceInvoices: -3 },
      { licenceInvoices: 'many' },
      { publishResultEncoding: 'object' },
      { publishItemCasing: 'snake' },
    ]) {
      expect(() => sb.setQuirks(bad as never)).toThrow(/quirks: bad value/);
    }
    const res = await fetch(`${sb.origin}/__sandbox/quirks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        statusDelayMs: 100,
        invoiceCodeDelayMs: 200,
        issueProcessingMs: 0,
        licenceInvoices: 7,
        publishResultEncoding: 'list',
        publishItemCasing: 'camel',
      }),
    });
    expect(await res.json()).toMatchObject({
      statusDelayMs: 100,
      invoiceCodeDelayMs: 200,
      licenceInvoices: 7,
      publishResultEncoding: 'list',
      publishItemCasing: 'camel',
    });
    expect(sb.quirks().licenceInvoices).toBe(7);
    sb.reset();
    expect(sb.quirks()).toEqual(DEFAULT_QUIRKS);
  });

  it('start-up options set the issuing quirks too', async () => {
    const other = await startSandbox({ invoiceCount: 10, seed: 2, now: () => new Date(NOW), quirks: { licenceInvoices: 0, publishResultEncoding: 'list' } });
    try {
      expect(other.quirks()).toMatchObject({ licenceInvoices: 0, publishResultEncoding: 'list' });
      const r = await postIssue(other, issueBody(other, [issuingData()]));
      expect(r.env.errorCode).toBe('LicenseInfo_OutOfInvoice');
    } finally {
      await other.close();
    }
  });
});
