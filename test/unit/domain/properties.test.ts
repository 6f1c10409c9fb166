/**
 * Property tests over thousands of random invoices. The expected figures come from an
 * independent reference written here with BigInt integer arithmetic in minor units (no
 * decimal.js, no floats), so a drift or a rounding mistake in common/money shows up.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeInvoice, draftFromInvoiceData, emptyDraft, serialiseDraft, type DraftLine, type InvoiceDraft } from '../../../common/money';
import { InvoiceDataSchema, type ItemType } from '../../../common/model';

// ---------- independent reference (BigInt, minor units) ----------

/** Decimal string → [units, scale] exactly, e.g. "12.340" → [12340n, 3]. */
function scaled(text: string): [bigint, number] {
  const t = text.trim();
  if (t === '') return [0n, 0];
  const neg = t.startsWith('-');
  const body = t.replace(/^[+-]/, '');
  const [i = '', f = ''] = body.split('.');
  const units = BigInt((i || '0') + f);
  return [neg ? -units : units, f.length];
}
const pow10 = (n: number) => 10n ** BigInt(n);
/** n / d rounded half away from zero (d > 0). */
function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  let q = a / d;
  if ((a % d) * 2n >= d) q += 1n;
  return neg ? -q : q;
}
/** value × factor (both decimal strings) rounded to `dec` decimals, as minor units. */
function mulRound(a: string, b: string, divideBy: bigint, dec: number): bigint {
  const [ua, sa] = scaled(a);
  const [ub, sb] = scaled(b);
  return roundDiv(ua * ub * pow10(dec), pow10(sa + sb) * divideBy);
}
const VAT_PERCENT: Record<string, string | null> = {
  '0%': '0',
  '5%': '5',
  '8%': '8',
  '10%': '10',
  KCT: null,
  KKKNT: null,
  'KHAC:3.5%': '3.5',
  'KHAC7%': '7',
};
const CANON: Record<string, string> = { 'KHAC7%': 'KHAC:7%' };

interface RefLine {
  amount: bigint;
  discount: bigint;
  net: bigint;
  vat: bigint;
  sign: bigint;
}
function reference(d: InvoiceDraft, dec: number) {
  const lines: RefLine[] = d.lines.map((l) => {
    const sign = l.ItemType === 1 || l.ItemType === 5 ? 1n : l.ItemType === 3 ? -1n : 0n;
    if (sign === 0n) return { amount: 0n, discount: 0n, net: 0n, vat: 0n, sign };
    const amount = mulRound(l.Quantity, l.UnitPrice, 1n, dec);
    let discount = 0n;
    if (sign === 1n) {
      if (l.discountBy === 'amount') {
        const [u, sc] = scaled(l.DiscountAmountOC);
        discount = roundDiv(u * pow10(dec), pow10(sc));
      } else {
        // amount is in minor units: amount × rate / 100, rate with its own scale
        const [ur, sr] = scaled(l.DiscountRate);
        discount = roundDiv(amount * ur, 100n * pow10(sr));
      }
    }
    const net = amount - discount;
    const pct = VAT_PERCENT[l.VATRateName];
    let vat = 0n;
    if (pct) {
      const [uv, sv] = scaled(pct);
      vat = roundDiv(net * uv, 100n * pow10(sv));
    }
    return { amount, discount, net, vat, sign };
  });
  const rows = new Map<string, { base: bigint; vat: bigint }>();
  let without = 0n;
  let vat = 0n;
  let discount = 0n;
  let gross = 0n;
  d.lines.forEach((l, i) => {
    const r = lines[i]!;
    if (r.sign === 0n) return;
    const key = CANON[l.VATRateName] ?? l.VATRateName;
    const row = rows.get(key) ?? { base: 0n, vat: 0n };
    row.base += r.sign * r.net;
    row.vat += r.sign * r.vat;
    rows.set(key, row);
    if (r.sign === 1n) {
      gross += r.amount;
      discount += r.discount;
    } else discount += r.net;
  });
  for (const [key, row] of rows) {
    const o = d.vatOverrides[key];
    if (o !== undefined) {
      const [u, sc] = scaled(o);
      row.vat = roundDiv(u * pow10(dec), pow10(sc));
    }
    without += row.base;
    vat += row.vat;
  }
  return { lines, rows, without, vat, discount, gross, total: without + vat };
}

/** A Decimal (or number) as minor units, exactly: fails if it has more decimals than `dec`. */
function minor(v: { toFixed(): string } | number, dec: number): bigint {
  const text = typeof v === 'number' ? decimalStringOfNumber(v) : v.toFixed();
  const [u, sc] = scaled(text);
  if (sc > dec) {
    const f = pow10(sc - dec);
    if (u % f !== 0n) throw new Error(`${text} has more than ${dec} decimals`);
    return u / f;
  }
  return u * pow10(dec - sc);
}
/** JSON-number → plain decimal string via its shortest round-trip form (what JSON.stringify writes). */
function decimalStringOfNumber(n: number): string {
  const t = JSON.stringify(n);
  if (!/e/i.test(t)) return t;
  throw new Error(`exponent form ${t}`);
}

// ---------- generators ----------

const decimalText = (maxUnits: number, maxScale: number) =>
  fc.tuple(fc.integer({ min: 0, max: maxUnits }), fc.integer({ min: 0, max: maxScale })).map(([u, sc]) => {
    const s = String(u).padStart(sc + 1, '0');
    return sc === 0 ? s : `${s.slice(0, s.length - sc)}.${s.slice(s.length - sc)}`;
  });

const lineArb = (usd: boolean): fc.Arbitrary<DraftLine> =>
  fc.record({
    ItemType: fc.constantFrom<ItemType>(1, 1, 1, 1, 2, 3, 4, 5),
    ItemCode: fc.string({ maxLength: 6 }),
    ItemName: fc.string({ minLength: 1, maxLength: 12 }),
    UnitName: fc.constantFrom('Cái', 'kg', 'Giờ', ''),
    Quantity: decimalText(10_000, 3),
    UnitPrice: usd ? decimalText(10_000_000, 4) : decimalText(1_000_000_000, 2),
    DiscountRate: fc.oneof(fc.constant(''), decimalText(10_000, 2)),
    DiscountAmountOC: fc.oneof(fc.constant(''), decimalText(100_000_000, 3)),
    discountBy: fc.constantFrom<'rate' | 'amount'>('rate', 'amount'),
    VATRateName: fc.constantFrom(...Object.keys(VAT_PERCENT)),
  });

const draftArb = fc.boolean().chain((usd) =>
  fc
    .record({
      lines: fc.array(lineArb(usd), { maxLength: 30 }),
      override: fc.option(fc.tuple(fc.constantFrom('0%', '5%', '8%', '10%', 'KHAC:3.5%'), decimalText(100_000_000, 2)), { nil: undefined }),
      exchange: usd ? decimalText(300_000_000, 4).map((x) => (Number(x) === 0 ? '1' : x)) : fc.constant('1'),
      extra: fc.option(fc.dictionary(fc.constantFrom('Ext1', 'Ext2', 'ZNew'), fc.oneof(fc.string(), fc.integer(), fc.boolean())), { nil: undefined }),
    })
    .map(({ lines, override, exchange, extra }) => {
      const d = emptyDraft({
        RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
        InvDate: '2025-06-15',
        InvSeries: '1C25TAA',
        CurrencyCode: usd ? 'USD' : 'VND',
        ExchangeRate: exchange,
        lines,
        vatOverrides: override ? { [override[0]]: override[1] } : {},
      });
      if (extra) d.extra = extra;
      return { draft: d, dec: usd ? 2 : 0 };
    }),
);

const RUNS = 3000;

describe('random invoices (fast-check)', () => {
  it('match the BigInt reference to the last unit, line by line and in total', () => {
    fc.assert(
      fc.property(draftArb, ({ draft, dec }) => {
        const c = computeInvoice(draft);
        const ref = reference(draft, dec);
        c.lines.forEach((l, i) => {
          const r = ref.lines[i]!;
          expect([minor(l.AmountOC, dec), minor(l.DiscountAmountOC, dec), minor(l.AmountWithoutVATOC, dec), minor(l.VATAmountOC, dec)]).toEqual([
            r.amount,
            r.discount,
            r.net,
            r.vat,
          ]);
        });
        expect(c.taxRates.length).toBe(ref.rows.size);
        for (const row of c.taxRates) {
          const r = ref.rows.get(row.VATRateName)!;
          expect([minor(row.AmountWithoutVATOC, dec), minor(row.VATAmountOC, dec)]).toEqual([r.base, r.vat]);
        }
        expect(minor(c.totals.TotalAmountWithoutVATOC, dec)).toBe(ref.without);
        expect(minor(c.totals.TotalVATAmountOC, dec)).toBe(ref.vat);
        expect(minor(c.totals.TotalDiscountAmountOC, dec)).toBe(ref.discount);
        expect(minor(c.totals.TotalAmountOC, dec)).toBe(ref.total);
      }),
      { numRuns: RUNS },
    );
  });

  it('keep the invariants: total = without VAT + VAT; rows sum to the totals; gross − discount = without VAT', () => {
    fc.assert(
      fc.property(draftArb, ({ draft }) => {
        const { totals: t, taxRates } = computeInvoice(draft);
        expect(t.TotalAmountOC.eq(t.TotalAmountWithoutVATOC.plus(t.TotalVATAmountOC))).toBe(true);
        const base = taxRates.reduce((a, r) => a.plus(r.AmountWithoutVATOC), t.TotalAmountOC.times(0));
        const vat = taxRates.reduce((a, r) => a.plus(r.VATAmountOC), t.TotalAmountOC.times(0));
        expect(base.eq(t.TotalAmountWithoutVATOC)).toBe(true);
        expect(vat.eq(t.TotalVATAmountOC)).toBe(true);
        expect(t.grossAmountOC.minus(t.TotalDiscountAmountOC).eq(t.TotalAmountWithoutVATOC)).toBe(true);
        // one row per rate
        expect(new Set(taxRates.map((r) => r.VATRateName)).size).toBe(taxRates.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('serialise to JSON numbers without binary-float drift; the JSON totals keep the invariants exactly', () => {
    fc.assert(
      fc.property(draftArb, ({ draft, dec }) => {
        const data = JSON.parse(JSON.stringify(serialiseDraft(draft))) as ReturnType<typeof serialiseDraft>;
        const ref = reference(draft, dec);
        expect(minor(data.TotalAmountOC, dec)).toBe(ref.total);
        expect(minor(data.TotalVATAmountOC, dec)).toBe(ref.vat);
        expect(minor(data.TotalAmountWithoutVATOC, dec)).toBe(ref.without);
        expect(minor(data.TotalDiscountAmountOC, dec)).toBe(ref.discount);
        const rowsBase = data.TaxRateInfo.reduce((a, r) => a + minor(r.AmountWithoutVATOC, dec), 0n);
        const rowsVat = data.TaxRateInfo.reduce((a, r) => a + minor(r.VATAmountOC, dec), 0n);
        expect([rowsBase, rowsVat]).toEqual([ref.without, ref.vat]);
        data.OriginalInvoiceDetail.forEach((l, i) => {
          expect(minor(l.AmountOC!, dec)).toBe(ref.lines[i]!.amount);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('parse ∘ serialise is the identity', () => {
    fc.assert(
      fc.property(draftArb, ({ draft }) => {
        const data1 = serialiseDraft(draft);
        const parsed = InvoiceDataSchema.parse(JSON.parse(JSON.stringify(data1)));
        const draft2 = draftFromInvoiceData(parsed);
        const data2 = serialiseDraft(draft2);
        expect(data2).toEqual(data1);
        // The typed values come back as the same numbers.
        draft2.lines.forEach((l, i) => {
          const o = draft.lines[i]!;
          expect(l.ItemType).toBe(o.ItemType);
          expect(l.ItemName).toBe(o.ItemName);
          if (o.ItemType !== 4) {
            expect(Number(l.Quantity || '0')).toBe(Number(o.Quantity || '0'));
            expect(Number(l.UnitPrice || '0')).toBe(Number(o.UnitPrice || '0'));
          }
        });
        // Hand-typed VAT stays edited through the trip.
        const c1 = computeInvoice(draft);
        const c2 = computeInvoice(draft2);
        expect(c2.taxRates.map((r) => [r.VATRateName, r.VATAmountOC.toFixed(), r.edited && !r.VATAmountOC.eq(r.computedVATAmountOC)])).toEqual(
          c1.taxRates.map((r) => [r.VATRateName, r.VATAmountOC.toFixed(), r.edited && !r.VATAmountOC.eq(r.computedVATAmountOC)]),
        );
        expect(draft2.extra).toEqual(draft.extra && Object.keys(draft.extra).length ? draft.extra : undefined);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the reference itself', () => {
  it('agrees with a hand computation', () => {
    // 3 × 15 500 = 46 500; 5 % = 2 325; net 44 175; VAT 10 % = 4 417.5 → 4 418
    const d = emptyDraft({
      RefID: 'x',
      InvDate: '2025-01-01',
      lines: [
        {
          ItemType: 1,
          ItemCode: '',
          ItemName: 'a',
          UnitName: '',
          Quantity: '3',
          UnitPrice: '15500',
          DiscountRate: '5',
          DiscountAmountOC: '',
          discountBy: 'rate',
          VATRateName: '10%',
        },
      ],
    });
    const r = reference(d, 0);
    expect([r.lines[0]!.amount, r.lines[0]!.discount, r.lines[0]!.net, r.lines[0]!.vat, r.total]).toEqual([46500n, 2325n, 44175n, 4418n, 48593n]);
    expect(roundDiv(-5n, 2n)).toBe(-3n);
  });
});
