import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ApiClient,
  ApiError,
  apiErrors,
  chunk,
  defaultTokenUrl,
  jwtExpiry,
  mapLimit,
  normaliseEmailList,
  parseRetryAfter,
  parseServiceUrl,
  redact,
  toWireEmailParameter,
} from '../../../main/services/api';
import { INVOICE_KINDS, downloadFlags, emailFlags, kindFromFlags } from '../../../common/model';
import { normaliseDownload, normaliseSendEmailItems, normaliseTemplates, normaliseToken } from '../../../main/services/api/normalise';
import { AppError } from '../../../common/errors';

function expectApiError(fn: () => unknown, kind: string): ApiError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).kind).toBe(kind);
    return e as ApiError;
  }
  throw new Error('expected an ApiError');
}

describe('base URL', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(parseServiceUrl('https://api.meinvoice.vn/api/integration/invoice/').href).toBe('https://api.meinvoice.vn/api/integration/invoice');
    expect(parseServiceUrl('http://127.0.0.1:8080/api/integration/invoice').port).toBe('8080');
    expect(parseServiceUrl('http://localhost:1/x').hostname).toBe('localhost');
    expect(parseServiceUrl('http://[::1]:9/x').hostname).toBe('[::1]');
  });

  it('refuses plain http to a remote host with a bilingual message', () => {
    const e = expectApiError(() => parseServiceUrl('http://api.meinvoice.vn/api/integration/invoice'), 'config');
    expect(e.message).toContain('https://');
    expect(e.messageVi).toContain('https://');
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('api.config');
  });

  it('refuses garbage, other schemes and credentials in the URL', () => {
    expectApiError(() => parseServiceUrl('not a url'), 'config');
    expectApiError(() => parseServiceUrl('ftp://127.0.0.1/x'), 'config');
    expectApiError(() => parseServiceUrl('https://u:p@api.example.vn/x'), 'config');
  });

  it('the client constructor validates too', () => {
    expectApiError(() => new ApiClient({ baseUrl: 'http://10.0.0.5/api/integration/invoice' }), 'config');
    expectApiError(() => new ApiClient({ baseUrl: 'https://x.vn/a', maxBatch: 51 }), 'config');
  });

  it('default token URL replaces /invoice with /auth/token', () => {
    expect(defaultTokenUrl(new URL('https://testapi.meinvoice.vn/api/integration/invoice')).href).toBe(
      'https://testapi.meinvoice.vn/api/integration/auth/token',
    );
    expect(defaultTokenUrl(new URL('https://x.vn/svc')).href).toBe('https://x.vn/svc/auth/token');
  });
});

describe('redact', () => {
  it('hides bearer tokens, JWTs, email addresses, password fields and given secrets', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig-nature_x';
    const line = `Authorization: Bearer abc.def-123 token=${jwt} to an.nguyen+shop@example.com.vn;b@x.vn {"password":"hunter2"} secret-XYZ-987`;
    const out = redact(line, ['secret-XYZ-987']);
    expect(out).not.toContain('abc.def-123');
    expect(out).not.toContain(jwt);
    expect(out).not.toContain('an.nguyen');
    expect(out).not.toContain('b@x.vn');
    expect(out).not.toContain('hunter2');
    expect(out).not.toContain('secret-XYZ-987');
    expect(out).toContain('Bearer [redacted]');
    expect(out).toContain('[email]');
  });
  it('leaves ordinary text alone', () => {
    expect(redact('download POST /api/integration/invoice/Download?downloadDataType=Pdf → HTTP 200 in 12 ms')).toBe(
      'download POST /api/integration/invoice/Download?downloadDataType=Pdf → HTTP 200 in 12 ms',
    );
  });
  it('never leaks any generated email address', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.string(), (email, prefix) => {
        expect(redact(`${prefix} ${email} end`)).not.toContain(email);
      }),
      { numRuns: 500 },
    );
  });
});

describe('batching', () => {
  it('chunk splits at 50 by default and at a lower size when asked', () => {
    const ids = Array.from({ length: 121 }, (_, i) => `T${i}`);
    expect(chunk(ids).map((c) => c.length)).toEqual([50, 50, 21]);
    expect(chunk(ids, 40).map((c) => c.length)).toEqual([40, 40, 40, 1]);
    expect(chunk([], 10)).toEqual([]);
    expect(() => chunk(ids, 0)).toThrow(RangeError);
    expect(chunk(ids).flat()).toEqual(ids);
  });

  it('maps each invoice kind to its Download and sendemail flags, and the flags back to the kind', () => {
    expect(INVOICE_KINDS.map((k) => [k, downloadFlags(k), emailFlags(k)])).toEqual([
      ['withCode', { invoiceWithCode: true, invoiceCalcu: false }, { IsInvoiceCode: true, IsInvoiceCalculatingMachine: false }],
      ['withoutCode', { invoiceWithCode: false, invoiceCalcu: false }, { IsInvoiceCode: false, IsInvoiceCalculatingMachine: false }],
      ['cashRegister', { invoiceWithCode: true, invoiceCalcu: true }, { IsInvoiceCode: true, IsInvoiceCalculatingMachine: true }],
    ]);
    for (const k of INVOICE_KINDS) expect(kindFromFlags(downloadFlags(k).invoiceWithCode, downloadFlags(k).invoiceCalcu)).toBe(k);
    expect(kindFromFlags(false, true)).toBe('cashRegister');
  });

  it('normaliseEmailList accepts , and ; and trims', () => {
    expect(normaliseEmailList(' a@x.vn , b@y.vn;; c@z.vn ')).toBe('a@x.vn;b@y.vn;c@z.vn');
    expect(normaliseEmailList(null)).toBe('');
  });

  it('mapLimit keeps order and bounds concurrency', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });
});

describe('sendemail body', () => {
  it('sends BCCEmail only when filled, CCEmail null when empty, addresses ;-separated', () => {
    const body = toWireEmailParameter({
      SendEmailDatas: [
        { TransactionID: 'T1', ReceiverName: 'An', ReceiverEmail: 'a@x.vn, b@x.vn', CCEmail: '', BCCEmail: null, ReplyEmail: 'shop@x.vn' },
        { TransactionID: 'T2', ReceiverName: 'Bình', ReceiverEmail: 'c@x.vn', CCEmail: 'd@x.vn', BCCEmail: 'e@x.vn,f@x.vn', ReplyEmail: 'shop@x.vn' },
      ],
      IsInvoiceCode: true,
      IsInvoiceCalculatingMachine: null,
    });
    expect(body).toEqual({
      SendEmailDatas: [
        { TransactionID: 'T1', ReceiverName: 'An', ReceiverEmail: 'a@x.vn;b@x.vn', CCEmail: null, ReplyEmail: 'shop@x.vn' },
        { TransactionID: 'T2', ReceiverName: 'Bình', ReceiverEmail: 'c@x.vn', CCEmail: 'd@x.vn', BCCEmail: 'e@x.vn;f@x.vn', ReplyEmail: 'shop@x.vn' },
      ],
      IsInvoiceCode: true,
      IsInvoiceCalculatingMachine: false,
    });
    expect(Object.keys((body.SendEmailDatas as object[])[0]!)).not.toContain('BCCEmail');
  });
});

describe('normalisers', () => {
  const pdf = Buffer.from('%PDF-1.7 hello').toString('base64');

  it('Download Pdf/All items are base64-decoded; Data or data; ErrorCode per item', () => {
    const r = normaliseDownload(
      [
        { TransactionID: 'A', Data: pdf, ErrorCode: '' },
        { transactionid: 'B', data: '', errorcode: 'InvoiceNotExist' },
        { TransactionID: 'C', data: 'https://viewer.x.vn/C', ErrorCode: null },
      ],
      'Pdf',
      true,
    );
    if (r.kind !== 'items') throw new Error('items expected');
    expect(Buffer.from(r.items[0]!.content as Uint8Array).toString()).toBe('%PDF-1.7 hello');
    expect(r.items[0]!.errorCode).toBeNull();
    expect(r.items[1]).toMatchObject({ transactionId: 'B', content: null, errorCode: 'InvoiceNotExist' });
    expect(r.items[2]).toMatchObject({ transactionId: 'C', content: null, link: 'https://viewer.x.vn/C' });
  });

  it('Download Xml/Html items stay text', () => {
    const r = normaliseDownload([{ TransactionID: 'A', data: '<Invoice>Hóa đơn</Invoice>' }], 'Xml', true);
    expect(r).toMatchObject({ kind: 'items', items: [{ content: '<Invoice>Hóa đơn</Invoice>' }] });
  });

  it('Download single-link form and a lone object', () => {
    expect(normaliseDownload('https://x.vn/viewer?id=1', 'Pdf', true)).toEqual({ kind: 'link', url: 'https://x.vn/viewer?id=1' });
    expect(normaliseDownload({ TransactionID: 'Z', data: 'x' }, 'Html', true)).toMatchObject({ kind: 'items', items: [{ transactionId: 'Z' }] });
    expect(() => normaliseDownload('not a link', 'Pdf', true)).toThrow();
    expect(() => normaliseDownload([{ data: 'x' }], 'Pdf', true)).toThrow(/TransactionID/);
  });

  it('sendemail items judged per item', () => {
    const items = normaliseSendEmailItems([
      { TransactionID: 'A', RefID: 'r', RefDetailID: 'g', SendEmailStatus: 3, ErrorCode: '' },
      { transactionID: 'B', SendEmailStatus: '4', ErrorCode: null },
      { TransactionID: 'C', SendEmailStatus: 2, ErrorCode: 'InvalidEmail' },
      { TransactionID: 'D', SendEmailStatus: 9 },
    ]);
    expect(items.map((i) => [i.transactionId, i.status, i.errorCode, i.ok])).toEqual([
      ['A', 3, null, true],
      ['B', 4, null, true],
      ['C', 2, 'InvalidEmail', false],
      ['D', null, null, false],
    ]);
    expect(items[0]!.raw).toMatchObject({ RefDetailID: 'g' });
  });

  it('templates keep unknown fields', () => {
    const t = normaliseTemplates([{ IPTemplateID: 'x', InvSeries: '1C25TAA', Inactive: false, BrandNew: { a: 1 } }]);
    expect(t[0]).toMatchObject({ BrandNew: { a: 1 }, InvSeries: '1C25TAA' });
    expect(() => normaliseTemplates([{ TemplateName: 'no id' }])).toThrow();
  });

  it('token from a string or an object; JWT expiry', () => {
    const exp = 1_900_000_000;
    const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.sig`;
    expect(normaliseToken(jwt)).toBe(jwt);
    expect(normaliseToken({ access_token: 'abc' })).toBe('abc');
    expect(() => normaliseToken({})).toThrow();
    expect(jwtExpiry(jwt)).toBe(new Date(exp * 1000).toISOString());
    expect(jwtExpiry('opaque-token')).toBeNull();
  });
});

describe('errors', () => {
  it('every kind has distinct bilingual text; rejected shows unknown codes verbatim', () => {
    const errs = [
      apiErrors.offline('h', 'ECONNREFUSED'),
      apiErrors.network('h', 'ECONNRESET'),
      apiErrors.timeout(30_000),
      apiErrors.auth({ serviceCode: 'TokenExpiredCode' }),
      apiErrors.rateLimited(2_000),
      apiErrors.unavailable(503, true),
      apiErrors.rejected('BrandNewCode', null),
      apiErrors.malformed('x'),
      apiErrors.unknownOutcome('timeout'),
      apiErrors.cancelled(),
    ];
    for (const e of errs) {
      expect(e.message).not.toBe(e.messageVi);
      expect(e.toPayload().code).toBe(`api.${e.kind}`);
    }
    expect(errs[6]!.message).toContain('BrandNewCode');
    expect(errs[3]!.messageVi).toContain('hết hạn');
    expect(errs[4]!.message).toContain('2 s');
    expect(errs[5]!.message).toContain('maintenance');
    expect(errs[0]!.retryable).toBe(true);
    expect(errs[8]!.retryable).toBe(false);
  });

  it('parseRetryAfter: seconds and HTTP dates', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
