/**
 * The drafting check for rates that move with the calendar (tax-rules.ts): a line whose VAT
 * label is outside its legal window on InvDate gets a warning naming the window and the rate
 * to use instead. A warning, not an error: the table may lag behind a new decree, and the
 * service has the last word (`TaxReductionDateInValid`).
 */
import { problem, type Problem } from './problem';
import { isCalendarDate } from './date';
import { VAT_RATE_RULES, vatRateOnDate, type VatRateOnDate, type VatRateRule } from './tax-rules';
import { carriesAmounts } from '../money/formulas';
import { STANDARD_VAT_LABELS } from '../money/vat';
import type { DraftLine, InvoiceDraft } from '../money/draft';

/** Tells goods under excise tax (from the shop's catalogue): reduced rates do not apply to them. */
export type ExciseGoodsTest = (line: DraftLine) => boolean;

/** A line's VAT label judged on the invoice date; null when there is nothing to judge. */
function judgeLine(line: DraftLine, invDate: string, table: readonly VatRateRule[], isExcise?: ExciseGoodsTest): VatRateOnDate | null {
  if (typeof invDate !== 'string' || !isCalendarDate(invDate)) return null;
  if (!carriesAmounts(line.ItemType) || typeof line.VATRateName !== 'string' || line.VATRateName.trim() === '') return null;
  return vatRateOnDate(line.VATRateName, invDate, { excise: isExcise?.(line) === true }, table);
}

/** For the line grid: the rate to use instead of a line's label outside its window on InvDate (`8%` → `10%`), else null. */
export function lineVatFix(line: DraftLine, invDate: string, table: readonly VatRateRule[] = VAT_RATE_RULES, isExcise?: ExciseGoodsTest): string | null {
  const j = judgeLine(line, invDate, table, isExcise);
  return j?.status === 'outside' ? j.suggested : null;
}

/** The standard labels the line grid offers on InvDate: a dated rate only inside its window (any date not yet readable: all). */
export function vatChoicesOn(invDate: string, table: readonly VatRateRule[] = VAT_RATE_RULES): string[] {
  if (typeof invDate !== 'string' || !isCalendarDate(invDate)) return [...STANDARD_VAT_LABELS];
  return STANDARD_VAT_LABELS.filter((label) => vatRateOnDate(label, invDate, {}, table).status !== 'outside');
}

export function vatDateProblems(draft: InvoiceDraft, table: readonly VatRateRule[] = VAT_RATE_RULES, isExcise?: ExciseGoodsTest): Problem[] {
  const out: Problem[] = [];
  draft.lines.forEach((line, i) => {
    const j = judgeLine(line, draft.InvDate, table, isExcise);
    if (j?.status !== 'outside') return;
    const n = i + 1;
    const r = j.rule;
    const instead = j.suggested ? { en: ` Use ${j.suggested}.`, vi: ` Hãy dùng ${j.suggested}.` } : { en: '', vi: '' };
    const msg =
      j.reason === 'excluded'
        ? {
            en: `Line ${n}: ${r.label} does not apply to goods under excise tax (${r.source}).`,
            vi: `Dòng ${n}: thuế suất ${r.label} không áp dụng cho hàng hóa chịu thuế tiêu thụ đặc biệt (${r.sourceVi}).`,
          }
        : j.reason === 'ended'
          ? {
              en: `Line ${n}: ${r.label} applied until ${r.to} (${r.source}); the invoice date is ${draft.InvDate}.`,
              vi: `Dòng ${n}: thuế suất ${r.label} chỉ áp dụng đến hết ngày ${r.to} (${r.sourceVi}); ngày hóa đơn là ${draft.InvDate}.`,
            }
          : {
              en: `Line ${n}: ${r.label} applies only from ${r.from} (${r.source}); the invoice date is ${draft.InvDate}.`,
              vi: `Dòng ${n}: thuế suất ${r.label} chỉ áp dụng từ ngày ${r.from} (${r.sourceVi}); ngày hóa đơn là ${draft.InvDate}.`,
            };
    out.push(
      problem(
        ['lines', i, 'VATRateName'],
        `vat.${j.reason === 'excluded' ? 'excluded' : 'outsideWindow'}`,
        { en: msg.en + instead.en, vi: msg.vi + instead.vi },
        'warning',
      ),
    );
  });
  return out;
}
