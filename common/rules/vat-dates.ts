/**
 * The drafting check for rates that move with the calendar (tax-rules.ts): a line whose VAT
 * label is outside its legal window on InvDate gets a warning naming the window and the rate
 * to use instead. A warning, not an error: the table may lag behind a new decree, and the
 * service has the last word (`TaxReductionDateInValid`).
 */
import { problem, type Problem } from './problem';
import { isCalendarDate } from './date';
import { VAT_RATE_RULES, vatRateOnDate, type VatRateRule } from './tax-rules';
import { carriesAmounts } from '../money/formulas';
import type { DraftLine, InvoiceDraft } from '../money/draft';

/** Tells goods under excise tax (from the shop's catalogue): reduced rates do not apply to them. */
export type ExciseGoodsTest = (line: DraftLine) => boolean;

export function vatDateProblems(draft: InvoiceDraft, table: readonly VatRateRule[] = VAT_RATE_RULES, isExcise?: ExciseGoodsTest): Problem[] {
  if (typeof draft.InvDate !== 'string' || !isCalendarDate(draft.InvDate)) return [];
  const out: Problem[] = [];
  draft.lines.forEach((line, i) => {
    if (!carriesAmounts(line.ItemType) || typeof line.VATRateName !== 'string' || line.VATRateName.trim() === '') return;
    const j = vatRateOnDate(line.VATRateName, draft.InvDate, { excise: isExcise?.(line) === true }, table);
    if (j.status !== 'outside') return;
    const n = i + 1;
    const r = j.rule;
    const instead = j.suggested ? { en: ` Use ${j.suggested}.`, vi: ` Hãy dùng ${j.suggested}.` } : { en: '', vi: '' };
    const msg =
      j.reason === 'excluded'
        ? { en: `Line ${n}: ${r.label} does not apply to goods under excise tax (${r.source}).`, vi: `Dòng ${n}: thuế suất ${r.label} không áp dụng cho hàng hóa chịu thuế tiêu thụ đặc biệt (${r.source}).` }
        : j.reason === 'ended'
          ? { en: `Line ${n}: ${r.label} applied until ${r.to} (${r.source}); the invoice date is ${draft.InvDate}.`, vi: `Dòng ${n}: thuế suất ${r.label} chỉ áp dụng đến hết ngày ${r.to} (${r.source}); ngày hóa đơn là ${draft.InvDate}.` }
          : { en: `Line ${n}: ${r.label} applies only from ${r.from} (${r.source}); the invoice date is ${draft.InvDate}.`, vi: `Dòng ${n}: thuế suất ${r.label} chỉ áp dụng từ ngày ${r.from} (${r.source}); ngày hóa đơn là ${draft.InvDate}.` };
    out.push(problem(['lines', i, 'VATRateName'], `vat.${j.reason === 'excluded' ? 'excluded' : 'outsideWindow'}`, { en: msg.en + instead.en, vi: msg.vi + instead.vi }, 'warning'));
  });
  return out;
}
