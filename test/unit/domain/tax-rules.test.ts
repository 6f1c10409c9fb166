/** The dated VAT rate table, its lookups and the drafting warning. */
import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine, type DraftLine, type InvoiceDraft } from '../../../common/money';
import { VAT_RATE_RULES, lineVatFix, suggestVatRate, vatChoicesOn, vatLabelsOn, vatRateOnDate, vatRulesOn, type VatRateRule } from '../../../common/rules';
import { validateDraft } from '../../../common/validation';

const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), ItemName: 'Hàng', UnitPrice: '100000', ...o });
function draft(date: string, lines: DraftLine[]): InvoiceDraft {
  return emptyDraft({ RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b', InvDate: date, InvSeries: `1C${date.slice(2, 4)}TAA`, lines });
}
const at = (date: string) => ({ now: new Date(`${date}T03:00:00Z`) });

describe('VAT_RATE_RULES', () => {
  it('every row has a legal source and well-formed dates; the current window is 2025-07-01 → 2026-12-31', () => {
    for (const r of VAT_RATE_RULES) {
      expect(r.source.length).toBeGreaterThan(5);
      expect(r.sourceVi.length).toBeGreaterThan(5);
      for (const d of [r.from, r.to]) if (d !== null) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (r.from && r.to) expect(r.from <= r.to).toBe(true);
    }
    const current = VAT_RATE_RULES.find((r) => r.id === 'reduced-8-2025h2-2026')!;
    expect(current).toMatchObject({ label: '8%', from: '2025-07-01', to: '2026-12-31', instead: '10%', excludes: ['excise'] });
    expect(current.source).toContain('204/2025/QH15');
    expect(current.source).toContain('174/2025');
    // reduced windows never overlap
    const reduced = VAT_RATE_RULES.filter((r) => r.label === '8%').sort((a, b) => a.from!.localeCompare(b.from!));
    for (let i = 1; i < reduced.length; i++) expect(reduced[i - 1]!.to! < reduced[i]!.from!).toBe(true);
  });

  it('labels valid on a date', () => {
    expect(vatLabelsOn('2026-12-31')).toEqual(['0%', '5%', '10%', 'KCT', 'KKKNT', '8%']);
    expect(vatLabelsOn('2027-01-01')).toEqual(['0%', '5%', '10%', 'KCT', 'KKKNT']);
    expect(vatLabelsOn('2026-06-01', { excise: true })).toEqual(['0%', '5%', '10%', 'KCT', 'KKKNT']);
    expect(vatLabelsOn('2023-03-01')).not.toContain('8%'); // the first half of 2023 had no reduction
    expect(vatRulesOn(' 8 % ', '2025-07-01').map((r) => r.id)).toEqual(['reduced-8-2025h2-2026']);
    expect(vatRulesOn('8%', '2025-06-30').map((r) => r.id)).toEqual(['reduced-8-2025h1']);
  });

  it('judges a label on a date: valid, ended (naming the end), not yet, excluded goods, unknown', () => {
    expect(vatRateOnDate('8%', '2026-12-31').status).toBe('valid');
    expect(vatRateOnDate('8%', '2027-01-01')).toMatchObject({ status: 'outside', reason: 'ended', suggested: '10%', rule: { to: '2026-12-31' } });
    expect(vatRateOnDate('8%', '2022-01-15')).toMatchObject({ status: 'outside', reason: 'notYet', rule: { from: '2022-02-01' } });
    expect(vatRateOnDate('8%', '2023-03-01')).toMatchObject({ status: 'outside', reason: 'ended', rule: { to: '2022-12-31' } });
    expect(vatRateOnDate('8%', '2026-01-10', { excise: true })).toMatchObject({ status: 'outside', reason: 'excluded', suggested: '10%' });
    expect(vatRateOnDate('10%', '2030-01-01').status).toBe('valid');
    expect(vatRateOnDate('KHAC:3.5%', '2030-01-01').status).toBe('unknown');
  });

  it('suggests the valid rate for a date (for the line grid)', () => {
    expect(suggestVatRate('8%', '2027-01-05')).toMatchObject({ label: '10%', optional: false });
    expect(suggestVatRate('8%', '2026-06-01')).toMatchObject({ label: '8%', optional: false });
    expect(suggestVatRate('10%', '2026-06-01')).toMatchObject({ label: '8%', optional: true, rule: { id: 'reduced-8-2025h2-2026' } });
    expect(suggestVatRate('10%', '2026-06-01', { excise: true })).toMatchObject({ label: '10%', optional: false });
    expect(suggestVatRate('10%', '2027-01-05')).toMatchObject({ label: '10%', optional: false });
    expect(suggestVatRate('5%', '2026-06-01')).toMatchObject({ label: '5%', optional: false });
  });

  it('the line grid offers the rates valid on InvDate and the fix for a line outside its window', () => {
    expect(vatChoicesOn('2026-12-31')).toEqual(['0%', '5%', '8%', '10%', 'KCT', 'KKKNT']);
    expect(vatChoicesOn('2027-01-05')).toEqual(['0%', '5%', '10%', 'KCT', 'KKKNT']);
    expect(vatChoicesOn('2027-02-30')).toEqual(['0%', '5%', '8%', '10%', 'KCT', 'KKKNT']); // not a date yet: all
    expect(lineVatFix(line({ VATRateName: '8 %' }), '2027-01-05')).toBe('10%');
    expect(lineVatFix(line({ VATRateName: '8%' }), '2026-12-31')).toBeNull();
    expect(lineVatFix(line({ VATRateName: '10%' }), '2027-01-05')).toBeNull();
    expect(lineVatFix(line({ ItemType: 4, VATRateName: '8%' }), '2027-01-05')).toBeNull();
    expect(lineVatFix(line({ VATRateName: '8%' }), '')).toBeNull();
    const extended: VatRateRule[] = [
      ...VAT_RATE_RULES,
      {
        id: 'reduced-8-2027',
        label: '8%',
        from: '2027-01-01',
        to: '2027-12-31',
        instead: '10%',
        source: 'a future resolution',
        sourceVi: 'một nghị quyết sau này',
      },
    ];
    expect(lineVatFix(line({ VATRateName: '8%' }), '2027-01-05', extended)).toBeNull();
    expect(vatChoicesOn('2027-01-05', extended)).toContain('8%');
  });

  it('a new row in the table, not a code change, handles the next extension', () => {
    const extended: VatRateRule[] = [
      ...VAT_RATE_RULES,
      {
        id: 'reduced-8-2027',
        label: '8%',
        from: '2027-01-01',
        to: '2027-12-31',
        instead: '10%',
        excludes: ['excise'],
        source: 'a future resolution',
        sourceVi: 'một nghị quyết sau này',
      },
    ];
    expect(vatRateOnDate('8%', '2027-01-05', {}, extended).status).toBe('valid');
    expect(vatLabelsOn('2027-01-05', {}, extended)).toContain('8%');
    const d = draft('2027-01-05', [line({ VATRateName: '8%' })]);
    expect(validateDraft(d, { ...at('2027-01-05'), taxRules: extended }).warnings.map((p) => p.code)).not.toContain('vat.outsideWindow');
    expect(validateDraft(d, at('2027-01-05')).warnings.map((p) => p.code)).toContain('vat.outsideWindow');
  });
});

describe('validateDraft: rates outside their window', () => {
  it('an 8 % line dated 2026-12-31 passes; one dated 2027-01-01 is warned', () => {
    const ok = validateDraft(draft('2026-12-31', [line({ VATRateName: '8%' })]), at('2026-12-31'));
    expect(ok.problems).toEqual([]);
    const late = validateDraft(draft('2027-01-01', [line({ VATRateName: '8%' })]), at('2027-01-01'));
    expect(late.ok).toBe(true); // a warning does not block
    expect(late.warnings).toHaveLength(1);
    expect(late.warnings[0]).toMatchObject({ path: 'lines[0].VATRateName', code: 'vat.outsideWindow', severity: 'warning' });
  });

  it('InvDate 2027-01-05 with 8 %: the warning names the date it ended and the rate to use, in both languages', () => {
    const r = validateDraft(draft('2027-01-05', [line({ VATRateName: '10%' }), line({ VATRateName: '8 %' })]), at('2027-01-05'));
    const w = r.warnings.find((p) => p.code === 'vat.outsideWindow')!;
    expect(w.path).toBe('lines[1].VATRateName');
    expect(w.message).toContain('2026-12-31');
    expect(w.message).toContain('Use 10%');
    expect(w.message).toMatch(/^Line 2: /);
    expect(w.messageVi).toContain('2026-12-31');
    expect(w.messageVi).toContain('Dòng 2');
    expect(w.messageVi).toContain('Nghị quyết 204/2025/QH15; Nghị định 174/2025/NĐ-CP');
    expect(r.warnings.filter((p) => p.code.startsWith('vat.'))).toHaveLength(1);
  });

  it('excise goods get a warning for 8 % even inside the window; notes and promotions are not judged', () => {
    const d = draft('2026-06-01', [
      line({ ItemCode: 'BIA', VATRateName: '8%' }),
      line({ ItemCode: 'GAO', VATRateName: '8%' }),
      line({ ItemType: 4, VATRateName: '8%', Quantity: '', UnitPrice: '' }),
    ]);
    const r = validateDraft(d, { ...at('2026-06-01'), isExciseGoods: (l) => l.ItemCode === 'BIA' });
    expect(r.warnings.map((p) => [p.path, p.code])).toEqual([['lines[0].VATRateName', 'vat.excluded']]);
    expect(r.warnings[0]!.messageVi).toContain('tiêu thụ đặc biệt');
    const promo = draft('2027-02-01', [line({ ItemType: 2, VATRateName: '8%' })]);
    expect(validateDraft(promo, at('2027-02-01')).warnings.map((p) => p.code)).not.toContain('vat.outsideWindow');
  });

  it('an unreadable date is left to the date check', () => {
    const r = validateDraft(draft('2027-02-30', [line({ VATRateName: '8%' })]), at('2027-03-01'));
    expect(r.problems.map((p) => p.code)).toContain('date.format');
    expect(r.problems.map((p) => p.code)).not.toContain('vat.outsideWindow');
  });
});
