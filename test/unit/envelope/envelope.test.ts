import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codeField, firstErrorCode, getField, readEnvelope, readCode, readEnvelopeText, unwrapData, type EnvelopeResult } from '../../../common/envelope';

const template = {
  IPTemplateID: 'a1b2',
  TemplateName: 'Hóa đơn GTGT',
  InvSeries: '1C25TAA',
  Inactive: false,
  CompanyID: 7,
  FutureField: { nested: [1, 2] },
};

function success(r: EnvelopeResult) {
  if (r.kind !== 'success') throw new Error(`expected success, got ${JSON.stringify(r)}`);
  return r;
}
function error(r: EnvelopeResult) {
  if (r.kind !== 'error') throw new Error(`expected error, got ${JSON.stringify(r)}`);
  return r;
}

describe('readEnvelope: published sample shapes', () => {
  it('preview: data is a plain link string and stays one', () => {
    const link = 'https://testapi.meinvoice.vn/viewer/abc?x=1&y={2}';
    const r = success(readEnvelope({ success: true, errorCode: null, descriptionErrorCode: null, errors: [], data: link, customData: '' }));
    expect(r.data).toBe(link);
    expect(r.success).toBe(true);
    expect(r.envelope.customData).toBe('');
  });

  it('templates: data is a JSON-encoded list; unknown fields pass through', () => {
    const r = success(readEnvelope({ success: true, errorCode: null, errors: [], data: JSON.stringify([template]), customData: '' }));
    expect(r.data).toEqual([template]);
  });

  it('capitalised names (Success, ErrorCode, Errors, Data, CustomData)', () => {
    const r = success(readEnvelope({ Success: true, ErrorCode: null, Errors: [], Data: JSON.stringify([template]), CustomData: null }));
    expect(r.data).toEqual([template]);
    expect(r.envelope.customData).toBeNull();
  });

  it('mixed and all-caps casing', () => {
    const r = error(readEnvelope({ SUCCESS: false, ERRORCODE: 'InvalidTokenCode', DescriptionErrorCode: 'Token sai', ERRORS: ['x'] }));
    expect(r.code).toBe('InvalidTokenCode');
    expect(r.description).toBe('Token sai');
    expect(r.errors).toEqual(['x']);
  });

  it('JSON inside a string twice nested', () => {
    const once = JSON.stringify([template]);
    const twice = JSON.stringify(once);
    const r = success(readEnvelope({ success: true, data: twice }));
    expect(r.data).toEqual([template]);
    expect(r.envelope.rawData).toBe(twice);
  });

  it('JSON inside a string three times nested, object form', () => {
    const thrice = JSON.stringify(JSON.stringify(JSON.stringify({ a: 1 })));
    expect(success(readEnvelope({ success: true, data: thrice })).data).toEqual({ a: 1 });
  });

  it('data as an object and as a list (not encoded)', () => {
    expect(success(readEnvelope({ success: true, data: { token: 't' } })).data).toEqual({ token: 't' });
    expect(success(readEnvelope({ success: true, data: [1, 2] })).data).toEqual([1, 2]);
  });

  it('Data and data both present: the non-null one wins', () => {
    expect(success(readEnvelope({ success: true, data: null, Data: '[1]' })).data).toEqual([1]);
    expect(success(readEnvelope({ success: true, Data: '[2]', data: null })).data).toEqual([2]);
  });

  it('sendemail quirk: success false, no errorCode, items fine → success kind with raw flag false', () => {
    const items = [{ TransactionID: 'T1', RefID: 'r', RefDetailID: 'g', SendEmailStatus: 3, ErrorCode: '' }];
    const r = success(readEnvelope({ success: false, errorCode: null, descriptionErrorCode: null, errors: [], data: JSON.stringify(items), customData: '' }));
    expect(r.success).toBe(false);
    expect(r.data).toEqual(items);
  });

  it('call-level error keeps data (per-item results may still be there)', () => {
    const r = error(readEnvelope({ success: false, errorCode: 'InvoiceQuantityTooLarge', descriptionErrorCode: 'Too many', errors: [], data: '[{"a":1}]' }));
    expect(r.code).toBe('InvoiceQuantityTooLarge');
    expect(r.data).toEqual([{ a: 1 }]);
    expect(r.success).toBe(false);
  });

  it('success false with errors but no code is an error with code null', () => {
    const r = error(readEnvelope({ success: false, errors: [{ Field: 'BuyerTaxCode', Msg: '?' }], data: null }));
    expect(r.code).toBeNull();
    expect(r.errors).toEqual([{ Field: 'BuyerTaxCode', Msg: '?' }]);
    expect(firstErrorCode(r.errors)).toBeNull();
  });

  it('success false with nothing at all is an error', () => {
    expect(readEnvelope({ success: false }).kind).toBe('error');
    expect(readEnvelope({ success: false, data: '' }).kind).toBe('error');
  });

  it('an errorCode with success true is still an error', () => {
    expect(error(readEnvelope({ success: true, errorCode: 'LicenseInfo_Expired' })).code).toBe('LicenseInfo_Expired');
  });

  it('empty errorCode string counts as none', () => {
    expect(readEnvelope({ success: true, errorCode: '', data: 'x' }).kind).toBe('success');
  });

  it('errors of unknown shape are kept; a JSON string of errors is unwrapped; a single object is listed', () => {
    expect(readEnvelope({ success: false, errors: '[{"k":1}]' })).toMatchObject({ kind: 'error', errors: [{ k: 1 }] });
    expect(readEnvelope({ success: false, errors: { weird: true } })).toMatchObject({ kind: 'error', errors: [{ weird: true }] });
    expect(readEnvelope({ success: false, errors: 'plain words' })).toMatchObject({ kind: 'error', errors: ['plain words'] });
  });

  it('firstErrorCode reads codes from common error element shapes', () => {
    expect(firstErrorCode(['X1'])).toBe('X1');
    expect(firstErrorCode([{ ErrorCode: 'X2' }])).toBe('X2');
    expect(firstErrorCode([{ code: 'X3' }])).toBe('X3');
    expect(firstErrorCode([42, null])).toBeNull();
  });

  it('a success flag sent as a string or number is read', () => {
    expect(readEnvelope({ success: 'true', data: 'a' })).toMatchObject({ kind: 'success', success: true });
    expect(readEnvelope({ Success: 'False', data: null }).kind).toBe('error');
    expect(readEnvelope({ success: 1, data: 'a' })).toMatchObject({ kind: 'success', success: true });
  });

  it('a numeric errorCode is kept as text', () => {
    expect(error(readEnvelope({ success: false, errorCode: 401 })).code).toBe('401');
  });

  it('a missing success flag with data reads as success, flag undefined', () => {
    const r = success(readEnvelope({ data: 'x' }));
    expect(r.success).toBeUndefined();
  });
});

describe('readEnvelope: malformed', () => {
  it.each([
    [null, 'null'],
    [[1, 2], 'a list'],
    ['text', 'a string'],
    [42, 'a number'],
    [true, 'a boolean'],
  ])('%j is malformed', (value, what) => {
    const r = readEnvelope(value);
    expect(r.kind).toBe('malformed');
    if (r.kind === 'malformed') expect(r.reason).toContain(what);
  });

  it('an object without any envelope field is malformed', () => {
    const r = readEnvelope({ message: 'hello', status: 500 });
    expect(r.kind).toBe('malformed');
    if (r.kind === 'malformed') expect(r.reason).toContain('message');
  });

  it('readEnvelopeText: HTML maintenance page, truncated JSON, empty body', () => {
    const html = readEnvelopeText('<!DOCTYPE html><html><body>Bảo trì hệ thống</body></html>');
    expect(html).toMatchObject({ kind: 'malformed' });
    if (html.kind === 'malformed') expect(html.reason).toContain('HTML');
    const truncated = readEnvelopeText('{"success":true,"data":"[{\\"a\\":');
    expect(truncated.kind).toBe('malformed');
    const empty = readEnvelopeText('   ');
    expect(empty).toMatchObject({ kind: 'malformed', reason: 'the response body is empty' });
  });

  it('readEnvelopeText reads a good body', () => {
    expect(readEnvelopeText('{"Success":true,"Data":"\\"[1]\\""}')).toMatchObject({ kind: 'success', data: [1] });
  });
});

describe('unwrapData', () => {
  it('keeps strings that merely look like JSON', () => {
    for (const s of ['{not json', '[1, 2', '"unterminated', '{"a":}', '  {x}  ']) expect(unwrapData(s)).toBe(s);
  });
  it('keeps URLs, numbers-in-strings, booleans-in-strings, null-in-string', () => {
    for (const s of ['https://x.vn/a?b=[1]', '123', 'true', 'null', '', 'eyJhbGciOi.J9.x']) expect(unwrapData(s)).toBe(s);
  });
  it('unwraps a JSON string holding a plain (non-JSON) string to that string', () => {
    expect(unwrapData('"https://x.vn/p.pdf"')).toBe('https://x.vn/p.pdf');
  });
  it('stops at the depth bound', () => {
    let s: unknown = [1];
    for (let i = 0; i < 12; i++) s = JSON.stringify(s);
    const out = unwrapData(s, 3);
    expect(typeof out).toBe('string');
    expect(unwrapData(s, 20)).toEqual([1]);
  });
  it('leaves non-strings untouched (same reference)', () => {
    const obj = { a: '[1]' };
    expect(unwrapData(obj)).toBe(obj);
  });
});

describe('getField', () => {
  it('matches case-insensitively, prefers a non-null spelling', () => {
    expect(getField({ DATA: 1 }, 'data')).toBe(1);
    expect(getField({ data: null, Data: 2 }, 'data')).toBe(2);
    expect(getField({ data: null }, 'Data')).toBeNull();
    expect(getField({}, 'data')).toBeUndefined();
  });
});

describe('property: never throws', () => {
  it('readEnvelope never throws on any JSON value and always returns a known kind', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const r = readEnvelope(value);
        expect(['success', 'error', 'malformed']).toContain(r.kind);
      }),
      { numRuns: 3000 },
    );
  });

  it('readEnvelope never throws on envelope-like objects with arbitrary field values and casings', () => {
    const name = (base: string) => fc.constantFrom(base, base.toUpperCase(), base[0]!.toUpperCase() + base.slice(1));
    const envelopeArb = fc
      .record({
        s: fc.tuple(name('success'), fc.jsonValue()),
        c: fc.tuple(name('errorCode'), fc.jsonValue()),
        e: fc.tuple(name('errors'), fc.jsonValue()),
        d: fc.tuple(
          name('data'),
          fc.oneof(
            fc.jsonValue(),
            fc.jsonValue().map((v) => JSON.stringify(v)),
            fc.jsonValue().map((v) => JSON.stringify(JSON.stringify(v))),
          ),
        ),
      })
      .map((r) => Object.fromEntries(Object.values(r)));
    fc.assert(
      fc.property(envelopeArb, (value) => {
        const r = readEnvelope(value);
        expect(r.kind).not.toBe('malformed');
        if (r.kind !== 'malformed') expect(Array.isArray(r.envelope.errors)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('readEnvelopeText never throws on any string', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(['success', 'error', 'malformed']).toContain(readEnvelopeText(s).kind);
      }),
      { numRuns: 2000 },
    );
  });

  it('JSON-encoding data n times (n ≤ 5) round-trips to the original object/list', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())), fc.integer({ min: 0, max: 5 }), (data, n) => {
        let wire: unknown = data;
        for (let i = 0; i < n; i++) wire = JSON.stringify(wire);
        const r = readEnvelope({ Success: true, Data: wire });
        expect(r.kind).toBe('success');
        if (r.kind === 'success') expect(JSON.parse(JSON.stringify(r.data))).toEqual(JSON.parse(JSON.stringify(data)));
      }),
      { numRuns: 1000 },
    );
  });

  it('unwrapData returns the input unchanged for any string that is not JSON', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        let parses = true;
        try {
          JSON.parse(s);
        } catch {
          parses = false;
        }
        if (!parses) expect(unwrapData(s)).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('a per-item ErrorCode of 0, "0", "" or null with SendEmailStatus 3/4 is success (codes as the envelope reader reads them)', () => {
  it('every spelling of "no error" reads as null', () => {
    for (const none of [null, undefined, '', '  ', 0, '0', false, [], {}, '[]', [null, ''], { code: '' }]) {
      expect(readCode(none), JSON.stringify(none)).toBeNull();
    }
  });

  it('a real code is kept, from a string, a number, a list or an object', () => {
    expect(readCode('InvalidEmail')).toBe('InvalidEmail');
    expect(readCode(' InvoiceNotExist ')).toBe('InvoiceNotExist');
    expect(readCode(['', 'InvoiceDeleted'])).toBe('InvoiceDeleted');
    expect(readCode({ ErrorCode: 'InvalidEmail' })).toBe('InvalidEmail');
    expect(readCode('["InvalidTransactionID"]')).toBe('InvalidTransactionID');
    expect(readCode(17)).toBe('17');
  });

  it('answers the public documentation shows: ErrorCode [] beside errorCode "" is no error in either order; a real code wins over an empty spelling', () => {
    expect(codeField({ ErrorCode: [], errorCode: '' }, 'ErrorCode')).toBeNull();
    expect(codeField({ errorCode: '', ErrorCode: {} }, 'ErrorCode')).toBeNull();
    expect(codeField({ errorCode: '', ErrorCode: 'InvalidEmail' }, 'ErrorCode')).toBe('InvalidEmail');
    expect(codeField({ ErrorCode: [], errorCode: 'InvoiceDeleted' }, 'errorCode')).toBe('InvoiceDeleted');
    expect(success(readEnvelope({ Success: true, ErrorCode: [], errorCode: '', Data: [] })).success).toBe(true);
    expect(success(readEnvelope({ success: true, errorCode: '0', data: 'x' })).data).toBe('x');
    expect(error(readEnvelope({ success: false, ErrorCode: [], errorCode: 'UnAuthorize', data: null })).code).toBe('UnAuthorize');
  });
});
