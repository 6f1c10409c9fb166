/**
 * The issuing form of InvoiceData: everything preview sends (serialiseDraft), plus the
 * converted amounts, SortOrder, OptionUserDefined, IsInvoiceSummary and the optional email to
 * the buyer. Every figure follows the shop's decimal digits: typed figures (quantity, unit
 * price, discount rate, exchange rate) are rounded to their digits BEFORE computing, so the
 * sums hold for what is sent; `changed` lists every typed figure that rounding altered, which
 * checkForIssue turns into errors (nothing is issued silently different from what was typed).
 */
import { fitsJsonNumber, readDecimal, toWireNumber, type Decimal } from './decimal';
import { computeInvoice, type ComputeOptions, type ComputedInvoice } from './compute';
import { currencyDecimals } from './currency';
import { convertAmount, roundToDigits } from './formulas';
import { serialiseDraft } from './serialise';
import type { DraftLine, InvoiceDraft } from './draft';
import type { DecimalDigits, IssuingInvoiceData, IssuingLine } from '../model/issuing';
import { splitEmails } from '../rules/email';

export interface IssuingOptions extends ComputeOptions {
  /** Digits per kind of number from the shop's settings; a kind left out keeps the draft's figures as typed. */
  digits?: Partial<DecimalDigits>;
  /** The chosen template: its IsSendSummary becomes IsInvoiceSummary. */
  template?: { IsSendSummary?: boolean | null } | null;
  /** Ask the service to email the buyer once issued (the shop's choice). */
  sendEmail?: { name: string; email: string } | null;
  /** TotalAmountInWords typed by hand on the drafting screen; otherwise the words are derived. */
  typedWords?: string | null;
}

export interface DigitsChange {
  /** e.g. `['lines', 2, 'Quantity']`, `['ExchangeRate']`. */
  path: (string | number)[];
  typed: string;
  sent: string;
  digits: number;
}

export interface IssuingForm {
  data: IssuingInvoiceData;
  digits: DecimalDigits;
  /** The draft as issued (typed figures rounded to their digits). */
  draft: InvoiceDraft;
  computed: ComputedInvoice;
  changed: DigitsChange[];
  /** Converted amounts (field names, `lines[i].Amount` …) too large to send exactly as JSON numbers. */
  inexact: string[];
}

const maxPlaces = (values: Iterable<string>): number => {
  let m = 0;
  for (const v of values) {
    const r = readDecimal(v);
    if (!r.invalid && !r.blank) m = Math.max(m, r.value.decimalPlaces());
  }
  return m;
};

/** The digits used for a draft: the settings where given, else what the draft needs as typed. */
export function issuingDigits(draft: InvoiceDraft, options: IssuingOptions = {}): DecimalDigits {
  const d: Partial<DecimalDigits> = {};
  // A setting outside 0–15 (a JSON number keeps 15 significant digits) is not used.
  for (const [k, v] of Object.entries(options.digits ?? {}) as [keyof DecimalDigits, unknown][]) {
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 15) d[k] = v;
  }
  const counted = draft.lines.filter((l) => l.ItemType !== 4);
  return {
    QuantityDecimalDigits: d.QuantityDecimalDigits ?? maxPlaces(counted.map((l) => l.Quantity)),
    UnitPriceOCDecimalDigits: d.UnitPriceOCDecimalDigits ?? maxPlaces(counted.map((l) => l.UnitPrice)),
    AmountOCDecimalDigits: d.AmountOCDecimalDigits ?? currencyDecimals(draft.CurrencyCode, options),
    AmountDecimalDigits: d.AmountDecimalDigits ?? 0,
    // Typed rates as typed; derived ones (discount typed as an amount) at rateDecimals.
    CoefficientDecimalDigits:
      d.CoefficientDecimalDigits ??
      Math.max(
        maxPlaces(counted.filter((l) => l.discountBy !== 'amount').map((l) => l.DiscountRate)),
        counted.some((l) => l.discountBy === 'amount') ? (options.rateDecimals ?? 4) : 0,
      ),
    ExchangRateDecimalDigits: d.ExchangRateDecimalDigits ?? maxPlaces([draft.ExchangeRate]),
  };
}

/** Rounds the typed figures of a draft to the digits; returns the same objects where nothing changes. */
function roundTyped(draft: InvoiceDraft, digits: DecimalDigits, options: IssuingOptions, changed: DigitsChange[]): InvoiceDraft {
  const mode = options.rounding ?? 'half-up';
  const fix = (text: string, n: number, path: (string | number)[]): string => {
    // Fast path: no more decimals written than allowed, so nothing to round.
    const dot = text.indexOf('.');
    if (dot < 0 || text.trimEnd().length - dot - 1 <= n) return text;
    const r = readDecimal(text);
    if (r.invalid || r.blank) return text;
    const rounded = roundToDigits(r.value, n, mode);
    if (rounded.eq(r.value)) return text;
    const sent = rounded.toFixed();
    changed.push({ path, typed: text.trim(), sent, digits: n });
    return sent;
  };
  let lines: DraftLine[] | null = null;
  draft.lines.forEach((l, i) => {
    if (l.ItemType === 4) return;
    const q = fix(l.Quantity, digits.QuantityDecimalDigits, ['lines', i, 'Quantity']);
    const u = fix(l.UnitPrice, digits.UnitPriceOCDecimalDigits, ['lines', i, 'UnitPrice']);
    const rate = l.discountBy === 'amount' ? l.DiscountRate : fix(l.DiscountRate, digits.CoefficientDecimalDigits, ['lines', i, 'DiscountRate']);
    const amount = l.discountBy === 'amount' ? fix(l.DiscountAmountOC, digits.AmountOCDecimalDigits, ['lines', i, 'DiscountAmountOC']) : l.DiscountAmountOC;
    if (q === l.Quantity && u === l.UnitPrice && rate === l.DiscountRate && amount === l.DiscountAmountOC) return;
    lines ??= draft.lines.slice();
    lines[i] = { ...l, Quantity: q, UnitPrice: u, DiscountRate: rate, DiscountAmountOC: amount };
  });
  const ex = fix(draft.ExchangeRate, digits.ExchangRateDecimalDigits, ['ExchangeRate']);
  if (!lines && ex === draft.ExchangeRate) return draft;
  return { ...draft, lines: lines ?? draft.lines, ExchangeRate: ex };
}

/** Builds the issuing form of a draft. Pure; linear in the number of lines. */
export function issuingForm(draft: InvoiceDraft, options: IssuingOptions = {}): IssuingForm {
  const digits = issuingDigits(draft, options);
  const changed: DigitsChange[] = [];
  const issued = roundTyped(draft, digits, options, changed);
  const computeOptions: ComputeOptions = { ...options, decimals: digits.AmountOCDecimalDigits, rateDecimals: digits.CoefficientDecimalDigits };
  const computed = computeInvoice(issued, computeOptions);
  const base = serialiseDraft(issued, computeOptions, computed);
  const mode = computeOptions.rounding ?? 'half-up';
  const rate = computed.exchangeRate;
  const inexact: string[] = [];
  // Below 10^15 units a number of ≤ 15 significant digits survives JSON exactly: skip the full check.
  const exactBelow = 1e15 / 10 ** digits.AmountDecimalDigits;
  const conv = (amountOC: Decimal, name: string, line = -1): number => {
    const v = convertAmount(amountOC, rate, digits.AmountDecimalDigits, mode);
    const n = toWireNumber(v);
    if (!(Math.abs(n) < exactBelow) && !fitsJsonNumber(v)) inexact.push(line < 0 ? name : `lines[${line}].${name}`);
    return n;
  };

  let sortOrder = 0;
  // The lines serialiseDraft just made are ours: completed in place rather than copied.
  const lines = base.OriginalInvoiceDetail as IssuingLine[];
  lines.forEach((line, i) => {
    const c = computed.lines[i]!;
    line.SortOrder = c.ItemType !== 3 && c.ItemType !== 4 ? ++sortOrder : null;
    line.Amount = conv(c.AmountOC, 'Amount', i);
    line.DiscountAmount = conv(c.DiscountAmountOC, 'DiscountAmount', i);
    line.AmountWithoutVAT = conv(c.AmountWithoutVATOC, 'AmountWithoutVAT', i);
    line.VATAmountOC = toWireNumber(c.VATAmountOC);
    line.VATAmount = conv(c.VATAmountOC, 'VATAmount', i);
    line.VATRateName = c.ItemType === 4 ? null : (line.VATRateName ?? null);
  });

  const t = computed.totals;
  const data: IssuingInvoiceData = {
    ...base,
    OriginalInvoiceDetail: lines,
    TotalSaleAmountOC: toWireNumber(t.grossAmountOC),
    TotalSaleAmount: conv(t.grossAmountOC, 'TotalSaleAmount'),
    TotalAmountWithoutVAT: conv(t.TotalAmountWithoutVATOC, 'TotalAmountWithoutVAT'),
    TotalVATAmount: conv(t.TotalVATAmountOC, 'TotalVATAmount'),
    TotalDiscountAmount: conv(t.TotalDiscountAmountOC, 'TotalDiscountAmount'),
    TotalAmount: conv(t.TotalAmountOC, 'TotalAmount'),
    OptionUserDefined: { ...digits, MainCurrency: 'VND' },
    IsInvoiceSummary: options.template?.IsSendSummary === true,
  };
  if (typeof options.typedWords === 'string') data.TotalAmountInWords = options.typedWords.trim();
  if (options.sendEmail) {
    data.IsSendEmail = true;
    data.ReceiverName = options.sendEmail.name.trim();
    data.ReceiverEmail = splitEmails(options.sendEmail.email).normalised;
  }
  return { data, digits, draft: issued, computed, changed, inexact };
}
