/** Money: hand-computed invoices (every expected figure worked out by hand in the comments). */
import { describe, expect, it } from 'vitest';
import {
  computeInvoice,
  currencyDecimals,
  draftFromInvoiceData,
  emptyDraft,
  emptyLine,
  formatVatLabel,
  normaliseVatLabel,
  parseVatLabel,
  readDecimal,
  serialiseDraft,
  Dec,
  type DraftLine,
  type InvoiceDraft,
} from '../../../common/money';
import { InvoiceDataSchema } from '../../../common/model';

const REF = '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b';

function line(over: Partial<DraftLine>): DraftLine {
  return { ...emptyLine(1), ItemName: 'x', ...over };
}

function vndDraft(): InvoiceDraft {
  return emptyDraft({
    RefID: REF,
    InvDate: '2025-06-15',
    InvSeries: '1C25TAA',
    lines: [
      // 3 × 15 500 = 46 500; 5 % discount = 2 325; net 44 175; VAT 10 % = 4 417.5 → 4 418 (half-up)
      line({ Quantity: '3', UnitPrice: '15500', DiscountRate: '5', VATRateName: '10%' }),
      // 1.5 × 33 333 = 49 999.5 → 50 000; VAT 8 % = 4 000
      line({ Quantity: '1.5', UnitPrice: '33333', VATRateName: '8%' }),
      // promotion: free, all amounts zero
      line({ ItemType: 2, Quantity: '1', UnitPrice: '10000', VATRateName: '10%' }),
      // trade discount: 5 000, VAT 500, both subtract from the 10 % row
      line({ ItemType: 3, Quantity: '1', UnitPrice: '5000', VATRateName: '10%' }),
      // note: nothing
      line({ ItemType: 4, Quantity: '', UnitPrice: '', VATRateName: '' }),
      // not subject to VAT: 20 000, VAT 0
      line({ Quantity: '2', UnitPrice: '10000', VATRateName: 'KCT' }),
    ],
  });
}

const s = (d: { toFixed(): string }) => d.toFixed();

describe('computeInvoice: a hand-computed VND invoice', () => {
  const c = computeInvoice(vndDraft());

  it('lines', () => {
    expect(c.lines.map((l) => [s(l.AmountOC), s(l.DiscountAmountOC), s(l.AmountWithoutVATOC), s(l.VATAmountOC)])).toEqual([
      ['46500', '2325', '44175', '4418'],
      ['50000', '0', '50000', '4000'],
      ['0', '0', '0', '0'],
      ['5000', '0', '5000', '500'],
      ['0', '0', '0', '0'],
      ['20000', '0', '20000', '0'],
    ]);
    expect(c.lines.map((l) => l.sign)).toEqual([1, 1, 0, -1, 0, 1]);
  });

  it('one TaxRateInfo row per rate, sorted, trade discount subtracted', () => {
    expect(c.taxRates.map((r) => [r.VATRateName, s(r.AmountWithoutVATOC), s(r.VATAmountOC), r.edited])).toEqual([
      ['8%', '50000', '4000', false],
      ['10%', '39175', '3918', false],
      ['KCT', '20000', '0', false],
    ]);
  });

  it('the four totals and the words', () => {
    expect(s(c.totals.TotalAmountWithoutVATOC)).toBe('109175');
    expect(s(c.totals.TotalVATAmountOC)).toBe('7918');
    expect(s(c.totals.TotalDiscountAmountOC)).toBe('7325');
    expect(s(c.totals.TotalAmountOC)).toBe('117093');
    expect(s(c.totals.grossAmountOC)).toBe('116500');
    expect(c.words).toBe('Một trăm mười bảy nghìn không trăm chín mươi ba đồng');
  });

  it('rounds each line before summing (not sum then round)', () => {
    // Two lines of 0.5 đồng VAT each: per line 0.5 → 1, so 2 in total (sum-then-round would also give 1).
    const d = emptyDraft({
      RefID: REF,
      InvDate: '2025-01-01',
      lines: [line({ Quantity: '1', UnitPrice: '5', VATRateName: '10%' }), line({ Quantity: '1', UnitPrice: '5', VATRateName: '10%' })],
    });
    const r = computeInvoice(d);
    expect(s(r.totals.TotalVATAmountOC)).toBe('2');
  });
});

describe('computeInvoice: USD with 2 decimals and no float drift', () => {
  const d = emptyDraft({
    RefID: REF,
    InvDate: '2025-06-15',
    CurrencyCode: 'USD',
    ExchangeRate: '25450',
    lines: [
      // 3 × 19.99 = 59.97; VAT 10 % = 5.997 → 6.00
      line({ Quantity: '3', UnitPrice: '19.99', VATRateName: '10%' }),
      // 0.333 × 10.10 = 3.3633 → 3.36; VAT 5 % = 0.168 → 0.17
      line({ Quantity: '0.333', UnitPrice: '10.10', VATRateName: '5%' }),
      // 3 × 0.1 = 0.3 exactly (binary float gives 0.30000000000000004)
      line({ Quantity: '3', UnitPrice: '0.1', VATRateName: '0%' }),
    ],
  });
  const c = computeInvoice(d);
  it('totals', () => {
    expect(s(c.lines[2]!.AmountOC)).toBe('0.3');
    expect(s(c.totals.TotalAmountWithoutVATOC)).toBe('63.63');
    expect(s(c.totals.TotalVATAmountOC)).toBe('6.17');
    expect(s(c.totals.TotalAmountOC)).toBe('69.8');
    // 69.80 × 25 450 = 1 776 410
    expect(s(c.totals.TotalAmountVND)).toBe('1776410');
    expect(c.words).toBe('Sáu mươi chín đô la Mỹ tám mươi xu');
  });
  it('serialises exact JSON numbers', () => {
    const data = serialiseDraft(d);
    expect(data.TotalAmountOC).toBe(69.8);
    expect(data.OriginalInvoiceDetail[2]!.AmountOC).toBe(0.3);
    expect(JSON.stringify(data)).not.toMatch(/0000000/);
  });
  it('decimals per currency are configurable', () => {
    expect(currencyDecimals('VND')).toBe(0);
    expect(currencyDecimals('usd')).toBe(2);
    expect(currencyDecimals('JPY', { perCurrency: { JPY: 0 } })).toBe(0);
    expect(currencyDecimals('VND', { decimals: 2 })).toBe(2);
    const c0 = computeInvoice(d, { perCurrency: { USD: 0 } });
    expect(s(c0.lines[0]!.AmountOC)).toBe('60');
  });
});

describe('discounts', () => {
  it('typed as an amount: the rate is derived (4 decimals)', () => {
    const d = emptyDraft({
      RefID: REF,
      InvDate: '2025-01-01',
      lines: [line({ Quantity: '3', UnitPrice: '15500', discountBy: 'amount', DiscountAmountOC: '1000', DiscountRate: '99' })],
    });
    const l = computeInvoice(d).lines[0]!;
    // 1000 / 46500 × 100 = 2.150537… → 2.1505
    expect(s(l.DiscountRate)).toBe('2.1505');
    expect(s(l.DiscountAmountOC)).toBe('1000');
    expect(s(l.AmountWithoutVATOC)).toBe('45500');
  });
  it('a typed amount is rounded to the currency', () => {
    const d = emptyDraft({
      RefID: REF,
      InvDate: '2025-01-01',
      lines: [line({ Quantity: '1', UnitPrice: '1000', discountBy: 'amount', DiscountAmountOC: '10.5' })],
    });
    expect(s(computeInvoice(d).lines[0]!.DiscountAmountOC)).toBe('11');
  });
  it('trade-discount lines ignore a line discount', () => {
    const d = emptyDraft({ RefID: REF, InvDate: '2025-01-01', lines: [line({ ItemType: 3, Quantity: '1', UnitPrice: '1000', DiscountRate: '50' })] });
    expect(s(computeInvoice(d).lines[0]!.DiscountAmountOC)).toBe('0');
  });
});

describe('manual VAT override', () => {
  const base = vndDraft();
  it('stays marked edited and feeds the totals', () => {
    const c = computeInvoice({ ...base, vatOverrides: { '10%': '4000' } });
    const row = c.taxRates.find((r) => r.VATRateName === '10%')!;
    expect(row.edited).toBe(true);
    expect(s(row.VATAmountOC)).toBe('4000');
    expect(s(row.computedVATAmountOC)).toBe('3918');
    // 4 000 + 4 000 = 8 000; 109 175 + 8 000 = 117 175
    expect(s(c.totals.TotalVATAmountOC)).toBe('8000');
    expect(s(c.totals.TotalAmountOC)).toBe('117175');
  });
  it('an override for a rate with no line is reported unused', () => {
    expect(computeInvoice({ ...base, vatOverrides: { '5%': '1' } }).unusedOverrides).toEqual(['5%']);
  });
  it('a blank override is no override; an unreadable one is flagged', () => {
    expect(computeInvoice({ ...base, vatOverrides: { '10%': ' ' } }).taxRates[1]!.edited).toBe(false);
    const r = computeInvoice({ ...base, vatOverrides: { '10%': 'abc' } }).taxRates[1]!;
    expect([r.edited, r.overrideInvalid]).toEqual([false, true]);
  });
  it('survives serialise → parse as an override', () => {
    const d = { ...base, vatOverrides: { '10%': '4000' } };
    const back = draftFromInvoiceData(InvoiceDataSchema.parse(JSON.parse(JSON.stringify(serialiseDraft(d)))));
    expect(back.vatOverrides).toEqual({ '10%': '4000' });
  });
});

describe('half-typed input never throws', () => {
  it('blank, "1.", ".5" and garbage', () => {
    expect(readDecimal('').blank).toBe(true);
    expect(readDecimal('1.').value.toFixed()).toBe('1');
    expect(readDecimal('.5').value.toFixed()).toBe('0.5');
    expect(readDecimal('1,5').invalid).toBe(true);
    const d = emptyDraft({ RefID: REF, InvDate: '2025-01-01', lines: [line({ Quantity: 'abc', UnitPrice: '1000' })] });
    const c = computeInvoice(d);
    expect(c.lines[0]!.invalid).toEqual(['Quantity']);
    expect(s(c.totals.TotalAmountOC)).toBe('0');
  });
});

describe('VAT labels', () => {
  it.each([
    ['0%', 'percent', '0', '0%'],
    ['5%', 'percent', '5', '5%'],
    ['8%', 'percent', '8', '8%'],
    ['10%', 'percent', '10', '10%'],
    [' 10 % ', 'percent', '10', '10%'],
    ['10', 'percent', '10', '10%'],
    ['KCT', 'KCT', null, 'KCT'],
    ['kct', 'KCT', null, 'KCT'],
    ['KKKNT', 'KKKNT', null, 'KKKNT'],
    ['KHAC:5.26%', 'KHAC', '5.26', 'KHAC:5.26%'],
    ['KHAC5%', 'KHAC', '5', 'KHAC:5%'],
    ['khac: 3,5 %', 'KHAC', '3.5', 'KHAC:3.5%'],
    ['KHAC:07%', 'KHAC', '7', 'KHAC:7%'],
  ])('%j → %s %s → %s', (input, kind, rate, label) => {
    const v = parseVatLabel(input)!;
    expect(v.kind).toBe(kind);
    expect(v.rate === null ? null : v.rate.toFixed()).toBe(rate);
    expect(v.label).toBe(label);
    expect(formatVatLabel(v)).toBe(label);
    expect(normaliseVatLabel(label)).toBe(label);
  });
  it.each([['7%'], ['12%'], ['KHAC'], ['KHAC:101%'], ['abc'], [''], ['-5%'], [null]])('%j is not a label', (input) => {
    expect(parseVatLabel(input)).toBeNull();
  });
  it('KHAC rates compute VAT', () => {
    const d = emptyDraft({ RefID: REF, InvDate: '2025-01-01', lines: [line({ Quantity: '1', UnitPrice: '1000', VATRateName: 'KHAC3.5%' })] });
    const c = computeInvoice(d);
    expect(s(c.lines[0]!.VATAmountOC)).toBe('35');
    expect(c.taxRates[0]!.VATRateName).toBe('KHAC:3.5%');
    expect(serialiseDraft(d).OriginalInvoiceDetail[0]!.VATRateName).toBe('KHAC:3.5%');
  });
});

describe('serialise', () => {
  it('produces InvoiceData that the schema accepts, with every derived amount', () => {
    const data = serialiseDraft({ ...vndDraft(), BuyerLegalName: '  Công ty ABC ', extra: { Custom: 1 } });
    expect(InvoiceDataSchema.safeParse(data).success).toBe(true);
    expect(data.TotalAmountOC).toBe(117093);
    expect(data.TaxRateInfo).toEqual([
      { VATRateName: '8%', AmountWithoutVATOC: 50000, VATAmountOC: 4000 },
      { VATRateName: '10%', AmountWithoutVATOC: 39175, VATAmountOC: 3918 },
      { VATRateName: 'KCT', AmountWithoutVATOC: 20000, VATAmountOC: 0 },
    ]);
    expect(data.OriginalInvoiceDetail.map((l) => l.LineNumber)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data.OriginalInvoiceDetail[4]).not.toHaveProperty('VATRateName');
    expect(data.BuyerLegalName).toBe('Công ty ABC');
    expect(data).not.toHaveProperty('BuyerEmail');
    expect((data as Record<string, unknown>).Custom).toBe(1);
  });
  it('keeps unknown line fields through a round trip', () => {
    const d = vndDraft();
    d.lines[0]!.extra = { VendorField: 'abc' };
    const back = draftFromInvoiceData(serialiseDraft(d));
    expect(back.lines[0]!.extra).toEqual({ VendorField: 'abc' });
  });
  it('Dec is exact', () => {
    expect(new Dec('0.1').plus('0.2').toFixed()).toBe('0.3');
  });
});
