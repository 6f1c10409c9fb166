import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS, startSandbox, type Sandbox } from '../../../main/sandbox';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import { call } from './helpers';

let clock = Date.parse('2026-11-21T03:00:00Z');
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 120, seed: 5, now: () => new Date(clock) });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

const ENVELOPE_KEYS = ['success', 'errorCode', 'descriptionErrorCode', 'errors', 'data', 'customData'];
const PASCAL_KEYS = ENVELOPE_KEYS.map((k) => k.charAt(0).toUpperCase() + k.slice(1));

describe('casing', () => {
  it('camel by default, leading capital with casing=pascal (every operation, token too)', async () => {
    expect(Object.keys((await call(sb, 'GET', 'templates')).env)).toEqual(ENVELOPE_KEYS);
    sb.setQuirks({ casing: 'pascal' });
    expect(Object.keys((await call(sb, 'GET', 'templates')).env)).toEqual(PASCAL_KEYS);
    const dl = await call(sb, 'POST', 'Download', { body: ['ZZZZ'] });
    expect(dl.env.Success).toBe(true);
    const err = await call(sb, 'GET', 'templates', { token: 'bad' });
    expect(err.env).toMatchObject({ Success: false, ErrorCode: 'InvalidTokenCode' });
    const tok = (await (await fetch(sb.tokenUrl, { method: 'POST', body: JSON.stringify(SANDBOX_CREDENTIALS) })).json()) as Record<string, unknown>;
    expect(typeof tok.Data).toBe('string');
    expect(tok.data).toBeUndefined();
    const pv = await call(sb, 'POST', 'unpublishview', { body: sampleInvoiceData() });
    expect(String(pv.env.Data)).toContain('/preview/');
  });
});

describe('dataEncoding', () => {
  const ids = () => sb.catalogue.list('withCode').slice(0, 2);
  const email = () => ({ SendEmailDatas: ids().map((id) => ({ TransactionID: id, ReceiverEmail: 'a@b.vn' })), IsInvoiceCode: true });

  it('string (default): JSON-in-string for templates, Download and sendemail', async () => {
    for (const r of [
      await call(sb, 'GET', 'templates'),
      await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Xml', body: ids() }),
      await call(sb, 'POST', 'sendemail', { body: email() }),
    ]) {
      expect(typeof r.env.data).toBe('string');
      expect(Array.isArray(JSON.parse(r.env.data as string))).toBe(true);
    }
  });

  it('object: the list itself', async () => {
    sb.setQuirks({ dataEncoding: 'object' });
    for (const r of [
      await call(sb, 'GET', 'templates'),
      await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Xml', body: ids() }),
      await call(sb, 'POST', 'sendemail', { body: email() }),
    ]) {
      expect(Array.isArray(r.env.data)).toBe(true);
    }
  });

  it('double: JSON-in-string twice', async () => {
    sb.setQuirks({ dataEncoding: 'double' });
    for (const r of [
      await call(sb, 'GET', 'templates'),
      await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Xml', body: ids() }),
      await call(sb, 'POST', 'sendemail', { body: email() }),
    ]) {
      const once = JSON.parse(r.env.data as string) as unknown;
      expect(typeof once).toBe('string');
      expect(Array.isArray(JSON.parse(once as string))).toBe(true);
    }
  });

  it.each(['object', 'string', 'double'] as const)(
    'Download %s: the spliced body is valid JSON that decodes to the right items, awkward ids included',
    async (dataEncoding) => {
      sb.setQuirks({ dataEncoding, itemDataField: 'mixed' });
      const good = sb.catalogue.list('withCode').slice(0, 2);
      const ids = [good[0]!, 'quote"back\\slash\u00e9\n', good[1]!, 'NOSUCHID00'];
      for (const type of ['Pdf', 'Xml', 'All'] as const) {
        const r = await call(sb, 'POST', 'Download', { query: `invoiceWithCode=true&downloadDataType=${type}`, body: ids });
        let data: unknown = r.env.data;
        for (let i = 0; i < (dataEncoding === 'object' ? 0 : dataEncoding === 'string' ? 1 : 2); i++) data = JSON.parse(data as string);
        const items = data as Record<string, string | null>[];
        expect(items.map((i) => i.TransactionID)).toEqual(ids);
        expect(items.map((i) => i.ErrorCode)).toEqual(['', 'InvalidTransactionID', '', 'InvoiceNotExist']);
        expect(items[1]!.Data).toBeNull();
        const second = items[2]!.data;
        const expected = Buffer.from(await sb.catalogue.expected(good[1]!, type));
        expect((type === 'Xml' ? Buffer.from(second!, 'utf8') : Buffer.from(second!, 'base64')).equals(expected)).toBe(true);
        expect(Buffer.from(items[0]!.data!, type === 'Xml' ? 'utf8' : 'base64').equals(Buffer.from(await sb.catalogue.expected(good[0]!, type)))).toBe(true);
      }
    },
  );

  it('the preview link and the token stay plain strings', async () => {
    sb.setQuirks({ dataEncoding: 'double' });
    const pv = await call(sb, 'POST', 'unpublishview', { body: sampleInvoiceData() });
    expect(pv.env.data).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/preview\//);
  });
});

describe('itemDataField', () => {
  it('data (default), Data, or mixed per item', async () => {
    const ids = sb.catalogue.list('withCode').slice(0, 4);
    const keys = async () =>
      (
        JSON.parse((await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Html', body: ids })).env.data as string) as Record<
          string,
          unknown
        >[]
      ).map((i) => Object.keys(i).sort().join(','));
    expect(await keys()).toEqual(Array(4).fill('ErrorCode,TransactionID,data'));
    sb.setQuirks({ itemDataField: 'Data' });
    expect(await keys()).toEqual(Array(4).fill('Data,ErrorCode,TransactionID'));
    sb.setQuirks({ itemDataField: 'mixed' });
    expect(await keys()).toEqual([
      'ErrorCode,TransactionID,data',
      'Data,ErrorCode,TransactionID',
      'ErrorCode,TransactionID,data',
      'Data,ErrorCode,TransactionID',
    ]);
  });
});

describe('downloadPdfAsLink', () => {
  it('Pdf answers one viewer link to a PDF of every requested invoice; other types keep the list', async () => {
    sb.setQuirks({ downloadPdfAsLink: true });
    const ids = sb.catalogue.list('withoutCode').slice(0, 3);
    const r = await call(sb, 'POST', 'Download', { query: 'downloadDataType=Pdf', body: [...ids, 'NOSUCHID00'] });
    expect(r.env.success).toBe(true);
    const link = r.env.data as string;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/viewer\/[a-z0-9]+\.pdf$/);
    const pdf = new Uint8Array(await (await fetch(link)).arrayBuffer());
    const doc = await getDocumentProxy(pdf);
    expect(doc.numPages).toBeGreaterThanOrEqual(3);
    const text = (await extractText(doc, { mergePages: true })).text.normalize('NFC');
    for (const id of ids) expect(text).toContain(sb.catalogue.get(id)!.BuyerFullName);
    const one = await call(sb, 'POST', 'Download', { body: [ids[0]] });
    const single = Buffer.from(await (await fetch(one.env.data as string)).arrayBuffer());
    expect(single.equals(Buffer.from(await sb.catalogue.expected(ids[0]!, 'Pdf')))).toBe(true);
    expect(Array.isArray(JSON.parse((await call(sb, 'POST', 'Download', { query: 'downloadDataType=Xml', body: ids })).env.data as string))).toBe(true);
    expect((await call(sb, 'POST', 'Download', { body: ['NOSUCHID00'] })).env).toMatchObject({ success: false, errorCode: 'InvoiceNotExist' });
    clock += 31_000;
    expect((await fetch(link)).status).toBe(410);
  });
});

describe('maintenance', () => {
  it('every operation answers HTTP 503 with an HTML page', async () => {
    sb.setQuirks({ maintenance: true });
    for (const [method, op] of [
      ['GET', 'templates'],
      ['POST', 'Download'],
      ['POST', 'sendemail'],
      ['POST', 'unpublishview'],
    ] as const) {
      const r = await call(sb, method, op, { body: method === 'POST' ? [] : undefined });
      expect(r.status).toBe(503);
      expect(r.res.headers.get('content-type')).toContain('text/html');
      expect(r.text).toContain('bảo trì');
    }
    expect((await fetch(sb.tokenUrl, { method: 'POST', body: '{}' })).status).toBe(503);
    sb.setQuirks({ maintenance: false });
    expect((await call(sb, 'GET', 'templates')).status).toBe(200);
  });
});

describe('CompanyTaxCode header and forced call errors', () => {
  it('requireCompanyTaxCode: InvalidTaxCode without the header, fine with it', async () => {
    sb.setQuirks({ requireCompanyTaxCode: true });
    expect((await call(sb, 'GET', 'templates')).env.errorCode).toBe('InvalidTaxCode');
    const res = await fetch(`${sb.baseUrl}/templates`, { headers: { Authorization: `Bearer ${sb.devToken}`, CompanyTaxCode: SANDBOX_CREDENTIALS.taxcode } });
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
  });

  it('callError: every operation answers that code (unknown codes too)', async () => {
    sb.setQuirks({ callError: 'LicenseInfo_OutOfInvoice' });
    const r = await call(sb, 'POST', 'Download', { body: [] });
    expect(r.env).toMatchObject({ success: false, errorCode: 'LicenseInfo_OutOfInvoice', descriptionErrorCode: 'Đã hết số lượng hóa đơn trong gói' });
    sb.setQuirks({ callError: 'SomethingNew_42' });
    expect((await call(sb, 'GET', 'templates')).env).toMatchObject({ errorCode: 'SomethingNew_42', descriptionErrorCode: 'SomethingNew_42' });
    expect((await call(sb, 'GET', 'templates', { token: 'bad' })).env.errorCode).toBe('InvalidTokenCode');
  });
});

describe('quirks from options', () => {
  it('startSandbox({ quirks }) sets the start-up quirks, reset() returns to them', async () => {
    const s = await startSandbox({ invoiceCount: 10, quirks: { casing: 'pascal', dataEncoding: 'object' } });
    try {
      const r = await call(s, 'GET', 'templates');
      expect(Array.isArray(r.env.Data)).toBe(true);
      s.setQuirks({ casing: 'camel' });
      s.reset();
      expect(s.quirks()).toMatchObject({ casing: 'pascal', dataEncoding: 'object' });
    } finally {
      await s.close();
    }
    await expect(startSandbox({ quirks: { casing: 'x' as 'camel' } })).rejects.toThrow(/bad value/);
  });
});
