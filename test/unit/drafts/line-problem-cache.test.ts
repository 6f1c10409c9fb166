import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine, type DraftLine, type InvoiceDraft } from '../../../common/money';
import { LineProblemCache, validateDraft } from '../../../common/validation';
import { IncrementalCompute } from '../../../common/money';

const NOW = new Date('2026-06-01T03:00:00Z');

const lineArb: fc.Arbitrary<DraftLine> = fc
  .record({
    type: fc.constantFrom(1, 2, 3, 4, 5) as fc.Arbitrary<1 | 2 | 3 | 4 | 5>,
    name: fc.constantFrom('', 'Bút bi'),
    q: fc.constantFrom('', '0', '2', '-1', '1.5', 'x', '?25.00', '?1.500'),
    p: fc.constantFrom('', '0', '25000', '-5', '1e40', '?1,5'),
    d: fc.constantFrom('', '5', '150'),
    vat: fc.constantFrom('0%', '8%', '10%', 'KCT', 'KHAC:3.5%', '', '7'),
  })
  .map(({ type, name, q, p, d, vat }) => ({ ...emptyLine(type), ItemName: name, Quantity: q, UnitPrice: p, DiscountRate: d, VATRateName: vat }));

describe('LineProblemCache', () => {
  it('validating with the cache, edit after edit, gives exactly what a fresh validation gives', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 15 }),
        fc.array(fc.tuple(fc.constantFrom('set', 'insert', 'remove', 'currency', 'adjust'), fc.nat(), lineArb), { maxLength: 10 }),
        (lines, edits) => {
          const cache = new LineProblemCache();
          const engine = new IncrementalCompute(4);
          let draft: InvoiceDraft = emptyDraft({ RefID: '', InvDate: '2026-05-01', lines });
          const check = () => {
            const cached = validateDraft(draft, { now: NOW, computed: engine.compute(draft), lineCache: cache });
            expect(cached.problems).toEqual(validateDraft(draft, { now: NOW }).problems);
          };
          check();
          for (const [kind, at, line] of edits) {
            const next = draft.lines.slice();
            const i = at % (next.length + 1);
            if (kind === 'insert' || next.length === 0) next.splice(i, 0, line);
            else if (kind === 'remove') next.splice(i % next.length, 1);
            else if (kind === 'set') next[i % next.length] = line;
            draft = { ...draft, lines: next };
            if (kind === 'currency') draft = { ...draft, CurrencyCode: draft.CurrencyCode === 'USD' ? 'VND' : 'USD', ExchangeRate: '25000' };
            if (kind === 'adjust') draft = { ...draft, correction: draft.correction ? undefined : ({ ReferenceType: 2 } as InvoiceDraft['correction']) };
            check();
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
