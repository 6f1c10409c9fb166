import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { unzipSync } from 'fflate';
import { ApiClient, type ApiClientOptions } from '../../../main/services/api';
import { startSandbox, SANDBOX_CREDENTIALS, SANDBOX_INACTIVE_APPID, type Sandbox } from '../../../main/sandbox';
import { sampleInvoiceData } from '../../support/sandbox-invoice';
import { failure } from '../../support/api-failure';
import type { InvoiceData, SendEmailData } from '../../../common/model';

let sb: Sandbox;
let agent: Agent;
const clients: ApiClient[] = [];

function client(extra: Partial<ApiClientOptions> = {}): ApiClient {
  const c = new ApiClient({
    baseUrl: sb.baseUrl,
    tokenUrl: sb.tokenUrl,
    token: sb.devToken,
    dispatcher: agent,
    timeoutMs: 5_000,
    retry: { retries: 3, baseDelayMs: 10, maxDelayMs: 50, maxTotalMs: 10_000 },
    ...extra,
  });
  clients.push(c);
  return c;
}

const utf8 = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const isPdf = (b: Uint8Array) => Buffer.from(b.subarray(0, 5)).toString('latin1') === '%PDF-';

function emailEntry(id: string, extra: Partial<SendEmailData> = {}): SendEmailData {
  return {
    TransactionID: id,
    ReceiverName: 'Nguyễn Văn An',
    ReceiverEmail: 'an.nguyen@example.vn',
    CCEmail: null,
    BCCEmail: null,
    ReplyEmail: 'shop@example.vn',
    ...extra,
  };
}

beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 7, invoiceCount: 600 });
  agent = new Agent({ keepAliveTimeout: 4_000, connections: 8 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await agent.close();
  await sb.close();
});
beforeEach(() => sb.reset());
afterEach(async () => {
  if (!sb.listening) await sb.start();
});

describe('templates', () => {
  it('GET /templates with the documented query and headers; list as the sandbox holds it, unknown fields kept', async () => {
    const list = await client().templates();
    const year = new Date(Date.now() + 7 * 3600_000).getUTCFullYear();
    const expected = sb.catalogue
      .templates()
      .filter((t) => t.year === year && !t.withCode && !t.ticket)
      .map((t) => t.template);
    expect(list.length).toBeGreaterThan(0);
    expect(list).toEqual(expected);
    const [req] = sb.requests({ op: 'templates' });
    expect(req).toMatchObject({
      method: 'GET',
      path: '/api/integration/invoice/templates',
      query: { invoiceWithCode: 'false', ticket: 'false' },
      auth: 'dev',
      status: 200,
    });
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.query).not.toHaveProperty('year');
    // extra sample fields (not in the documented list) pass through
    expect(Object.keys(list[0]!)).toEqual(expect.arrayContaining(['IPTemplateID', 'InvSeries', 'TemplateName', 'Inactive']));
  });

  it('with code, tickets, an explicit year', async () => {
    const year = new Date().getUTCFullYear() - 1;
    const list = await client().templates({ withCode: true, ticket: true, year });
    const expected = sb.catalogue
      .templates()
      .filter((t) => t.year === year && t.withCode && t.ticket)
      .map((t) => t.template);
    expect(list).toEqual(expected);
    expect(sb.requests({ op: 'templates' })[0]!.query).toEqual({ invoiceWithCode: 'true', ticket: 'true', year: String(year) });
  });
});

describe('preview', () => {
  it('POST /unpublishview returns a link; fetchBytes gets the PDF at once', async () => {
    const c = client();
    const { link } = await c.preview(sampleInvoiceData() as unknown as InvoiceData);
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/preview\//);
    const { bytes, contentType } = await c.fetchBytes(link);
    expect(isPdf(bytes)).toBe(true);
    expect(contentType).toContain('application/pdf');
    expect(sb.requests({ op: 'preview' })[0]).toMatchObject({ method: 'POST', path: '/api/integration/invoice/unpublishview', auth: 'dev' });
  });

  it('a rejected invoice carries the service code and a plain message', async () => {
    const bad = { ...sampleInvoiceData(), BuyerTaxCode: '0101234567', BuyerLegalName: '', BuyerAddress: '' };
    const e = await failure(client().preview(bad as unknown as InvoiceData));
    expect(e.kind).toBe('rejected');
    expect(e.serviceCode).toMatch(/^RequireError_Buyer/);
    expect(e.message).toContain('required field');
    expect(e.messageVi).toContain('Thiếu trường bắt buộc');
    expect(e.serviceErrors.length).toBeGreaterThan(0);
    expect(sb.requests({ op: 'preview' })).toHaveLength(1);
  });

  it('an expired link is reported, not retried forever', async () => {
    const short = await startSandbox({ port: 0, seed: 7, invoiceCount: 50, previewLinkTtlMs: 30 });
    try {
      const c = client({ baseUrl: short.baseUrl, tokenUrl: short.tokenUrl });
      const { link } = await c.preview(sampleInvoiceData() as unknown as InvoiceData);
      await new Promise((r) => setTimeout(r, 80));
      const e = await failure(c.fetchBytes(link));
      expect(e).toMatchObject({ kind: 'rejected', serviceCode: 'LinkExpired', httpStatus: 410 });
    } finally {
      await short.close();
    }
  });
});

describe('download', () => {
  it('Pdf: POST /Download with the query and a JSON array; bytes equal the issued PDFs; per-item codes', async () => {
    const ids = sb.catalogue.list('withoutCode').slice(0, 5);
    const deleted = sb.catalogue.deletedIds('withoutCode')[0];
    const wanted = [...ids, 'NO-SUCH-ID', ...(deleted ? [deleted] : []), 'bad id!'];
    const r = await client().download(wanted, { type: 'Pdf' });
    if (r.kind !== 'items') throw new Error('items expected');
    expect(r.items.map((i) => i.transactionId)).toEqual(wanted);
    for (const [n, id] of ids.entries()) {
      const item = r.items[n]!;
      expect(item.errorCode).toBeNull();
      expect(Buffer.from(item.content as Uint8Array).equals(Buffer.from(await sb.catalogue.expected(id, 'Pdf')))).toBe(true);
    }
    expect(r.items[ids.length]).toMatchObject({ errorCode: 'InvoiceNotExist', content: null });
    if (deleted) expect(r.items[ids.length + 1]).toMatchObject({ errorCode: 'InvoiceDeleted' });
    expect(r.items.at(-1)).toMatchObject({ errorCode: 'InvalidTransactionID' });
    const req = sb.requests({ op: 'download' })[0]!;
    expect(req).toMatchObject({
      method: 'POST',
      path: '/api/integration/invoice/Download',
      query: { invoiceWithCode: 'false', invoiceCalcu: 'false', downloadDataType: 'Pdf' },
    });
    expect(req.headers['content-type']).toBe('application/json');
  });

  it('Xml and Html arrive as text, All as a zip of XML + PDF', async () => {
    const [id] = sb.catalogue.list('withCode');
    const c = client();
    const xml = await c.download([id!], { type: 'Xml', kind: 'withCode' });
    const html = await c.download([id!], { type: 'Html', kind: 'withCode' });
    const all = await c.download([id!], { type: 'All', kind: 'withCode' });
    if (xml.kind !== 'items' || html.kind !== 'items' || all.kind !== 'items') throw new Error('items expected');
    expect(xml.items[0]!.content).toBe(utf8(await sb.catalogue.expected(id!, 'Xml')));
    expect(xml.items[0]!.content as string).toContain('<');
    expect(html.items[0]!.content).toBe(utf8(await sb.catalogue.expected(id!, 'Html')));
    const zip = all.items[0]!.content as Uint8Array;
    expect(Buffer.from(zip).equals(Buffer.from(await sb.catalogue.expected(id!, 'All')))).toBe(true);
    const names = Object.keys(unzipSync(zip));
    expect(names.some((n) => n.toLowerCase().endsWith('.xml'))).toBe(true);
    expect(names.some((n) => n.toLowerCase().endsWith('.pdf'))).toBe(true);
    expect(sb.requests({ op: 'download' }).map((r) => r.query.downloadDataType)).toEqual(['Xml', 'Html', 'All']);
    expect(sb.requests({ op: 'download' })[0]!.query.invoiceWithCode).toBe('true');
  });

  it('cash-register invoices use invoiceCalcu=true; the wrong kind is InvoiceNotExist', async () => {
    const [calc] = sb.catalogue.list('cashRegister');
    const c = client();
    const ok = await c.download([calc!], { type: 'Xml', kind: 'cashRegister' });
    const wrong = await c.download([calc!], { type: 'Xml' });
    expect(ok).toMatchObject({ kind: 'items', items: [{ errorCode: null }] });
    expect(wrong).toMatchObject({ kind: 'items', items: [{ errorCode: 'InvoiceNotExist' }] });
    expect(sb.requests({ op: 'download' })[0]!.query.invoiceCalcu).toBe('true');
  });

  it('more than the batch limit is refused locally, nothing is sent', async () => {
    const ids = sb.catalogue.list('withoutCode').slice(0, 51);
    const e = await failure(client().download(ids));
    expect(e).toMatchObject({ kind: 'rejected', serviceCode: 'InvoiceQuantityTooLarge' });
    expect(sb.requests({ op: 'download' })).toHaveLength(0);
    const e2 = await failure(client({ maxBatch: 10 }).download(ids.slice(0, 11)));
    expect(e2.serviceCode).toBe('InvoiceQuantityTooLarge');
  });
});

describe('sendemail', () => {
  it('POST /sendemail; per-item status 3/4; the sandbox records what it would send', async () => {
    const ids = sb.catalogue.list('withCode').slice(0, 3);
    const out = await client().sendEmail({
      SendEmailDatas: ids.map((id, i) => emailEntry(id, i === 0 ? { ReceiverEmail: 'a@example.vn, b@example.vn', BCCEmail: 'audit@example.vn' } : {})),
      IsInvoiceCode: true,
      IsInvoiceCalculatingMachine: false,
    });
    expect(out.envelopeSuccess).toBe(true);
    expect(out.items.map((i) => [i.transactionId, i.status, i.ok])).toEqual(ids.map((id) => [id, sb.catalogue.expectedEmailStatus(id), true]));
    expect(out.items[0]!.refDetailId).toMatch(/^[0-9a-f-]{36}$/);
    const sent = sb.sentEmails();
    expect(sent).toHaveLength(3);
    expect(sent[0]!.to).toEqual(['a@example.vn', 'b@example.vn']);
    expect(sent[0]!.bcc).toEqual(['audit@example.vn']);
    expect(sent[1]!.bcc).toEqual([]);
    expect(sb.requests({ op: 'sendemail' })[0]).toMatchObject({ method: 'POST', path: '/api/integration/invoice/sendemail', auth: 'dev' });
  });

  it('a bad address is status 2 for that item only; the wrong kind is InvoiceNotExist', async () => {
    const [a, b] = sb.catalogue.list('withoutCode');
    const out = await client().sendEmail({
      SendEmailDatas: [emailEntry(a!), emailEntry(b!, { ReceiverEmail: 'not-an-address' }), emailEntry(sb.catalogue.list('withCode')[0]!)],
      IsInvoiceCode: false,
      IsInvoiceCalculatingMachine: false,
    });
    expect(out.items.map((i) => [i.status, i.errorCode, i.ok])).toEqual([
      [sb.catalogue.expectedEmailStatus(a!), null, true],
      [2, 'InvalidEmail', false],
      [0, 'InvoiceNotExist', false],
    ]);
  });
});

describe('token operation', () => {
  it('POST {appid, taxcode, username, password} with the CompanyTaxCode header; the token works', async () => {
    const c = client({ companyTaxCode: SANDBOX_CREDENTIALS.taxcode });
    const { token, expiresAt } = await c.requestToken({ ...SANDBOX_CREDENTIALS });
    expect(token.split('.')).toHaveLength(3);
    const days = (Date.parse(expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThan(14.1);
    const req = sb.requests({ op: 'token' })[0]!;
    expect(req).toMatchObject({ method: 'POST', path: '/api/integration/auth/token' });
    expect(req.headers.companytaxcode).toBe(SANDBOX_CREDENTIALS.taxcode);
    expect(req.headers).not.toHaveProperty('authorization');
    const list = await client({ token: () => token }).templates();
    expect(list.length).toBeGreaterThan(0);
    expect(sb.requests({ op: 'templates' })[0]!.auth).toBe('issued');
  });

  it('wrong password, unknown and inactive AppID are auth errors with plain messages', async () => {
    const c = client();
    expect(await failure(c.requestToken({ ...SANDBOX_CREDENTIALS, password: 'nope' }))).toMatchObject({ kind: 'auth', serviceCode: 'UnAuthorize' });
    expect(await failure(c.requestToken({ ...SANDBOX_CREDENTIALS, appid: 'x' }))).toMatchObject({ kind: 'auth', serviceCode: 'InvalidAppID' });
    const inactive = await failure(c.requestToken({ ...SANDBOX_CREDENTIALS, appid: SANDBOX_INACTIVE_APPID }));
    expect(inactive).toMatchObject({ kind: 'auth', serviceCode: 'InActiveAppID' });
    expect(inactive.messageVi).toContain('ngừng kích hoạt');
  });
});

describe('authentication failures', () => {
  it('a wrong token → auth InvalidTokenCode, not retried', async () => {
    const e = await failure(client({ token: 'wrong-token' }).templates());
    expect(e).toMatchObject({ kind: 'auth', serviceCode: 'InvalidTokenCode', attempts: 1 });
    expect(sb.requests({ op: 'templates' })).toHaveLength(1);
  });

  it('an expired token → auth TokenExpiredCode', async () => {
    const e = await failure(client({ token: sb.issueToken({ ttlMs: -1000 }) }).download([sb.catalogue.list('withoutCode')[0]!]));
    expect(e).toMatchObject({ kind: 'auth', serviceCode: 'TokenExpiredCode' });
    expect(e.message).toContain('expired');
  });

  it('HTTP 401 form (quirk authHttp401)', async () => {
    sb.setQuirks({ authHttp401: true });
    const e = await failure(client({ token: 'wrong' }).sendEmail({ SendEmailDatas: [emailEntry('X1')], IsInvoiceCode: true }));
    expect(e).toMatchObject({ kind: 'auth', httpStatus: 401, serviceCode: 'InvalidTokenCode' });
  });

  it('no token configured is a config error before anything is sent', async () => {
    const e = await failure(client({ token: () => undefined }).templates());
    expect(e.kind).toBe('config');
    expect(sb.requests()).toHaveLength(0);
  });
});

describe('quirks', () => {
  it('Pascal-case envelope + data as a plain JSON list + Data per item', async () => {
    sb.setQuirks({ casing: 'pascal', dataEncoding: 'object', itemDataField: 'Data' });
    const c = client();
    expect((await c.templates()).length).toBeGreaterThan(0);
    const ids = sb.catalogue.list('withoutCode').slice(0, 2);
    const r = await c.download(ids);
    expect(r.kind === 'items' && r.items.every((i) => i.content instanceof Uint8Array && isPdf(i.content))).toBe(true);
  });

  it('JSON-in-string twice nested, mixed data/Data per item', async () => {
    sb.setQuirks({ dataEncoding: 'double', itemDataField: 'mixed' });
    const ids = sb.catalogue.list('withoutCode').slice(0, 4);
    const r = await client().download(ids, { type: 'Html' });
    if (r.kind !== 'items') throw new Error('items expected');
    expect(r.items.map((i) => typeof i.content)).toEqual(['string', 'string', 'string', 'string']);
    for (const [n, id] of ids.entries()) expect(r.items[n]!.content).toBe(utf8(await sb.catalogue.expected(id, 'Html')));
    const out = await client().sendEmail({ SendEmailDatas: [emailEntry(ids[0]!)], IsInvoiceCode: false });
    expect(out.items[0]!.ok).toBe(true);
  });

  it('sendemail success:false with good items: items are judged on their own', async () => {
    sb.setQuirks({ emailEnvelopeFailure: true, emailStatus: 3 });
    const [id] = sb.catalogue.list('withoutCode');
    const out = await client().sendEmail({ SendEmailDatas: [emailEntry(id!)], IsInvoiceCode: false });
    expect(out.envelopeSuccess).toBe(false);
    expect(out.callErrorCode).toBeNull();
    expect(out.items[0]).toMatchObject({ status: 3, ok: true, errorCode: null });
  });

  it('Pdf as one viewer link: the link form, and fetchBytes gets the PDF', async () => {
    sb.setQuirks({ downloadPdfAsLink: true });
    const c = client();
    const r = await c.download(sb.catalogue.list('withoutCode').slice(0, 3));
    if (r.kind !== 'link') throw new Error('link form expected');
    expect(r.url).toMatch(/\/viewer\//);
    expect(isPdf((await c.fetchBytes(r.url)).bytes)).toBe(true);
  });

  it('the 50-ID limit as an envelope error and as a plain HTTP 400', async () => {
    sb.setQuirks({ maxDownloadIds: 5 });
    const ids = sb.catalogue.list('withoutCode').slice(0, 6);
    const e = await failure(client().download(ids));
    expect(e).toMatchObject({ kind: 'rejected', serviceCode: 'InvoiceQuantityTooLarge' });
    expect(e.messageVi).toContain('tối đa 50');
    sb.setQuirks({ tooManyIds: 'http400' });
    const e2 = await failure(client().download(ids));
    expect(e2).toMatchObject({ kind: 'rejected', httpStatus: 400 });
    expect(sb.requests({ op: 'download' })).toHaveLength(2);
  });

  it('CompanyTaxCode header required by the deployment: sent on every operation when configured', async () => {
    sb.setQuirks({ requireCompanyTaxCode: true });
    const e = await failure(client().templates());
    expect(e).toMatchObject({ kind: 'rejected', serviceCode: 'InvalidTaxCode' });
    const c = client({ companyTaxCode: SANDBOX_CREDENTIALS.taxcode });
    expect((await c.templates()).length).toBeGreaterThan(0);
    const r = await c.download(sb.catalogue.list('withoutCode').slice(0, 1), { type: 'Xml' });
    expect(r).toMatchObject({ kind: 'items', items: [{ errorCode: null }] });
    expect(sb.requests({ op: 'download' })[0]!.headers.companytaxcode).toBe(SANDBOX_CREDENTIALS.taxcode);
  });

  it('a call-level licence error on every operation is rejected with a plain message', async () => {
    sb.setQuirks({ callError: 'LicenseInfo_OutOfInvoice' });
    const c = client();
    const e = await failure(c.templates());
    expect(e).toMatchObject({ kind: 'rejected', serviceCode: 'LicenseInfo_OutOfInvoice', attempts: 1 });
    expect(e.messageVi).toContain('hết số lượng hóa đơn');
    const e2 = await failure(c.sendEmail({ SendEmailDatas: [emailEntry(sb.catalogue.list('withoutCode')[0]!)], IsInvoiceCode: false }));
    expect(e2).toMatchObject({ kind: 'rejected', serviceCode: 'LicenseInfo_OutOfInvoice' });
    expect((await failure(c.download(sb.catalogue.list('withoutCode').slice(0, 2)))).serviceCode).toBe('LicenseInfo_OutOfInvoice');
    expect((await failure(c.preview(sampleInvoiceData() as unknown as InvoiceData))).serviceCode).toBe('LicenseInfo_OutOfInvoice');
  });

  it('maintenance: HTTP 503 HTML page → unavailable (maintenance), retried then given up', async () => {
    sb.setQuirks({ maintenance: true });
    const e = await failure(client().templates());
    expect(e).toMatchObject({ kind: 'unavailable', httpStatus: 503, attempts: 4 });
    expect(e.message).toContain('maintenance');
    expect(e.messageVi).toContain('bảo trì');
    expect(sb.requests({ op: 'templates' })).toHaveLength(4);
  });
});

describe('faults on the idempotent operations: retried with backoff, bounded', () => {
  it('429 + Retry-After is honoured, then succeeds', async () => {
    sb.setFaults('templates:429=1:retry-after=1:limit=1');
    const started = Date.now();
    const list = await client().templates();
    expect(list.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(sb.requests({ op: 'templates' }).map((r) => r.status)).toEqual([429, 200]);
  });

  it('429 with a Retry-After beyond the time budget → rate_limited with retryAfterMs', async () => {
    sb.setFaults('templates:429=1:retry-after=30');
    const e = await failure(client({ retry: { retries: 3, baseDelayMs: 10, maxTotalMs: 2_000 } }).templates());
    expect(e).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000, httpStatus: 429 });
    expect(e.message).toContain('30 s');
    expect(sb.requests({ op: 'templates' })).toHaveLength(1);
  });

  it.each([
    ['500', 'unavailable'],
    ['503', 'unavailable'],
    ['error', 'unavailable'],
    ['reset', 'network'],
    ['malformed', 'malformed'],
    ['wrongtypes', 'malformed'],
  ])('download %s: transient → recovers after one retry; permanent → %s after 4 attempts', async (fault, kind) => {
    const ids = sb.catalogue.list('withoutCode').slice(0, 2);
    sb.setFaults(`download:${fault}=1:limit=1`);
    const ok = await client().download(ids, { type: 'Xml' });
    expect(ok.kind).toBe('items');
    expect(sb.requests({ op: 'download' })).toHaveLength(2);
    sb.reset();
    sb.setFaults(`download:${fault}=1`);
    const e = await failure(client().download(ids, { type: 'Xml' }));
    expect(e.kind).toBe(kind);
    expect(e.attempts).toBe(4);
    expect(sb.requests({ op: 'download' })).toHaveLength(4);
  });

  it('truncated body → network/malformed, retried', async () => {
    sb.setFaults('preview:truncated=1');
    const e = await failure(client().preview(sampleInvoiceData() as unknown as InvoiceData));
    expect(['network', 'malformed']).toContain(e.kind);
    expect(sb.requests({ op: 'preview' })).toHaveLength(4);
    sb.setFaults('preview:truncated=1:limit=1');
    expect((await client().preview(sampleInvoiceData() as unknown as InvoiceData)).link).toMatch(/^http/);
  });

  it('empty data: Download is malformed, an empty template list is just empty', async () => {
    sb.setFaults('download:empty=1,templates:empty=1');
    expect((await failure(client({ retry: false }).download([sb.catalogue.list('withoutCode')[0]!]))).kind).toBe('malformed');
    expect(await client().templates()).toEqual([]);
  });

  it('hang → timeout per attempt, bounded', async () => {
    sb.setFaults('templates:hang=1');
    const started = Date.now();
    const e = await failure(client({ timeoutMs: 200, retry: { retries: 1, baseDelayMs: 10 } }).templates());
    expect(e).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('latency within the timeout is fine; beyond it is a timeout', async () => {
    sb.setFaults('templates:latency=150');
    const started = Date.now();
    await client().templates();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const e = await failure(client({ timeoutMs: 50, retry: false }).templates());
    expect(e.kind).toBe('timeout');
  });

  it('link faults: fetchBytes retries a 503 on the preview link', async () => {
    const c = client();
    const { link } = await c.preview(sampleInvoiceData() as unknown as InvoiceData);
    sb.setFaults('link:503=1:limit=2');
    expect(isPdf((await c.fetchBytes(link)).bytes)).toBe(true);
    expect(sb.requests({ op: 'link' }).map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('the retry count and the time budget are bounds', async () => {
    sb.setFaults('templates:503=1');
    // Jitter pinned to its top (200 ms waits): attempts at about 0, 200 and 400 ms, then the
    // 500 ms budget stops it; with free jitter (100–200 ms) a fifth attempt could fit.
    const e = await failure(client({ retry: { retries: 10, baseDelayMs: 200, maxDelayMs: 200, maxTotalMs: 500 }, random: () => 1 }).templates());
    expect(e.kind).toBe('unavailable');
    expect(sb.requests({ op: 'templates' }).length).toBeGreaterThanOrEqual(2);
    expect(sb.requests({ op: 'templates' }).length).toBeLessThanOrEqual(3);
    sb.reset();
    sb.setFaults('templates:503=1');
    await failure(client({ retry: false }).templates());
    expect(sb.requests({ op: 'templates' })).toHaveLength(1);
  });
});

describe('backoff schedule (injected sleep and jitter)', () => {
  it('exponential with jitter, capped; Retry-After replaces the backoff', async () => {
    const delays: number[] = [];
    const sleep = (ms: number) => {
      delays.push(ms);
      return Promise.resolve();
    };
    sb.setFaults('templates:503=1');
    await failure(client({ sleep, random: () => 0.5, retry: { retries: 4, baseDelayMs: 100, maxDelayMs: 300, maxTotalMs: 60_000 } }).templates());
    // min(max, base·2^(n-1)) · (0.5 + 0.5·random)
    expect(delays).toEqual([75, 150, 225, 225]);
    delays.length = 0;
    await failure(client({ sleep, random: () => 0, retry: { retries: 2, baseDelayMs: 100 } }).templates());
    expect(delays).toEqual([50, 100]);
    delays.length = 0;
    sb.reset();
    sb.setFaults('templates:429=1:retry-after=2:limit=2');
    await client({ sleep, random: () => 0.5 }).templates();
    expect(delays).toEqual([2000, 2000]);
  });
});

describe('sendemail is never silently re-sent', () => {
  const body = () => ({ SendEmailDatas: [emailEntry(sb.catalogue.list('withoutCode')[0]!)], IsInvoiceCode: false, IsInvoiceCalculatingMachine: false });

  it.each([
    ['reset', 1],
    ['malformed', 1],
    ['truncated', 1],
    ['500', 0],
  ])('%s after the request left → unknown_outcome, exactly one request', async (fault, recorded) => {
    sb.setFaults(`sendemail:${fault}=1`);
    const e = await failure(client().sendEmail(body()));
    expect(e.kind).toBe('unknown_outcome');
    expect(e.message).toContain('NOT sent again');
    expect(e.messageVi).toContain('KHÔNG tự gửi lại');
    expect(sb.requests({ op: 'sendemail' })).toHaveLength(1);
    // the sandbox did record (or not) the email: the client cannot know, hence "unknown"
    expect(sb.sentEmails()).toHaveLength(recorded);
  });

  it('a timeout while waiting → unknown_outcome, one request', async () => {
    sb.setFaults('sendemail:hang=1');
    const e = await failure(client({ timeoutMs: 200 }).sendEmail(body()));
    expect(e.kind).toBe('unknown_outcome');
    expect(sb.requests({ op: 'sendemail' })).toHaveLength(1);
  });

  it('429 is safe to report as such (nothing processed); a 503 page without the service envelope is unknown; never retried', async () => {
    sb.setFaults('sendemail:503=1');
    expect((await failure(client().sendEmail(body()))).kind).toBe('unknown_outcome');
    sb.setFaults('sendemail:429=1:retry-after=1');
    expect((await failure(client().sendEmail(body()))).kind).toBe('rate_limited');
    expect(sb.requests({ op: 'sendemail' })).toHaveLength(2);
    expect(sb.sentEmails()).toHaveLength(0);
  });

  it('connection refused before sending → offline (safe)', async () => {
    await sb.stop();
    // let the pooled keep-alive sockets see the close (a request written onto a socket the
    // server already closed is, correctly, an unknown outcome)
    await new Promise((r) => setTimeout(r, 50));
    const e = await failure(client().sendEmail(body()));
    expect(e.kind).toBe('offline');
    expect(e.message).toContain('Cannot reach');
    expect(e.attempts).toBe(1);
  });

  it('cancelled while waiting → unknown_outcome', async () => {
    sb.setFaults('sendemail:hang=1');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const e = await failure(client().sendEmail(body(), { signal: ac.signal }));
    expect(e.kind).toBe('unknown_outcome');
  });
});

describe('offline, cancellation, probe, logging', () => {
  it('service down → offline after bounded retries; back up → works', async () => {
    await sb.stop();
    const c = client();
    const e = await failure(c.templates());
    expect(e).toMatchObject({ kind: 'offline', attempts: 4 });
    expect(await c.probe()).toBe(false);
    await sb.start();
    expect((await c.templates()).length).toBeGreaterThan(0);
    expect(await c.probe()).toBe(true);
  });

  it('AbortSignal cancels a hanging call and a backoff wait', async () => {
    sb.setFaults('templates:hang=1');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    expect((await failure(client().templates({}, { signal: ac.signal }))).kind).toBe('cancelled');
    expect(Date.now() - started).toBeLessThan(2_000);
    sb.setFaults('templates:503=1');
    const ac2 = new AbortController();
    setTimeout(() => ac2.abort(), 150);
    expect((await failure(client({ retry: { baseDelayMs: 5_000, maxDelayMs: 5_000 } }).templates({}, { signal: ac2.signal }))).kind).toBe('cancelled');
    const ac3 = new AbortController();
    ac3.abort();
    expect((await failure(client().templates({}, { signal: ac3.signal }))).kind).toBe('cancelled');
  });

  it('log lines are redacted: no token, no email address', async () => {
    const lines: string[] = [];
    const token = sb.issueToken();
    const c = client({ token, log: (_level, m) => lines.push(m) });
    await c.templates();
    await c.sendEmail({ SendEmailDatas: [emailEntry(sb.catalogue.list('withoutCode')[0]!)], IsInvoiceCode: false });
    await c.requestToken({ ...SANDBOX_CREDENTIALS });
    sb.setFaults('templates:503=1:limit=1');
    await c.templates();
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const all = lines.join('\n');
    expect(all).toContain('HTTP 200');
    expect(all).toContain('retry 1/3');
    expect(all).not.toContain(token);
    expect(all).not.toContain(SANDBOX_CREDENTIALS.password);
    expect(all).not.toMatch(/@example\.vn/);
  });

  it('the default dispatcher (own keep-alive Agent) works and is closed by close()', async () => {
    const c = new ApiClient({ baseUrl: sb.baseUrl, token: sb.devToken });
    expect((await c.templates()).length).toBeGreaterThan(0);
    await c.close();
  });
});
