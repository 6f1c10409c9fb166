/**
 * Property tests of the issuing form over random invoices and random digit settings. Every
 * expectation is recomputed from the JSON that would be sent, with BigInt (no decimal.js, no
 * floats): converted totals = OC total × ExchangeRate rounded to AmountDecimalDigits; totals =
 * sums of the rounded lines; TaxRateInfo rows sum to the totals; no figure has more decimals
 * than its setting.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { emptyDraft, issuingForm, type DraftLine } from '../../../common/money';
import { IssuingInvoiceDataSchema, type DecimalDigits, type IssuingInvoiceData, type ItemType } from '../../../common/model';
import { convert, minor, placesOf } from './bigint-reference';

const RUNS = 1500;

/** A decimal string ≤ maxWhole with up to maxScale decimals. */
const bounded = (maxWhole: number, maxScale: number) =>
  fc.integer({ min: 0, max: maxScale }).chain((sc) =>
    fc.integer({ min: 0, max: maxWhole * 10 ** sc }).map((u) => {
      const t = String(u).padStart(sc + 1, '0');
      return sc === 0 ? t : `${t.slice(0, t.length - sc)}.${t.slice(t.length - sc)}`;
    }),
  );

// Sizes keep every converted amount within a JSON number (2^53) with 25 lines at rate < 100 000.
const lineArb: fc.Arbitrary<DraftLine> = fc.record({
  ItemType: fc.constantFrom<ItemType>(1, 1, 1, 2, 3, 4, 5),
  ItemCode: fc.constant(''),
  ItemName: fc.constantFrom('Hàng', 'Dịch vụ'),
  UnitName: fc.constant('Cái'),
  Quantity: bounded(1000, 4),
  UnitPrice: bounded(10_000, 4),
  DiscountRate: fc.oneof(fc.constant(''), bounded(100, 3)),
  DiscountAmountOC: fc.oneof(fc.constant(''), bounded(10_000, 3)),
  discountBy: fc.constantFrom<'rate' | 'amount'>('rate', 'amount'),
  VATRateName: fc.constantFrom('0%', '5%', '8%', '10%', 'KCT', 'KKKNT', 'KHAC:3.5%'),
});

const digitsArb: fc.Arbitrary<Partial<DecimalDigits>> = fc.record(
  {
    QuantityDecimalDigits: fc.integer({ min: 0, max: 4 }),
    UnitPriceOCDecimalDigits: fc.integer({ min: 0, max: 4 }),
    AmountOCDecimalDigits: fc.integer({ min: 0, max: 2 }),
    AmountDecimalDigits: fc.integer({ min: 0, max: 2 }),
    CoefficientDecimalDigits: fc.integer({ min: 0, max: 4 }),
    ExchangRateDecimalDigits: fc.integer({ min: 0, max: 4 }),
  },
  { requiredKeys: [] },
);

interface CaseValue {
  usd: boolean;
  lines: DraftLine[];
  rate: string;
  digits: Partial<DecimalDigits>;
}
const caseArb: fc.Arbitrary<CaseValue> = fc.record({
  usd: fc.boolean(),
  lines: fc.array(lineArb, { maxLength: 25 }),
  // 0.0001 … 99 999.9999 (USD 25 150.5, JPY 170.12, EUR 27 000 …)
  rate: fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 9999 }))
    .map(([a, b]) => (a === 0 && b === 0 ? '25150.5' : `${a}.${String(b).padStart(4, '0')}`)),
  digits: digitsArb,
});

function build({ usd, lines, rate, digits }: CaseValue) {
  const draft = emptyDraft({
    RefID: 'r',
    InvDate: '2026-03-10',
    InvSeries: '1C26TAA',
    CurrencyCode: usd ? 'USD' : 'VND',
    ExchangeRate: usd ? rate : '1',
    lines,
  });
  const form = issuingForm(draft, { digits });
  // Every amount here fits a JSON number exactly (checkForIssue refuses the ones that do not).
  expect(form.inexact).toEqual([]);
  // Judge what would really be sent.
  const data = JSON.parse(JSON.stringify(form.data)) as IssuingInvoiceData;
  return { draft, form, data };
}

const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
const sign = (t: number) => (t === 1 || t === 5 ? 1n : t === 3 ? -1n : 0n);

describe('issuing form over random invoices (fast-check)', () => {
  it('each converted total = the OC total × ExchangeRate, rounded to AmountDecimalDigits', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { data } = build(c);
        const o = data.OptionUserDefined;
        const rate = JSON.stringify(data.ExchangeRate);
        const pairs = [
          ['TotalSaleAmountOC', 'TotalSaleAmount'],
          ['TotalDiscountAmountOC', 'TotalDiscountAmount'],
          ['TotalAmountWithoutVATOC', 'TotalAmountWithoutVAT'],
          ['TotalVATAmountOC', 'TotalVATAmount'],
          ['TotalAmountOC', 'TotalAmount'],
        ] as const;
        for (const [oc, vnd] of pairs) {
          const expected = convert(minor(data[oc], o.AmountOCDecimalDigits), o.AmountOCDecimalDigits, rate, o.AmountDecimalDigits);
          expect([vnd, minor(data[vnd], o.AmountDecimalDigits)]).toEqual([vnd, expected]);
        }
        // per line too
        for (const l of data.OriginalInvoiceDetail) {
          const conv = (x: number | null | undefined) => convert(minor(x ?? 0, o.AmountOCDecimalDigits), o.AmountOCDecimalDigits, rate, o.AmountDecimalDigits);
          expect([
            minor(l.Amount, o.AmountDecimalDigits),
            minor(l.DiscountAmount, o.AmountDecimalDigits),
            minor(l.AmountWithoutVAT, o.AmountDecimalDigits),
            minor(l.VATAmount, o.AmountDecimalDigits),
          ]).toEqual([conv(l.AmountOC), conv(l.DiscountAmountOC), conv(l.AmountWithoutVATOC), conv(l.VATAmountOC)]);
        }
        // converted pieces agree with the converted total within one unit
        const gap =
          minor(data.TotalAmount, o.AmountDecimalDigits) -
          minor(data.TotalAmountWithoutVAT, o.AmountDecimalDigits) -
          minor(data.TotalVATAmount, o.AmountDecimalDigits);
        expect(gap >= -1n && gap <= 1n).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('OC totals are the sums of the rounded lines; TaxRateInfo rows sum to the totals', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { data } = build(c);
        const d = data.OptionUserDefined.AmountOCDecimalDigits;
        const lines = data.OriginalInvoiceDetail;
        const m = (x: number | null | undefined) => minor(x ?? 0, d);
        for (const l of lines) {
          // each line: AmountOC = round(Quantity × UnitPrice); net = AmountOC − discount
          if (sign(l.ItemType) !== 0n) expect(m(l.AmountWithoutVATOC)).toBe(m(l.AmountOC) - m(l.DiscountAmountOC));
        }
        const without = sum(lines.map((l) => sign(l.ItemType) * m(l.AmountWithoutVATOC)));
        const vat = sum(lines.map((l) => sign(l.ItemType) * m(l.VATAmountOC)));
        const gross = sum(lines.map((l) => (sign(l.ItemType) === 1n ? m(l.AmountOC) : 0n)));
        const discount = sum(lines.map((l) => (sign(l.ItemType) === 1n ? m(l.DiscountAmountOC) : sign(l.ItemType) === -1n ? m(l.AmountWithoutVATOC) : 0n)));
        expect([m(data.TotalAmountWithoutVATOC), m(data.TotalVATAmountOC), m(data.TotalSaleAmountOC), m(data.TotalDiscountAmountOC)]).toEqual([
          without,
          vat,
          gross,
          discount,
        ]);
        expect(m(data.TotalAmountOC)).toBe(without + vat);
        expect(sum(data.TaxRateInfo.map((r) => m(r.AmountWithoutVATOC)))).toBe(m(data.TotalAmountWithoutVATOC));
        expect(sum(data.TaxRateInfo.map((r) => m(r.VATAmountOC)))).toBe(m(data.TotalVATAmountOC));
        for (const r of data.TaxRateInfo) {
          const of = lines.filter((l) => l.VATRateName === r.VATRateName);
          expect(sum(of.map((l) => sign(l.ItemType) * m(l.VATAmountOC)))).toBe(m(r.VATAmountOC));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('no figure has more decimals than its setting; SortOrder and note lines as documented; schema holds', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { data, form } = build(c);
        const o = data.OptionUserDefined;
        for (const [k, v] of Object.entries(c.digits)) expect([k, o[k as keyof DecimalDigits]]).toEqual([k, v]);
        expect(o.MainCurrency).toBe('VND');
        expect(placesOf(data.ExchangeRate!)).toBeLessThanOrEqual(o.ExchangRateDecimalDigits);
        let next = 1;
        data.OriginalInvoiceDetail.forEach((l) => {
          expect(placesOf(l.Quantity!)).toBeLessThanOrEqual(o.QuantityDecimalDigits);
          expect(placesOf(l.UnitPrice!)).toBeLessThanOrEqual(o.UnitPriceOCDecimalDigits);
          expect(placesOf(l.DiscountRate!)).toBeLessThanOrEqual(o.CoefficientDecimalDigits);
          for (const f of [l.AmountOC!, l.DiscountAmountOC!, l.AmountWithoutVATOC!, l.VATAmountOC])
            expect(placesOf(f)).toBeLessThanOrEqual(o.AmountOCDecimalDigits);
          for (const f of [l.Amount, l.DiscountAmount, l.AmountWithoutVAT, l.VATAmount]) expect(placesOf(f)).toBeLessThanOrEqual(o.AmountDecimalDigits);
          if (l.ItemType === 3 || l.ItemType === 4) expect(l.SortOrder).toBeNull();
          else expect(l.SortOrder).toBe(next++);
          if (l.ItemType === 4) expect(l.VATRateName).toBeNull();
          else expect(typeof l.VATRateName).toBe('string');
        });
        // a figure changed by rounding is listed, and only then
        c.lines.forEach((l, i) => {
          if (l.ItemType === 4) return;
          const listed = form.changed.some((x) => x.path[1] === i && x.path[2] === 'Quantity');
          expect(listed).toBe(placesOf(l.Quantity) > o.QuantityDecimalDigits);
        });
        expect(IssuingInvoiceDataSchema.safeParse(data).success).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
