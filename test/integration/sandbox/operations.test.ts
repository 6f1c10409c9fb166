import { unzipSync } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN, SANDBOX_INACTIVE_APPID, startSandbox, type Sandbox } from '../../../main/sandbox';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import http from 'node:http';
import { call, download, unwrap } from './helpers';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

let clock = new Date('2026-11-21T03:00:00Z').getTime();
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 200, now: () => new Date(clock), previewLinkTtlMs: 30_000 });
});
afterAll(() => sb.close());
beforeEach(() => sb.reset());

describe('addresses', () => {
  it('exposes origin, baseUrl, tokenUrl and the dev token', () => {
    expect(sb.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sb.baseUrl).toBe(`${sb.origin}/api/integration/invoice`);
    expect(sb.tokenUrl).toBe(`${sb.origin}/api/integration/auth/token`);
    expect(sb.devToken).toBe(SANDBOX_DEV_TOKEN);
  });
});

describe('token operation and auth', () => {
  const post = (body: unknown) => fetch(sb.tokenUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('issues a JWT for the sandbox credentials that the operations accept', async () => {
    const res = await post(SANDBOX_CREDENTIALS);
    const env = (await res.json()) as { success: boolean; data: string };
    expect(res.status).toBe(200);
    expect(env.success).toBe(true);
    expect(env.data.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(env.data.split('.')[1]!, 'base64url').toString()) as { exp: number };
    expect(claims.exp).toBe(Math.floor(clock / 1000) + 14 * 24 * 3600);
    const t = await call(sb, 'GET', 'templates', { token: env.data });
    expect(t.env.success).toBe(true);
    expect(sb.requests({ op: 'templates' }).at(-1)?.auth).toBe('issued');
  });

  it('answers InvalidAppID, InActiveAppID and UnAuthorize', async () => {
    const code = async (body: unknown) => ((await (await post(body)).json()) as { errorCode: string }).errorCode;
    expect(await code({ ...SANDBOX_CREDENTIALS, appid: 'nope' })).toBe('InvalidAppID');
    expect(await code({ ...SANDBOX_CREDENTIALS, appid: SANDBOX_INACTIVE_APPID })).toBe('InActiveAppID');
    expect(await code({ ...SANDBOX_CREDENTIALS, password: 'wrong' })).toBe('UnAuthorize');
    expect(await code({ ...SANDBOX_CREDENTIALS, taxcode: '0100000000' })).toBe('UnAuthorize');
  });

  it('accepts field names in any case', async () => {
    const env = (await (
      await post({ AppID: SANDBOX_CREDENTIALS.appid, TaxCode: SANDBOX_CREDENTIALS.taxcode, UserName: 'sandbox', Password: SANDBOX_CREDENTIALS.password })
    ).json()) as { success: boolean };
    expect(env.success).toBe(true);
  });

  it.each(['templates', 'Download', 'sendemail', 'unpublishview'])(
    '%s: invalid, missing and expired tokens are refused before anything happens',
    async (op) => {
      const method = op === 'templates' ? 'GET' : 'POST';
      const body =
        op === 'templates'
          ? undefined
          : op === 'Download'
            ? [sb.catalogue.list('withoutCode')[0]]
            : op === 'sendemail'
              ? { SendEmailDatas: [{ TransactionID: sb.catalogue.list('withoutCode')[0], ReceiverEmail: 'a@b.vn' }], IsInvoiceCode: false }
              : sampleInvoiceData();
      const bad = await call(sb, method, op, { token: 'not-a-token', body });
      expect(bad.status).toBe(200);
      expect(bad.env).toMatchObject({ success: false, errorCode: 'InvalidTokenCode' });
      const none = await call(sb, method, op, { token: null, body });
      expect(none.env.errorCode).toBe('InvalidTokenCode');
      const expired = await call(sb, method, op, { token: sb.issueToken({ ttlMs: -1000 }), body });
      expect(expired.env.errorCode).toBe('TokenExpiredCode');
      expect(sb.sentEmails()).toEqual([]);
      expect(sb.requests().map((r) => r.auth)).toEqual(['invalid', 'none', 'expired']);
    },
  );

  it('a token expires when the clock passes exp', async () => {
    const token = sb.issueToken({ ttlMs: 10_000 });
    expect((await call(sb, 'GET', 'templates', { token })).env.success).toBe(true);
    clock += 11_000;
    expect((await call(sb, 'GET', 'templates', { token })).env.errorCode).toBe('TokenExpiredCode');
  });

  it('authHttp401 quirk answers 401 with the same envelope', async () => {
    sb.setQuirks({ authHttp401: true });
    const r = await call(sb, 'GET', 'templates', { token: 'bad' });
    expect(r.status).toBe(401);
    expect(r.res.headers.get('www-authenticate')).toContain('Bearer');
    expect(r.env.errorCode).toBe('InvalidTokenCode');
  });

  it('never logs the Authorization value', async () => {
    await call(sb, 'GET', 'templates');
    const entry = sb.requests().at(-1)!;
    expect(entry.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(sb.requests())).not.toContain(SANDBOX_DEV_TOKEN);
  });
});

describe('templates', () => {
  type T = { InvSeries: string; Inactive: boolean; IsMoreVATRate: boolean | null };
  const list = async (query: string) => unwrap((await call(sb, 'GET', 'templates', { query })).env.data) as T[];

  it('filters by invoiceWithCode, ticket and year (default: the current year, UTC+7)', async () => {
    const withCode = await list('invoiceWithCode=true');
    expect(withCode.length).toBeGreaterThan(2);
    expect(withCode.every((t) => /^[12]C26/.test(t.InvSeries))).toBe(true);
    expect(withCode.some((t) => t.Inactive)).toBe(true);
    expect(withCode.some((t) => t.IsMoreVATRate === true)).toBe(true);
    const without = await list('');
    expect(without.every((t) => /^[12]K26/.test(t.InvSeries))).toBe(true);
    const tickets = await list('ticket=true&invoiceWithCode=false');
    expect(tickets.every((t) => t.InvSeries.startsWith('5K26'))).toBe(true);
    expect(tickets.length).toBeGreaterThan(0);
    const last = await list('invoiceWithCode=True&year=2025');
    expect(last.every((t) => t.InvSeries.slice(2, 4) === '25')).toBe(true);
    expect(await list('year=1999')).toEqual([]);
  });

  it('data is a JSON-encoded string by default (the published sample) and fields pass through', async () => {
    const r = await call(sb, 'GET', 'templates', { query: 'invoiceWithCode=true' });
    expect(typeof r.env.data).toBe('string');
    expect(r.env).toMatchObject({ success: true, errorCode: null, descriptionErrorCode: null, errors: [], customData: '' });
    const first = (unwrap(r.env.data) as Record<string, unknown>[])[0]!;
    expect(first).toHaveProperty('DefaultTemplateID');
    expect(first).toHaveProperty('MappingConfigVat', null);
  });

  it('records the query flags it received', async () => {
    await call(sb, 'GET', 'templates', { query: 'invoiceWithCode=true&ticket=false&year=2026' });
    expect(sb.requests({ op: 'templates' }).at(-1)?.query).toEqual({ invoiceWithCode: 'true', ticket: 'false', year: '2026' });
  });

  it('rejects non-boolean flags with HTTP 400', async () => {
    expect((await call(sb, 'GET', 'templates', { query: 'invoiceWithCode=yes' })).status).toBe(400);
  });
});

describe('Download', () => {
  it('delivers every type and the bytes equal the catalogue', async () => {
    const ids = sb.catalogue.list('withCode').slice(0, 3);
    for (const type of ['Xml', 'Html', 'Pdf', 'All'] as const) {
      const items = await download(sb, [...ids], `invoiceWithCode=true&invoiceCalcu=false&downloadDataType=${type}`);
      expect(items.map((i) => i.TransactionID)).toEqual(ids);
      for (const item of items) {
        expect(item.ErrorCode).toBe('');
        const expected = Buffer.from(await sb.catalogue.expected(item.TransactionID, type));
        const got = type === 'Xml' || type === 'Html' ? Buffer.from(item.data!, 'utf8') : Buffer.from(item.data!, 'base64');
        expect(got.equals(expected)).toBe(true);
      }
    }
  });

  it('Pdf is the default type, case-insensitive type names, flags in any case', async () => {
    const id = sb.catalogue.list('withoutCode')[0]!;
    const def = await download(sb, [id], '');
    expect(Buffer.from(def[0]!.data!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const lower = await download(sb, [id], 'downloadDataType=pdf');
    expect(lower[0]!.data).toBe(def[0]!.data);
    const xml = await download(sb, [sb.catalogue.list('cashRegister')[0]!], 'INVOICECALCU=True&downloadDataType=XML');
    expect(xml[0]!.data).toMatch(/^<\?xml/);
  });

  it('the PDF shows Vietnamese text correctly', async () => {
    const id = sb.catalogue.list('withCode')[2]!;
    const inv = sb.catalogue.get(id)!;
    const [item] = await download(sb, [id], 'invoiceWithCode=true');
    const doc = await getDocumentProxy(new Uint8Array(Buffer.from(item!.data!, 'base64')));
    const text = (await extractText(doc, { mergePages: true })).text.normalize('NFC');
    expect(text).toContain('HÓA ĐƠN');
    expect(text).toContain(inv.BuyerFullName);
    expect(text).toContain(inv.TotalAmountInWords);
  });

  it('All is a zip with the XML and the PDF', async () => {
    const id = sb.catalogue.list('withCode')[0]!;
    const [item] = await download(sb, [id], 'invoiceWithCode=true&downloadDataType=All');
    const files = unzipSync(new Uint8Array(Buffer.from(item!.data!, 'base64')));
    expect(Object.keys(files).sort()).toEqual([`${id}.pdf`, `${id}.xml`]);
    expect(Buffer.from(files[`${id}.pdf`]!).equals(Buffer.from(await sb.catalogue.expected(id, 'Pdf')))).toBe(true);
  });

  it('per-item errors: wrong flags → InvoiceNotExist, malformed → InvalidTransactionID, deleted → InvoiceDeleted', async () => {
    const withCode = sb.catalogue.list('withCode')[0]!;
    const calc = sb.catalogue.list('cashRegister')[0]!;
    const deleted = ['withCode', 'withoutCode', 'cashRegister']
      .flatMap((k) => sb.catalogue.deletedIds(k as 'withCode'))
      .find((id) => sb.catalogue.kindOf(id) === 'withCode');
    const ids: unknown[] = [withCode, calc, 'ZZZZZZZZZZ', 'bad id!', 42, ...(deleted ? [deleted] : [])];
    const items = await download(sb, ids, 'invoiceWithCode=true&downloadDataType=Xml');
    expect(items.map((i) => i.ErrorCode)).toEqual([
      '',
      'InvoiceNotExist',
      'InvoiceNotExist',
      'InvalidTransactionID',
      'InvalidTransactionID',
      ...(deleted ? ['InvoiceDeleted'] : []),
    ]);
    expect(items[1]!.data).toBeNull();
    const asCalc = await download(sb, [calc, withCode], 'invoiceWithCode=true&invoiceCalcu=true&downloadDataType=Xml');
    expect(asCalc.map((i) => i.ErrorCode)).toEqual(['', 'InvoiceNotExist']);
    const noFlags = await download(sb, [withCode], 'downloadDataType=Xml');
    expect(noFlags[0]!.ErrorCode).toBe('InvoiceNotExist');
  });

  it('50 IDs pass, 51 give InvoiceQuantityTooLarge (or plain HTTP 400 with the quirk)', async () => {
    const ids = sb.catalogue.list('withCode').slice(0, 51);
    expect(ids).toHaveLength(51);
    expect(await download(sb, ids.slice(0, 50), 'invoiceWithCode=true&downloadDataType=Xml')).toHaveLength(50);
    const over = await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true', body: ids });
    expect(over.status).toBe(200);
    expect(over.env).toMatchObject({ success: false, errorCode: 'InvoiceQuantityTooLarge' });
    sb.setQuirks({ tooManyIds: 'http400' });
    const plain = await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true', body: ids });
    expect(plain.status).toBe(400);
    expect(plain.res.headers.get('content-type')).toContain('text/plain');
    sb.setQuirks({ maxDownloadIds: 10 });
    expect((await call(sb, 'POST', 'Download', { body: ids.slice(0, 11) })).status).toBe(400);
  });

  it('rejects a non-array body and unknown types', async () => {
    expect((await call(sb, 'POST', 'Download', { body: { ids: [] } })).status).toBe(400);
    expect((await call(sb, 'POST', 'Download', { query: 'downloadDataType=Docx', body: [] })).env.errorCode).toBe('InvalidDownloadDataType');
    const raw = await fetch(`${sb.baseUrl}/Download`, { method: 'POST', headers: { Authorization: `Bearer ${sb.devToken}` }, body: '[not json' });
    expect(raw.status).toBe(400);
  });
});

describe('sendemail', () => {
  const entry = (id: string, email = 'khach.hang@example.vn') => ({
    TransactionID: id,
    ReceiverName: 'Nguyễn Văn An',
    ReceiverEmail: email,
    CCEmail: null,
    BCCEmail: null,
    ReplyEmail: 'ketoan@shop.vn',
  });
  const send = async (body: unknown) => {
    const r = await call(sb, 'POST', 'sendemail', { body });
    return { ...r, items: unwrap(r.env.data) as { TransactionID: string; RefID: string; RefDetailID: string; SendEmailStatus: number; ErrorCode: string }[] };
  };

  it('answers per item with 3/4, records the mail, data is a JSON string', async () => {
    const ids = sb.catalogue.list('withoutCode').slice(0, 6);
    const r = await send({ SendEmailDatas: ids.map((id) => entry(id, 'a@x.vn; b@y.vn')), IsInvoiceCode: false, IsInvoiceCalculatingMachine: false });
    expect(typeof r.env.data).toBe('string');
    expect(r.env.success).toBe(true);
    expect(r.items.map((i) => i.SendEmailStatus)).toEqual(ids.map((id) => sb.catalogue.expectedEmailStatus(id)));
    expect(r.items.map((i) => i.SendEmailStatus)).toEqual(ids.map((id) => (/\d$/.test(id) ? 4 : 3)));
    expect(r.items.every((i) => i.ErrorCode === '' && i.RefDetailID.length === 36)).toBe(true);
    expect(r.items[0]!.RefID).toBe(sb.catalogue.get(ids[0]!)!.RefID);
    const mails = sb.sentEmails();
    expect(mails).toHaveLength(6);
    expect(mails[0]).toMatchObject({
      TransactionID: ids[0],
      to: ['a@x.vn', 'b@y.vn'],
      replyTo: 'ketoan@shop.vn',
      kind: 'withoutCode',
      receiverName: 'Nguyễn Văn An',
    });
    const admin = (await (await fetch(`${sb.origin}/__sandbox/emails`)).json()) as unknown[];
    expect(admin).toHaveLength(6);
  });

  it('bad addresses → 2, unknown or wrong-kind ids → InvoiceNotExist; nothing recorded for them', async () => {
    const withCode = sb.catalogue.list('withCode')[0]!;
    const calc = sb.catalogue.list('cashRegister')[0]!;
    const r = await send({
      SendEmailDatas: [
        entry(withCode, 'not-an-address'),
        entry(withCode, 'a@x.vn,b@y.vn'),
        entry(withCode, ''),
        entry(calc),
        entry('NOSUCHID99'),
        { ...entry(withCode), CCEmail: 'cc@@x' },
      ],
      IsInvoiceCode: true,
    });
    expect(r.items.map((i) => [i.SendEmailStatus, i.ErrorCode])).toEqual([
      [2, 'InvalidEmail'],
      [2, 'InvalidEmail'],
      [2, 'RequireError_ReceiverEmail'],
      [0, 'InvoiceNotExist'],
      [0, 'InvoiceNotExist'],
      [2, 'InvalidEmail'],
    ]);
    expect(sb.sentEmails()).toEqual([]);
    const asCalc = await send({ SendEmailDatas: [entry(calc)], IsInvoiceCode: true, IsInvoiceCalculatingMachine: true });
    expect(asCalc.items[0]!.ErrorCode).toBe('');
    expect(sb.sentEmails()[0]!.bcc).toEqual([]);
  });

  it('emailStatus and emailEnvelopeFailure quirks', async () => {
    const ids = sb.catalogue.list('withCode').slice(0, 4);
    sb.setQuirks({ emailStatus: 4 });
    expect((await send({ SendEmailDatas: ids.map((id) => entry(id)), IsInvoiceCode: true })).items.every((i) => i.SendEmailStatus === 4)).toBe(true);
    sb.setQuirks({ emailStatus: 3, emailEnvelopeFailure: true });
    const r = await send({ SendEmailDatas: ids.map((id) => entry(id)), IsInvoiceCode: true });
    expect(r.env).toMatchObject({ success: false, errorCode: null });
    expect(r.items.every((i) => i.SendEmailStatus === 3 && i.ErrorCode === '')).toBe(true);
    expect(sb.catalogue.expectedEmailStatus(ids[0]!)).toBe(3);
  });

  it('an empty list is a call-level error', async () => {
    expect((await send({ SendEmailDatas: [], IsInvoiceCode: true })).env.errorCode).toBe('RequireError_SendEmailDatas');
  });
});

describe('preview (unpublishview)', () => {
  it('renders the posted invoice at a link that expires after the TTL', async () => {
    const inv = sampleInvoiceData({ BuyerFullName: 'Lê Thị Hồng Nhung' });
    const r = await call(sb, 'POST', 'unpublishview', { body: inv });
    expect(r.env).toMatchObject({ success: true, errorCode: null, descriptionErrorCode: null, errors: [] });
    const link = r.env.data as string;
    expect(link.startsWith(`${sb.origin}/preview/`)).toBe(true);
    const res = await fetch(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const doc = await getDocumentProxy(new Uint8Array(await res.arrayBuffer()));
    const text = (await extractText(doc, { mergePages: true })).text.normalize('NFC');
    expect(text).toContain('Lê Thị Hồng Nhung');
    expect(text).toContain('1.129.200');
    expect(text).toContain('Công ty Cổ phần Thực phẩm Sông Hồng');
    clock += 29_000;
    expect((await fetch(link)).status).toBe(200);
    clock += 1_001;
    expect((await fetch(link)).status).toBe(410);
    expect((await fetch(`${sb.origin}/preview/nothing.pdf`)).status).toBe(404);
  });

  it('reports RequireError_{Field} and InvoiceDetail_{Field}', async () => {
    const bad = {
      ...sampleInvoiceData(),
      InvDate: '',
      OriginalInvoiceDetail: [{ ItemType: 1, LineNumber: 1, ItemName: 'Hàng', Quantity: 1, UnitPrice: 1, AmountOC: 1, VATRateName: '12%' }],
    };
    const r = await call(sb, 'POST', 'unpublishview', { body: bad });
    expect(r.env).toMatchObject({ success: false, errorCode: 'RequireError_InvDate', data: null });
    expect(r.env.errors).toEqual(['RequireError_InvDate', 'InvoiceDetail_VATRateName']);
  });
});

describe('plumbing', () => {
  it('paths are case-insensitive, wrong methods get 405, unknown paths 404', async () => {
    expect((await call(sb, 'GET', 'Templates')).env.success).toBe(true);
    expect((await call(sb, 'POST', 'download', { body: [] })).env.success).toBe(true);
    expect((await call(sb, 'GET', 'Download')).status).toBe(405);
    expect((await call(sb, 'GET', 'nothing')).status).toBe(404);
  });

  it('logs method, path, query, headers and body size', async () => {
    const body = [sb.catalogue.list('withCode')[0]];
    await call(sb, 'POST', 'Download', { query: 'invoiceWithCode=true&downloadDataType=Xml', body });
    const [entry] = sb.requests({ op: 'download' });
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/api/integration/invoice/Download',
      query: { invoiceWithCode: 'true', downloadDataType: 'Xml' },
      bodySize: JSON.stringify(body).length,
      auth: 'dev',
      status: 200,
    });
    expect(entry!.headers['content-type']).toBe('application/json');
  });

  it('admin endpoints: state, quirks, faults, requests, invoices, token, reset', async () => {
    const state = (await (await fetch(`${sb.origin}/__sandbox/state`)).json()) as {
      baseUrl: string;
      devToken: string;
      invoices: Record<string, { count: number }>;
    };
    expect(state.baseUrl).toBe(sb.baseUrl);
    expect(state.invoices.withCode!.count).toBe(sb.catalogue.list('withCode').length);
    const q = await fetch(`${sb.origin}/__sandbox/quirks`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ casing: 'pascal' }) });
    expect(((await q.json()) as { casing: string }).casing).toBe('pascal');
    expect(sb.quirks().casing).toBe('pascal');
    expect((await fetch(`${sb.origin}/__sandbox/quirks`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ casing: 'snake' }) })).status).toBe(
      400,
    );
    const f = await fetch(`${sb.origin}/__sandbox/faults`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ spec: 'templates:503=1' }) });
    expect(((await f.json()) as { faultSpec: string }).faultSpec).toBe('templates:503=1');
    expect((await call(sb, 'GET', 'templates')).status).toBe(503);
    await fetch(`${sb.origin}/__sandbox/faults`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ templates: { '429': 1 } }) });
    expect((await call(sb, 'GET', 'templates')).status).toBe(429);
    const reqs = (await (await fetch(`${sb.origin}/__sandbox/requests?op=templates`)).json()) as { status: number }[];
    expect(reqs.map((r) => r.status)).toEqual([503, 429]);
    const inv = (await (await fetch(`${sb.origin}/__sandbox/invoices?kind=cashRegister&limit=5`)).json()) as { ids: string[]; flags: unknown };
    expect(inv.ids).toEqual(sb.catalogue.list('cashRegister').slice(0, 5));
    expect(inv.flags).toEqual({ invoiceWithCode: true, invoiceCalcu: true });
    const tok = (await (
      await fetch(`${sb.origin}/__sandbox/token`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ ttlMs: -5 }) })
    ).json()) as { token: string };
    expect((await call(sb, 'GET', 'templates', { token: tok.token })).env).toBeDefined();
    await fetch(`${sb.origin}/__sandbox/reset`, { method: 'POST', headers: JSON_HEADERS });
    expect(sb.quirks().casing).toBe('camel');
    expect(sb.faults()).toEqual({});
    expect(sb.requests()).toEqual([]);
  });

  it('admin POSTs need a JSON content type; a foreign Host header is refused (DNS rebinding)', async () => {
    const plain = await fetch(`${sb.origin}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ spec: 'templates:503=1' }) });
    expect(plain.status).toBe(415);
    expect(sb.faults()).toEqual({});
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${sb.baseUrl}/templates`, { headers: { Host: 'evil.example:80', Authorization: `Bearer ${sb.devToken}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    const local = await fetch(`http://localhost:${new URL(sb.origin).port}/api/integration/invoice/templates`, {
      headers: { Authorization: `Bearer ${sb.devToken}` },
    }).catch(() => null);
    if (local) expect(local.status).toBe(200);
  });

  it('admin warm pre-renders into the cache', async () => {
    const before = sb.stats().cachedItems;
    const res = await fetch(`${sb.origin}/__sandbox/warm`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ kind: 'cashRegister', limit: 3, type: 'pdf' }),
    });
    expect(await res.json()).toEqual({ warmed: 3, type: 'Pdf' });
    expect(sb.stats().cachedItems).toBeGreaterThanOrEqual(before + 3);
    const hits = sb.stats().cacheHits;
    await download(sb, sb.catalogue.list('cashRegister').slice(0, 3) as string[], 'invoiceCalcu=true');
    expect(sb.stats().cacheHits).toBe(hits + 3);
  });

  it('stop() makes it unreachable, start() brings it back on the same port', async () => {
    const origin = sb.origin;
    await sb.stop();
    expect(sb.listening).toBe(false);
    await expect(fetch(`${sb.baseUrl}/templates`)).rejects.toThrow();
    await sb.start();
    expect(sb.origin).toBe(origin);
    expect((await call(sb, 'GET', 'templates')).env.success).toBe(true);
  });
});

describe('PDF size', () => {
  it('pdfPadKb (or $EINVOICE_SANDBOX_PDF_KB) grows issued PDFs to about that size', async () => {
    const a = await startSandbox({ invoiceCount: 10, pdfPadKb: 80 });
    process.env.EINVOICE_SANDBOX_PDF_KB = '120';
    const b = await startSandbox({ invoiceCount: 10 });
    delete process.env.EINVOICE_SANDBOX_PDF_KB;
    try {
      for (const [s, kb] of [
        [a, 80],
        [b, 120],
      ] as const) {
        const [item] = await download(s, [s.catalogue.list('withCode')[0]], 'invoiceWithCode=true');
        const size = Buffer.from(item!.data!, 'base64').length;
        expect(Math.abs(size - kb * 1024)).toBeLessThan(600);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('determinism', () => {
  it('same seed → same ids and same bytes; another seed → different', async () => {
    const a = await startSandbox({ invoiceCount: 50, seed: 42 });
    const b = await startSandbox({ invoiceCount: 50, seed: 42 });
    const c = await startSandbox({ invoiceCount: 50, seed: 43 });
    try {
      expect(a.catalogue.list('withCode')).toEqual(b.catalogue.list('withCode'));
      expect(c.catalogue.list('withCode')).not.toEqual(a.catalogue.list('withCode'));
      const ids = a.catalogue.list('withCode').slice(0, 3);
      for (const type of ['Pdf', 'All']) {
        const ra = await call(a, 'POST', 'Download', { query: `invoiceWithCode=true&downloadDataType=${type}`, body: ids });
        const rb = await call(b, 'POST', 'Download', { query: `invoiceWithCode=true&downloadDataType=${type}`, body: ids });
        expect(ra.text).toBe(rb.text);
      }
      const ta = await call(a, 'GET', 'templates');
      expect(ta.text).toBe((await call(b, 'GET', 'templates')).text);
      expect(ta.text).not.toBe((await call(c, 'GET', 'templates')).text);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
