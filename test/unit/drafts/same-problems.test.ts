import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine } from '../../../common/money';
import { sameProblems } from '../../../common/rules';
import { LineProblemCache, validateDraft } from '../../../common/validation';

const NOW = new Date('2026-06-01T03:00:00Z');

describe('sameProblems', () => {
  it('a check of an unchanged draft says the same; a changed figure or wording does not', () => {
    const draft = emptyDraft({ RefID: '', InvDate: '2026-05-01', lines: [{ ...emptyLine(1), ItemName: 'Bút bi', Quantity: 'x', UnitPrice: '25000' }] });
    const a = validateDraft(draft, { now: NOW }).problems;
    // Two fresh checks: equal lists of different objects.
    const b = validateDraft(draft, { now: NOW }).problems;
    expect(a.length).toBeGreaterThan(0);
    expect(a[0]).not.toBe(b[0]);
    expect(sameProblems(a, b)).toBe(true);

    const fixed = validateDraft({ ...draft, lines: [{ ...draft.lines[0]!, Quantity: '2' }] }, { now: NOW }).problems;
    expect(sameProblems(a, fixed)).toBe(false);
    expect(sameProblems(a, [...a].reverse())).toBe(a.length === 1);
    expect(
      sameProblems(
        a,
        a.map((p) => ({ ...p, messageVi: `${p.messageVi}!` })),
      ),
    ).toBe(false);
    expect(
      sameProblems(
        a,
        a.map((p) => ({ ...p, severity: p.severity === 'error' ? ('warning' as const) : ('error' as const) })),
      ),
    ).toBe(false);
    expect(sameProblems([], [])).toBe(true);
  });

  it('with the line cache, a pause that changed nothing keeps the very same problems', () => {
    const cache = new LineProblemCache();
    const draft = emptyDraft({ RefID: '', InvDate: '2026-05-01', lines: [{ ...emptyLine(1), ItemName: '', Quantity: '1,5,', UnitPrice: '' }] });
    const a = validateDraft(draft, { now: NOW, lineCache: cache }).problems;
    const b = validateDraft({ ...draft }, { now: NOW, lineCache: cache }).problems;
    expect(sameProblems(a, b)).toBe(true);
  });
});
