import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockSums, computeLine, emptyLine, mergeLineSums, roundingRuleFor, sumLines, type DraftLine, type LineSums } from '../../../common/money';

const rule = roundingRuleFor('VND');
const plain = (s: LineSums) => ({
  gross: s.gross.toString(),
  discount: s.discount.toString(),
  rows: [...s.rows.values()].map((r) => [r.key, r.vat?.label ?? null, r.base.toString(), r.tax.toString()]),
});

const lineArb: fc.Arbitrary<DraftLine> = fc
  .record({
    type: fc.constantFrom(1, 2, 3, 4, 5) as fc.Arbitrary<1 | 2 | 3 | 4 | 5>,
    q: fc.oneof(fc.integer({ min: 0, max: 50 }).map(String), fc.constant('1.5'), fc.constant('x')),
    p: fc.oneof(fc.integer({ min: 0, max: 2_000_000 }).map(String), fc.constant('')),
    vat: fc.constantFrom('0%', '5%', '8%', '10%', 'KCT', 'KHAC:3.5%', '', '7'),
  })
  .map(({ type, q, p, vat }) => ({ ...emptyLine(type), ItemName: 'x', Quantity: q, UnitPrice: p, VATRateName: type === 4 ? '' : vat }));

describe('line sums in blocks', () => {
  it('merging the sums of consecutive runs gives the sums of the whole, rows in first-seen order', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 5 }), (drafts, cuts) => {
        const lines = drafts.map((l, i) => computeLine(l, i, rule));
        const at = [...new Set(cuts.map((c) => c % (lines.length + 1)))].sort((a, b) => a - b);
        const bounds = [0, ...at, lines.length];
        const parts = bounds.slice(1).map((to, k) => sumLines(lines, bounds[k], to));
        expect(plain(mergeLineSums(parts))).toEqual(plain(sumLines(lines)));
      }),
      { numRuns: 200 },
    );
  });

  it('BlockSums equals a full sum after random single-line edits, inserts and removals', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 30 }),
        fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'remove'), fc.nat(), lineArb), { maxLength: 10 }),
        fc.integer({ min: 1, max: 6 }),
        (drafts, edits, size) => {
          const sums = new BlockSums(size);
          let lines = drafts.map((l, i) => computeLine(l, i, rule));
          expect(plain(sums.sum(lines))).toEqual(plain(sumLines(lines)));
          for (const [kind, at, line] of edits) {
            const next = lines.slice();
            const i = at % (next.length + 1);
            if (kind === 'insert' || next.length === 0) next.splice(i, 0, computeLine(line, i, rule));
            else if (kind === 'remove') next.splice(i % next.length, 1);
            else next[i % next.length] = computeLine(line, i % next.length, rule);
            lines = next;
            expect(plain(sums.sum(lines))).toEqual(plain(sumLines(lines)));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('does not change a kept block when merged', () => {
    const lines = [computeLine({ ...emptyLine(1), Quantity: '2', UnitPrice: '100', VATRateName: '10%' }, 0, rule)];
    const part = sumLines(lines);
    mergeLineSums([part, part]);
    expect(plain(part).rows).toEqual([['10%', '10%', '200', '20']]);
  });
});
