/**
 * Validates an invoice draft and returns EVERY problem at once (never stops at the first),
 * each located by a path such as `lines[3].Quantity` (0-based; messages say "line 4"), with an
 * English and a Vietnamese message and a severity: `error` blocks sending, `warning` does not.
 */
import { computeInvoice, type ComputeOptions, type ComputedInvoice } from '../money/compute';
import { fitsJsonNumber, readDecimal, type Decimal } from '../money/decimal';
import { dotStyleFor, formatTyped, parseTyped, refusedText, type DotStyle } from '../money/parse';
import { parseVatLabel } from '../money/vat';
import { carriesAmounts, allowsLineDiscount } from '../money/formulas';
import type { InvoiceDraft } from '../money/draft';
import { ITEM_TYPES } from '../model/invoice';
import { problem, type Problem } from '../rules/problem';
import { checkTaxCode } from '../rules/taxcode';
import { parseSeries, seriesYearMismatch } from '../rules/series';
import { isEmail, splitEmails } from '../rules/email';
import { isCalendarDate, vietnamToday } from '../rules/date';
import { isUuid } from '../rules/refid';
import { requiredFieldProblems } from '../rules/required';
import { buyerIdentityProblems } from '../rules/buyer-ids';
import { vatDateProblems, type ExciseGoodsTest } from '../rules/vat-dates';
import type { VatRateRule } from '../rules/tax-rules';
import { correctionProblems, ReferenceType } from '../model/correction';

export type { Problem, Severity } from '../rules/problem';

export interface ValidateOptions extends ComputeOptions {
  /** The current instant (injected for tests); "today" is taken in Vietnam. */
  now?: Date;
  /** A result of computeInvoice for this draft, to avoid computing twice. */
  computed?: ComputedInvoice;
  /** The dated VAT rate table (default VAT_RATE_RULES), e.g. a newer one delivered with an update. */
  taxRules?: readonly VatRateRule[];
  /** Tells goods under excise tax (reduced VAT rates do not apply to them); default none. */
  isExciseGoods?: ExciseGoodsTest;
  /** Kept across calls by a caller that validates the same draft as it is edited (see LineProblemCache). */
  lineCache?: LineProblemCache;
}

/**
 * Each line's own problems, memoised by the line object: they depend only on the line, its computed
 * result (memoised the same way), its index, the currency and whether the invoice is an adjustment.
 */
export class LineProblemCache {
  private readonly byLine = new WeakMap<object, { key: string; computed: object; problems: Problem[] }>();

  problemsOf(draft: InvoiceDraft, computed: ComputedInvoice, i: number): Problem[] {
    const line = draft.lines[i]!;
    const key = `${i}|${computed.currency}|${draft.correction?.ReferenceType ?? ''}`;
    const c = computed.lines[i]!;
    const kept = this.byLine.get(line);
    if (kept && kept.key === key && kept.computed === c) return kept.problems;
    const problems: Problem[] = [];
    validateLine(draft, computed, i, problems);
    this.byLine.set(line, { key, computed: c, problems });
    return problems;
  }
}

export interface ValidationResult {
  ok: boolean;
  problems: Problem[];
  errors: Problem[];
  warnings: Problem[];
  computed: ComputedInvoice;
}

/** The typed figures of a draft, as messages name them. */
export const FIGURE_NAMES: Readonly<Record<string, { en: string; vi: string }>> = {
  Quantity: { en: 'quantity', vi: 'số lượng' },
  UnitPrice: { en: 'unit price', vi: 'đơn giá' },
  DiscountRate: { en: 'discount rate', vi: 'tỷ lệ chiết khấu' },
  DiscountAmountOC: { en: 'discount amount', vi: 'tiền chiết khấu' },
  ExchangeRate: { en: 'exchange rate', vi: 'tỷ giá' },
};

export function validateDraft(draft: InvoiceDraft, options: ValidateOptions = {}): ValidationResult {
  const computed = options.computed ?? computeInvoice(draft, options);
  const p: Problem[] = [];

  p.push(...requiredFieldProblems(draft, computed));
  p.push(...buyerIdentityProblems(draft));
  p.push(...correctionProblems(draft));
  // An adjustment's lines carry the differences, so they (and its totals) may be negative.
  const adjusting = draft.correction?.ReferenceType === ReferenceType.Adjustment;

  if (draft.RefID.trim() !== '' && !isUuid(draft.RefID)) {
    p.push(problem(['RefID'], 'refId.format', { en: 'RefID must be a UUID.', vi: 'RefID phải có dạng UUID.' }));
  }

  if (draft.InvSeries.trim() !== '') {
    const s = parseSeries(draft.InvSeries);
    if (!s.ok) p.push(problem(['InvSeries'], s.code, { en: s.message, vi: s.messageVi }));
    else {
      const w = seriesYearMismatch(s, draft.InvDate);
      if (w) p.push(problem(['InvSeries'], 'series.year', { en: w.message, vi: w.messageVi }, 'warning'));
    }
  }

  if (draft.InvDate.trim() !== '') {
    if (!isCalendarDate(draft.InvDate)) {
      p.push(
        problem(['InvDate'], 'date.format', {
          en: 'The invoice date must be a real date YYYY-MM-DD.',
          vi: 'Ngày hóa đơn phải là ngày hợp lệ dạng YYYY-MM-DD.',
        }),
      );
    } else {
      const today = vietnamToday(options.now);
      if (draft.InvDate > today) {
        p.push(
          problem(['InvDate'], 'date.future', {
            en: `The invoice date ${draft.InvDate} is after today (${today}, Vietnam time).`,
            vi: `Ngày hóa đơn ${draft.InvDate} sau ngày hôm nay (${today}, giờ Việt Nam).`,
          }),
        );
      }
    }
  }

  if (draft.CurrencyCode.trim() !== '' && !/^[A-Za-z]{3}$/.test(draft.CurrencyCode.trim())) {
    p.push(
      problem(['CurrencyCode'], 'currency.format', {
        en: 'The currency must be a 3-letter code such as VND or USD.',
        vi: 'Loại tiền phải là mã 3 chữ cái như VND hoặc USD.',
      }),
    );
  }
  const exchangeTyped = typedProblem(draft.ExchangeRate, 'thousands');
  if (exchangeTyped) {
    p.push(problem(['ExchangeRate'], exchangeTyped.code, { en: `Exchange rate: ${exchangeTyped.en}`, vi: `Tỷ giá: ${exchangeTyped.vi}` }));
  } else if (computed.exchangeRateInvalid || computed.exchangeRate.lte(0)) {
    p.push(problem(['ExchangeRate'], 'exchangeRate.invalid', { en: 'The exchange rate must be a positive number.', vi: 'Tỷ giá phải là số dương.' }));
  } else if (computed.currency === 'VND' && !computed.exchangeRate.eq(1)) {
    p.push(
      problem(['ExchangeRate'], 'exchangeRate.vnd', { en: 'An invoice in VND has exchange rate 1.', vi: 'Hóa đơn bằng VND có tỷ giá bằng 1.' }, 'warning'),
    );
  }

  if (draft.BuyerTaxCode.trim() !== '') {
    const t = checkTaxCode(draft.BuyerTaxCode);
    if (!t.ok) p.push(problem(['BuyerTaxCode'], t.code, { en: t.message, vi: t.messageVi }));
  }
  if (draft.BuyerEmail.trim() !== '') {
    const list = splitEmails(draft.BuyerEmail);
    if (list.addresses.length > 1) {
      p.push(problem(['BuyerEmail'], 'email.single', { en: 'The buyer email holds one address only.', vi: 'Email người mua chỉ chứa một địa chỉ.' }));
    } else if (!isEmail(draft.BuyerEmail)) {
      p.push(
        problem(['BuyerEmail'], 'email.format', {
          en: `"${draft.BuyerEmail.trim()}" is not a valid email address.`,
          vi: `"${draft.BuyerEmail.trim()}" không phải địa chỉ email hợp lệ.`,
        }),
      );
    }
  }

  if (draft.lines.length === 0) {
    p.push(problem(['lines'], 'lines.empty', { en: 'The invoice has no lines.', vi: 'Hóa đơn chưa có dòng hàng nào.' }));
  }
  if (options.lineCache) {
    for (let i = 0; i < draft.lines.length; i++) for (const x of options.lineCache.problemsOf(draft, computed, i)) p.push(x);
  } else draft.lines.forEach((_line, i) => validateLine(draft, computed, i, p));
  p.push(...vatDateProblems(draft, options.taxRules, options.isExciseGoods));
  // Negative rows/totals caused by a wrong line are not reported twice.
  const lineErrors = p.some((x) => x.severity === 'error' && x.path.startsWith('lines['));

  computed.taxRates.forEach((row, i) => {
    const typed = typedProblem(draft.vatOverrides[row.VATRateName] ?? '', dotStyleFor('amount', computed.currency));
    if (typed) {
      p.push(
        problem(['taxRates', i, 'VATAmountOC'], typed.code, {
          en: `VAT amount for ${row.VATRateName}: ${typed.en}`,
          vi: `Tiền thuế ${row.VATRateName}: ${typed.vi}`,
        }),
      );
    } else if (row.overrideInvalid) {
      p.push(
        problem(['taxRates', i, 'VATAmountOC'], 'vat.overrideInvalid', {
          en: `The VAT amount typed for ${row.VATRateName} is not a number.`,
          vi: `Tiền thuế nhập cho ${row.VATRateName} không phải là số.`,
        }),
      );
    } else if (row.edited && !row.VATAmountOC.eq(row.computedVATAmountOC)) {
      p.push(
        problem(
          ['taxRates', i, 'VATAmountOC'],
          'vat.edited',
          {
            en: `The VAT for ${row.VATRateName} was edited by hand: ${shownAmount(row.VATAmountOC, computed)} instead of ${shownAmount(row.computedVATAmountOC, computed)}.`,
            vi: `Tiền thuế ${row.VATRateName} đã được sửa tay: ${shownAmount(row.VATAmountOC, computed)} thay vì ${shownAmount(row.computedVATAmountOC, computed)}.`,
          },
          'warning',
        ),
      );
    }
    if (!lineErrors && !adjusting && row.VATAmountOC.isNegative() && !row.VATAmountOC.isZero()) {
      p.push(
        problem(['taxRates', i, 'VATAmountOC'], 'vat.negative', {
          en: `The VAT for ${row.VATRateName} is negative.`,
          vi: `Tiền thuế ${row.VATRateName} bị âm.`,
        }),
      );
    }
  });
  for (const key of computed.unusedOverrides) {
    p.push(
      problem(
        ['vatOverrides', key],
        'vat.overrideUnused',
        {
          en: `A VAT amount typed for ${key} no longer matches any line and is ignored.`,
          vi: `Tiền thuế nhập tay cho ${key} không còn dòng hàng nào tương ứng và bị bỏ qua.`,
        },
        'warning',
      ),
    );
  }

  const t = computed.totals;
  if (!lineErrors && !adjusting && t.TotalAmountOC.isNegative() && !t.TotalAmountOC.isZero()) {
    p.push(
      problem(['TotalAmountOC'], 'total.negative', {
        en: 'The invoice total is negative: the trade discounts exceed the goods.',
        vi: 'Tổng tiền thanh toán bị âm: chiết khấu thương mại lớn hơn tiền hàng.',
      }),
    );
  }
  for (const [field, value] of Object.entries(t) as [string, Decimal][]) {
    if (!fitsJsonNumber(value)) {
      p.push(problem([field], 'amount.tooLarge', { en: `${field} is too large to send exactly.`, vi: `${field} quá lớn để gửi chính xác.` }));
    }
  }

  const errors = p.filter((x) => x.severity === 'error');
  const warnings = p.filter((x) => x.severity === 'warning');
  return { ok: errors.length === 0, problems: p, errors, warnings, computed };
}

/** An amount in a message, written as the screen shows it (`7.200`). */
function shownAmount(value: Decimal, computed: ComputedInvoice): string {
  return formatTyped(value, { dot: dotStyleFor('amount', computed.currency), decimals: computed.rule.decimals });
}

/** The parser's own explanation for a value it refused when it was typed (kept marked in the draft). */
function typedProblem(stored: string, dot: DotStyle): { code: string; en: string; vi: string } | null {
  const raw = refusedText(stored);
  if (raw === null) return null;
  const r = parseTyped(raw, { dot });
  if (r.kind === 'refused') return r;
  // Read fine in another style (the currency changed since): still not a stored number.
  return { code: 'number.retype', en: `"${raw}" needs to be typed again.`, vi: `"${raw}" cần nhập lại.` };
}

function validateLine(draft: InvoiceDraft, computed: ComputedInvoice, i: number, p: Problem[]): void {
  const line = draft.lines[i]!;
  const c = computed.lines[i]!;
  const n = i + 1;
  const at = (field: string) => ['lines', i, field];
  const adjusting = draft.correction?.ReferenceType === ReferenceType.Adjustment;

  if (!(ITEM_TYPES as readonly number[]).includes(line.ItemType)) {
    p.push(
      problem(at('ItemType'), 'line.itemType', {
        en: `Line ${n}: unknown item type ${String(line.ItemType)}.`,
        vi: `Dòng ${n}: loại dòng ${String(line.ItemType)} không hợp lệ.`,
      }),
    );
    return;
  }
  if (line.ItemName.trim() === '') {
    p.push(problem(at('ItemName'), 'line.itemName', { en: `Line ${n}: the item name is required.`, vi: `Dòng ${n}: cần nhập tên hàng hóa, dịch vụ.` }));
  }
  if (line.ItemType === 4) return; // a note line carries no amounts

  for (const f of c.invalid) {
    const name = FIGURE_NAMES[f]!;
    const style = f === 'Quantity' || f === 'DiscountRate' ? 'either' : dotStyleFor('amount', computed.currency);
    const typed = typedProblem(line[f], style);
    if (typed) {
      p.push(problem(at(f), typed.code, { en: `Line ${n}, ${name.en}: ${typed.en}`, vi: `Dòng ${n}, ${name.vi}: ${typed.vi}` }));
      continue;
    }
    p.push(
      problem(at(f), 'line.number', {
        en: `Line ${n}: the ${name.en} "${line[f]}" is not a number.`,
        vi: `Dòng ${n}: ${name.vi} "${line[f]}" không phải là số.`,
      }),
    );
  }
  const q = readDecimal(line.Quantity);
  if (!q.invalid) {
    if (q.blank || q.value.isZero()) {
      if (carriesAmounts(line.ItemType)) {
        p.push(problem(at('Quantity'), 'line.quantityZero', { en: `Line ${n}: the quantity is zero.`, vi: `Dòng ${n}: số lượng bằng 0.` }, 'warning'));
      }
    } else if (q.value.isNegative() && !adjusting) {
      p.push(problem(at('Quantity'), 'line.negative', { en: `Line ${n}: the quantity cannot be negative.`, vi: `Dòng ${n}: số lượng không được âm.` }));
    }
  }
  const u = readDecimal(line.UnitPrice);
  if (!u.invalid && !adjusting && u.value.isNegative() && !u.value.isZero()) {
    p.push(
      problem(at('UnitPrice'), 'line.negative', {
        en: `Line ${n}: the unit price cannot be negative (use a trade-discount line).`,
        vi: `Dòng ${n}: đơn giá không được âm (hãy dùng dòng chiết khấu thương mại).`,
      }),
    );
  }
  if (allowsLineDiscount(line.ItemType)) {
    // Only the field the cashier typed is judged; the derived one follows from it.
    if (line.discountBy !== 'amount' && (c.DiscountRate.isNegative() || c.DiscountRate.gt(100))) {
      p.push(
        problem(at('DiscountRate'), 'line.discountRate', {
          en: `Line ${n}: the discount rate must be between 0 and 100%.`,
          vi: `Dòng ${n}: tỷ lệ chiết khấu phải từ 0 đến 100%.`,
        }),
      );
    }
    if (c.DiscountAmountOC.isNegative() && !c.DiscountAmountOC.isZero()) {
      p.push(
        problem(at('DiscountAmountOC'), 'line.negative', {
          en: `Line ${n}: the discount amount cannot be negative.`,
          vi: `Dòng ${n}: tiền chiết khấu không được âm.`,
        }),
      );
    } else if (line.discountBy === 'amount' && !c.AmountOC.isNegative() && c.DiscountAmountOC.gt(c.AmountOC)) {
      p.push(
        problem(at('DiscountAmountOC'), 'line.discountTooLarge', {
          en: `Line ${n}: the discount is larger than the amount.`,
          vi: `Dòng ${n}: tiền chiết khấu lớn hơn thành tiền.`,
        }),
      );
    }
  }
  const label = line.VATRateName.trim();
  if (label === '') {
    if (carriesAmounts(line.ItemType)) {
      p.push(problem(at('VATRateName'), 'line.vatRequired', { en: `Line ${n}: choose a VAT rate.`, vi: `Dòng ${n}: cần chọn thuế suất.` }));
    }
  } else if (!parseVatLabel(label)) {
    p.push(
      problem(at('VATRateName'), 'line.vatLabel', {
        en: `Line ${n}: VAT rate "${label}" is not one of 0%, 5%, 8%, 10%, KCT, KKKNT, KHAC:x%.`,
        vi: `Dòng ${n}: thuế suất "${label}" không thuộc 0%, 5%, 8%, 10%, KCT, KKKNT, KHAC:x%.`,
      }),
    );
  }
  for (const [field, value] of [
    ['Quantity', c.Quantity],
    ['UnitPrice', c.UnitPrice],
    ['AmountOC', c.AmountOC],
  ] as const) {
    if (!fitsJsonNumber(value)) {
      p.push(
        problem(at(field), 'amount.tooLarge', {
          en: `Line ${n}: ${field} has too many digits to send exactly.`,
          vi: `Dòng ${n}: ${field} có quá nhiều chữ số để gửi chính xác.`,
        }),
      );
    }
  }
}
