import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeInvoice, emptyDraft, emptyLine, IncrementalCompute, type DraftLine, type InvoiceDraft } from '../../../common/money';

const plain = (c: ReturnType<typeof computeInvoice>) =>
  JSON.parse(JSON.stringify(c, (_k, v: unknown) => (v && typeof v === 'object' && 'toFixed' in v ? String(v) : v)));

const lineArb: fc.Arbitrary<DraftLine> = fc
  .record({
    type: fc.constantFrom(1, 2, 3, 4, 5) as fc.Arbitrary<1 | 2 | 3 | 4 | 5>,
    q: fc.oneof(fc.integer({ min: 0, max: 50 }).map(String), fc.constant(''), fc.constant('1.5'), fc.constant('x')),
    p: fc.oneof(fc.integer({ min: 0, max: 2_000_000 }).map(String), fc.constant('')),
    d: fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 100 }).map(String)),
    vat: fc.constantFrom('0%', '5%', '8%', '10%', 'KCT', 'KKKNT', 'KHAC:3.5%', '', '7'),
  })
  .map(({ type, q, p, d, vat }) => ({ ...emptyLine(type), ItemName: 'x', Quantity: q, UnitPrice: p, DiscountRate: d, VATRateName: type === 4 ? '' : vat }));

const fresh = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A 1 000-line draft of goods at three VAT rates. */
function longDraft(): InvoiceDraft {
  const lines = Array.from({ length: 1000 }, (_, i) => ({
    ...emptyLine(1),
    ItemName: `m${i}`,
    Quantity: String(1 + (i % 7)),
    UnitPrice: String(10_000 + i * 137),
    VATRateName: ['8%', '10%', '5%'][i % 3]!,
  }));
  return emptyDraft({ RefID: 'r', InvDate: '2026-01-01', lines });
}

describe('IncrementalCompute', () => {
  it.each(['identity', 'content'] as const)('gives exactly what computeInvoice gives, across a sequence of single-line edits (lines found by %s)', (memo) => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { minLength: 0, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), lineArb), { maxLength: 12 }),
        fc.constantFrom('VND', 'USD'),
        fc.constantFrom(undefined, 1, 2, 3, 5),
        (lines, edits, currency, blockSize) => {
          const engine = new IncrementalCompute(blockSize, memo);
          // By content, every compute gets the draft as a save brings it: parsed anew.
          const given = (d: InvoiceDraft) => (memo === 'content' ? fresh(d) : d);
          let draft: InvoiceDraft = emptyDraft({
            RefID: 'r',
            InvDate: '2026-01-01',
            CurrencyCode: currency,
            ExchangeRate: currency === 'VND' ? '1' : '25000',
            lines,
          });
          expect(plain(engine.compute(given(draft)))).toEqual(plain(computeInvoice(draft)));
          for (const [at, line] of edits) {
            const next = draft.lines.slice();
            if (next.length === 0 || at % 3 === 0) next.splice(at % (next.length + 1), 0, line);
            else next[at % next.length] = line;
            draft = { ...draft, lines: next, vatOverrides: at % 5 === 0 ? { '10%': '123' } : {} };
            expect(plain(engine.compute(given(draft)))).toEqual(plain(computeInvoice(draft)));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps one block of sums when one line of a long draft changes, and still totals like computeInvoice', () => {
    let draft = longDraft();
    const engine = new IncrementalCompute();
    engine.compute(draft);
    for (const [at, q] of [
      [999, '12'],
      [0, '3'],
      [500, 'abc'],
      [999, ''],
    ] as const) {
      const next = draft.lines.slice();
      next[at] = { ...next[at]!, Quantity: q };
      draft = { ...draft, lines: next };
      expect(plain(engine.compute(draft))).toEqual(plain(computeInvoice(draft)));
    }
  });

  it('by content, a draft parsed anew with one line changed computes that line alone, and keeps no line it no longer has', () => {
    const draft = longDraft();
    const engine = new IncrementalCompute(undefined, 'content');
    const first = engine.compute(fresh(draft));
    const changed = fresh(draft);
    changed.lines[999] = { ...changed.lines[999]!, Quantity: '12' };
    const second = engine.compute(changed);
    expect(second.lines.filter((l, i) => l !== first.lines[i]).map((l) => l.index)).toEqual([999]);
    expect(plain(second)).toEqual(plain(computeInvoice(changed)));
    // The line put back as it was is computed again: the memo held only the draft's current lines.
    const third = engine.compute(fresh(draft));
    expect(third.lines[999]).not.toBe(first.lines[999]);
    expect(third.lines[998]).toBe(first.lines[998]);
  });
});
