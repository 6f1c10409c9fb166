/** Corrections: reference fields built from an issued record, never typed; their validation. */
import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine, type DraftLine } from '../../../common/money';
import { correctionDraft, correctionFrom, splitOriginalSeries, ReferenceType } from '../../../common/model';
import { validateDraft } from '../../../common/validation';

const NOW = { now: new Date('2026-03-20T03:00:00Z') };
const ISSUED = {
  RefID: '3b2a1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
  TransactionID: 'TX8Q2',
  InvSeries: '1C26TAA',
  InvNo: '00000012',
  InvDate: '2026-03-01T00:00:00',
  PublishStatus: 1,
  EInvoiceStatus: 1,
};
const init = { RefID: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', InvDate: '2026-03-20', InvSeries: '1C26TAA' };
const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), ItemName: 'Cà phê', UnitPrice: '25000', ...o });

describe('correctionFrom / correctionDraft', () => {
  it('an adjustment built from series 1C26TAA carries OrgInvTemplateNo "1" and OrgInvSeries "C26TAA"', () => {
    const r = correctionDraft(ISSUED, ReferenceType.Adjustment, ' Giảm giá sau khi giao hàng ', init);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.draft.correction).toEqual({
      ReferenceType: 2,
      OrgInvoiceType: 1,
      OrgInvTemplateNo: '1',
      OrgInvSeries: 'C26TAA',
      OrgInvNo: '00000012',
      OrgInvDate: '2026-03-01',
      InvoiceNote: 'Giảm giá sau khi giao hàng',
    });
    expect([r.draft.RefID, r.draft.InvDate, r.draft.lines]).toEqual([init.RefID, '2026-03-20', []]);
  });

  it('a replacement starts from the original content; the original is not modified', () => {
    const original = emptyDraft({ RefID: 'orig', InvDate: '2026-03-01', InvSeries: '1C26TAA', BuyerLegalName: 'Công ty ABC', lines: [line({})] });
    const r = correctionDraft(ISSUED, ReferenceType.Replacement, 'Sai mã số thuế', { ...init, original });
    if (!r.ok) throw new Error(r.message);
    expect(r.draft.correction?.ReferenceType).toBe(1);
    expect([r.draft.BuyerLegalName, r.draft.lines.length, r.draft.RefID]).toEqual(['Công ty ABC', 1, init.RefID]);
    r.draft.lines[0]!.Quantity = '9';
    expect(original.lines[0]!.Quantity).toBe('1');
    expect(original.correction).toBeUndefined();
  });

  it('reads the variants of an issued record: numeric InvNo, a six-character series with InvTempl', () => {
    const r = correctionFrom({ InvSeries: 'K25TBB', InvTempl: '2', InvNo: 7, InvDate: '2025-12-31' }, 2, 'x');
    expect(r).toMatchObject({ ok: true, fields: { OrgInvTemplateNo: '2', OrgInvSeries: 'K25TBB', OrgInvNo: '00000007', OrgInvDate: '2025-12-31' } });
    expect(splitOriginalSeries('1c26taa')).toEqual({ templateNo: '1', series: 'C26TAA' });
    expect(splitOriginalSeries('C26TAA')).toBeNull();
  });

  it('refuses records that cannot be corrected, with a reason', () => {
    const code = (rec: unknown, kind: 1 | 2 = 2) => {
      const r = correctionFrom(rec, kind, 'x');
      return r.ok ? 'ok' : r.code;
    };
    expect(code({ InvSeries: '1C26TAA', InvNo: '12' })).toBe('correction.record');
    expect(code({ ...ISSUED, PublishStatus: 0 })).toBe('correction.notIssued');
    expect(code({ ...ISSUED, EInvoiceStatus: 7 })).toBe('correction.replaced');
    expect(code({ ...ISSUED, EInvoiceStatus: 8 }, 1)).toBe('correction.hasAdjustment');
    expect(code({ ...ISSUED, EInvoiceStatus: 8 }, 2)).toBe('ok');
    expect(code({ ...ISSUED, InvSeries: '1C26' })).toBe('correction.series');
    expect(code({ ...ISSUED, InvNo: '0' })).toBe('correction.number');
    expect(code({ ...ISSUED, InvDate: '2026-02-30' })).toBe('correction.date');
  });
});

describe('validating a correction draft', () => {
  function adjustment(reason: string, lines: DraftLine[]) {
    const r = correctionDraft(ISSUED, ReferenceType.Adjustment, reason, init);
    if (!r.ok) throw new Error(r.message);
    r.draft.lines = lines;
    return r.draft;
  }

  it('a reason is required', () => {
    const r = validateDraft(adjustment('  ', [line({})]), NOW);
    expect(r.errors.map((p) => [p.path, p.code])).toEqual([['correction.InvoiceNote', 'correction.reason']]);
  });

  it("an adjustment's lines may be negative (and so may its totals); an ordinary invoice's may not", () => {
    const lines = [line({ Quantity: '-2' }), line({ UnitPrice: '-5000', Quantity: '1' })];
    const adj = validateDraft(adjustment('Trả lại 2 ly, giảm giá 5.000', lines), NOW);
    expect(adj.errors).toEqual([]);
    expect(adj.computed.totals.TotalAmountOC.toFixed()).toBe('-60500');
    const plain = validateDraft(emptyDraft({ ...init, lines }), NOW);
    expect(plain.errors.map((p) => p.code)).toEqual(['line.negative', 'line.negative']);
    // A replacement is a full invoice again: no negative lines.
    const rep = correctionDraft(ISSUED, ReferenceType.Replacement, 'Sai đơn giá', init);
    if (!rep.ok) throw new Error(rep.message);
    rep.draft.lines = lines;
    expect(validateDraft(rep.draft, NOW).errors.map((p) => p.code)).toEqual(['line.negative', 'line.negative']);
  });

  it('a tampered reference or a date before the original is an error', () => {
    const d = adjustment('Sai số lượng', [line({})]);
    d.correction = { ...d.correction!, OrgInvSeries: 'C26' };
    expect(validateDraft(d, NOW).errors.map((p) => [p.path, p.code])).toEqual([['correction', 'correction.reference']]);
    const early = adjustment('Sai số lượng', [line({})]);
    early.InvDate = '2026-02-27';
    early.InvSeries = '1C26TAA';
    expect(validateDraft(early, NOW).errors.map((p) => [p.path, p.code])).toEqual([['InvDate', 'correction.date']]);
  });
});
