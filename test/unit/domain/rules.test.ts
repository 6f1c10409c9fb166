import { describe, expect, it } from 'vitest';
import {
  checkTaxCode,
  isCalendarDate,
  isEmail,
  isUuid,
  newRefID,
  parseSeries,
  seriesYearMismatch,
  splitEmails,
  vietnamToday,
  requiredFieldProblems,
} from '../../../common/rules';
import { computeInvoice, emptyDraft, emptyLine } from '../../../common/money';

describe('buyer tax code', () => {
  it.each([
    ['0101243150', 'enterprise', '0101243150'],
    [' 0101 243 150 ', 'enterprise', '0101243150'],
    ['0101243150-001', 'branch', '0101243150-001'],
    ['001204012345', 'personal', '001204012345'],
  ])('%j is a valid %s code', (input, kind, normalised) => {
    expect(checkTaxCode(input)).toEqual({ ok: true, kind, normalised });
  });
  it.each([['010124315'], ['01012431501'], ['0101243150-01'], ['0101243150_001'], ['ABC1243150'], [''], ['0101243150-0011']])(
    '%j is rejected with a bilingual message',
    (input) => {
      const r = checkTaxCode(input);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('taxCode.format');
        expect(r.message).toMatch(/10 digits/);
        expect(r.messageVi).toMatch(/10 chữ số/);
      }
    },
  );
  it('13 digits without a dash gets a specific hint', () => {
    const r = checkTaxCode('0101243150001');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.code).toBe('taxCode.branchDash');
      expect(r.message).toContain('0101243150-001');
      expect(r.messageVi).toContain('0101243150-001');
    }
  });
});

describe('series symbol', () => {
  it('parses 1C25TAA into its parts', () => {
    expect(parseSeries('1C25TAA')).toEqual({
      ok: true,
      formDigit: 1,
      withCode: true,
      yearDigits: '25',
      year: 2025,
      typeLetter: 'T',
      sellerLetters: 'AA',
      normalised: '1C25TAA',
    });
  });
  it('parses K, other forms, lower case and the six-character form', () => {
    const k = parseSeries(' 2k24mxy ');
    expect(k.ok && [k.formDigit, k.withCode, k.year, k.typeLetter, k.sellerLetters, k.normalised]).toEqual([2, false, 2024, 'M', 'XY', '2K24MXY']);
    const six = parseSeries('C26TBB');
    expect(six.ok && six.formDigit).toBeNull();
  });
  it.each([['1A25TAA'], ['1C2TAA'], ['1C25TA'], ['1C25TAAA'], ['1C25T1A'], ['11C25TAA'], ['']])('%j is rejected', (s) => {
    const r = parseSeries(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.messageVi).toContain('Ký hiệu');
  });
  it('rejects an unknown type letter and form digit 0', () => {
    const r = parseSeries('1C25ZAA');
    expect(r.ok === false && r.code).toBe('series.type');
    expect(parseSeries('0C25TAA').ok).toBe(false);
  });
  it('warns when the year differs from InvDate', () => {
    const s = parseSeries('1C25TAA');
    if (!s.ok) throw new Error('parse');
    expect(seriesYearMismatch(s, '2025-12-31')).toBeNull();
    const w = seriesYearMismatch(s, '2026-01-01');
    expect(w?.message).toContain('2026');
    expect(w?.messageVi).toContain('năm 2026');
    expect(seriesYearMismatch(s, 'garbage')).toBeNull();
  });
});

describe('email lists', () => {
  it('splits on ; and , and normalises to ;', () => {
    expect(splitEmails(' a@x.vn, b@y.com ;c@z.org;; ')).toEqual({
      addresses: ['a@x.vn', 'b@y.com', 'c@z.org'],
      invalid: [],
      normalised: 'a@x.vn;b@y.com;c@z.org',
    });
  });
  it('reports each bad address and drops duplicates', () => {
    const r = splitEmails('a@x.vn; bad; A@X.vn, c@@d.com, e@f');
    expect(r.addresses).toEqual(['a@x.vn', 'bad', 'c@@d.com', 'e@f']);
    expect(r.invalid).toEqual(['bad', 'c@@d.com', 'e@f']);
    expect(r.normalised).toBe('a@x.vn');
  });
  it.each([
    ['ke.toan+hd@cong-ty.com.vn', true],
    ['a@b.c', false],
    ['a b@c.vn', false],
    ['.a@c.vn', false],
    ['a..b@c.vn', false],
    ['a@-c.vn', false],
    ['', false],
  ])('isEmail(%j) = %s', (a, ok) => {
    expect(isEmail(a)).toBe(ok);
  });
  it('empty input', () => {
    expect(splitEmails(null)).toEqual({ addresses: [], invalid: [], normalised: '' });
  });
});

describe('today in Vietnam', () => {
  it('is the next day after 17:00 UTC', () => {
    expect(vietnamToday(new Date('2025-06-15T16:59:59Z'))).toBe('2025-06-15');
    expect(vietnamToday(new Date('2025-06-15T17:00:00Z'))).toBe('2025-06-16');
    expect(vietnamToday(new Date('2025-12-31T17:30:00Z'))).toBe('2026-01-01');
  });
  it('does not depend on the input zone notation', () => {
    expect(vietnamToday(new Date('2025-06-16T06:00:00+07:00'))).toBe('2025-06-16');
  });
  it('calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2025-02-29')).toBe(false);
    expect(isCalendarDate('2025-13-01')).toBe(false);
    expect(isCalendarDate('2025-6-1')).toBe(false);
  });
});

describe('RefID', () => {
  it('is a fresh v4 UUID each time', () => {
    const a = newRefID();
    const b = newRefID();
    expect(isUuid(a)).toBe(true);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
    expect(isUuid('not-a-uuid')).toBe(false);
  });
});

describe('required fields', () => {
  const base = emptyDraft({ RefID: newRefID(), InvDate: '2025-06-15', InvSeries: '1C25TAA', lines: [{ ...emptyLine(1), ItemName: 'a', UnitPrice: '1000' }] });
  it('nothing missing on a complete retail draft', () => {
    expect(requiredFieldProblems(base, computeInvoice(base))).toEqual([]);
  });
  it('a tax code makes BuyerLegalName and BuyerAddress required', () => {
    const d = { ...base, BuyerTaxCode: '0101243150' };
    const p = requiredFieldProblems(d, computeInvoice(d));
    expect(p.map((x) => x.path)).toEqual(['BuyerLegalName', 'BuyerAddress']);
    expect(p[0]!.messageVi).toContain('mã số thuế');
    const filled = { ...d, BuyerLegalName: 'Công ty A', BuyerAddress: 'Hà Nội' };
    expect(requiredFieldProblems(filled, computeInvoice(filled))).toEqual([]);
  });
  it('a VAT invoice (form 1) needs TaxRateInfo; a sales invoice (form 2) does not', () => {
    const notes = { ...base, lines: [{ ...emptyLine(4), ItemName: 'ghi chú' }] };
    expect(requiredFieldProblems(notes, computeInvoice(notes)).map((x) => x.code)).toEqual(['required.TaxRateInfo']);
    const sales = { ...notes, InvSeries: '2C25TAA' };
    expect(requiredFieldProblems(sales, computeInvoice(sales))).toEqual([]);
  });
  it('identity fields', () => {
    const d = { ...base, RefID: '', InvSeries: ' ', InvDate: '', CurrencyCode: '' };
    expect(requiredFieldProblems(d, computeInvoice(d)).map((x) => x.path)).toEqual(['RefID', 'InvSeries', 'InvDate', 'CurrencyCode']);
  });
});
