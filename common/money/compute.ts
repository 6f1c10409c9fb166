/**
 * Recomputes every derived amount of a draft: lines, TaxRateInfo rows, the four totals and the
 * amount in words. Linear in the number of lines and allocation-light, so it can run on every
 * keystroke. Never throws: unreadable input counts as zero and is listed in `invalid`
 * (common/validation turns that into messages).
 */
import { Dec, ZERO, readDecimal, type Decimal, type RoundingMode } from './decimal';
import { currencyDecimals, normaliseCurrencyCode, type CurrencyRounding } from './currency';
import {
  allowsLineDiscount,
  amountOC,
  amountWithoutVAT,
  carriesAmounts,
  discountFromAmount,
  discountFromRate,
  lineSign,
  lineVAT,
  rateFromDiscount,
  rowVAT,
  signed,
  totalAmount,
  toVND,
  type RoundingRule,
} from './formulas';
import { parseVatLabel, vatSortKey, type VatRate } from './vat';
import type { DraftLine, InvoiceDraft } from './draft';
import { amountInWords, type AmountInWordsOptions } from '../words';

export interface ComputeOptions extends CurrencyRounding {
  rounding?: RoundingMode;
  /** Decimals kept for a derived DiscountRate (default 4). */
  rateDecimals?: number;
  /** How TotalAmountInWords is written (default Vietnamese, "linh", "nghìn"). */
  words?: AmountInWordsOptions;
}

type DraftNumberField = 'Quantity' | 'UnitPrice' | 'DiscountRate' | 'DiscountAmountOC';

export interface ComputedLine {
  index: number;
  LineNumber: number;
  ItemType: number;
  /** +1 counts, −1 subtracts (trade discount), 0 carries nothing (promotion, note). */
  sign: 1 | 0 | -1;
  Quantity: Decimal;
  UnitPrice: Decimal;
  DiscountRate: Decimal;
  DiscountAmountOC: Decimal;
  AmountOC: Decimal;
  AmountWithoutVATOC: Decimal;
  VATAmountOC: Decimal;
  /** Parsed VATRateName; null when blank or not an allowed label. */
  vat: VatRate | null;
  /** The label the line's amounts are filed under in TaxRateInfo (normalised when valid). */
  rowKey: string;
  /** Number fields whose text could not be read (counted as zero). */
  invalid: DraftNumberField[];
}

export interface ComputedTaxRate {
  VATRateName: string;
  vat: VatRate | null;
  AmountWithoutVATOC: Decimal;
  VATAmountOC: Decimal;
  /** What the formula gives; differs from VATAmountOC only when edited. */
  computedVATAmountOC: Decimal;
  /** True while a hand-typed VAT amount is in force for this row. */
  edited: boolean;
  /** True when the override text could not be read (the computed amount is used). */
  overrideInvalid: boolean;
}

interface InvoiceTotals {
  TotalAmountWithoutVATOC: Decimal;
  TotalVATAmountOC: Decimal;
  TotalDiscountAmountOC: Decimal;
  TotalAmountOC: Decimal;
  /** Σ AmountOC of counted goods lines (before discounts). */
  grossAmountOC: Decimal;
  /** TotalAmountOC converted with ExchangeRate, whole đồng. */
  TotalAmountVND: Decimal;
}

export interface ComputedInvoice {
  currency: string;
  rule: RoundingRule;
  exchangeRate: Decimal;
  exchangeRateInvalid: boolean;
  lines: ComputedLine[];
  taxRates: ComputedTaxRate[];
  totals: InvoiceTotals;
  /** TotalAmountInWords. */
  words: string;
  /** vatOverrides keys that match no row (stale after lines changed). */
  unusedOverrides: string[];
}

export function roundingRuleFor(currency: string, options: ComputeOptions = {}): RoundingRule {
  return {
    decimals: currencyDecimals(currency, options),
    mode: options.rounding ?? 'half-up',
    rateDecimals: options.rateDecimals ?? 4,
  };
}

export function computeLine(line: DraftLine, index: number, rule: RoundingRule): ComputedLine {
  const invalid: DraftNumberField[] = [];
  const read = (field: DraftNumberField): Decimal => {
    const r = readDecimal(line[field]);
    if (r.invalid) invalid.push(field);
    return r.value;
  };
  const sign = lineSign(line.ItemType);
  const vat = parseVatLabel(line.VATRateName);
  const rowKey = vat ? vat.label : line.VATRateName.trim();
  const quantity = read('Quantity');
  const unitPrice = read('UnitPrice');
  const typedRate = read('DiscountRate');
  const typedDiscount = read('DiscountAmountOC');

  let amount = ZERO;
  let discount = ZERO;
  let rate = ZERO;
  if (carriesAmounts(line.ItemType)) {
    amount = amountOC(quantity, unitPrice, rule);
    if (allowsLineDiscount(line.ItemType)) {
      if (line.discountBy === 'amount') {
        discount = discountFromAmount(typedDiscount, rule);
        rate = rateFromDiscount(amount, discount, rule);
      } else {
        rate = typedRate;
        discount = discountFromRate(amount, rate, rule);
      }
    }
  }
  const withoutVAT = amountWithoutVAT(amount, discount);
  const vatAmount = carriesAmounts(line.ItemType) ? lineVAT(withoutVAT, vat?.rate ?? null, rule) : ZERO;
  return {
    index,
    LineNumber: index + 1,
    ItemType: line.ItemType,
    sign,
    Quantity: quantity,
    UnitPrice: unitPrice,
    DiscountRate: rate,
    DiscountAmountOC: discount,
    AmountOC: amount,
    AmountWithoutVATOC: withoutVAT,
    VATAmountOC: vatAmount,
    vat,
    rowKey,
    invalid,
  };
}

interface RowAcc {
  key: string;
  vat: VatRate | null;
  base: Decimal;
  tax: Decimal;
}

/**
 * What computeInvoice adds up over a run of computed lines: the gross and discount totals and the
 * TaxRateInfo rows in order of first appearance. Sums of consecutive runs merge into the sums of
 * the whole (decimal addition is exact), so a caller may keep them per block of lines.
 */
export interface LineSums {
  gross: Decimal;
  discount: Decimal;
  rows: ReadonlyMap<string, Readonly<RowAcc>>;
}

export function sumLines(lines: readonly ComputedLine[], from = 0, to = lines.length): LineSums {
  const rows = new Map<string, RowAcc>();
  let gross = ZERO;
  let discount = ZERO;
  for (let i = from; i < to; i++) {
    const c = lines[i]!;
    if (c.sign === 0) continue;
    if (c.sign === 1) {
      gross = gross.plus(c.AmountOC);
      discount = discount.plus(c.DiscountAmountOC);
    } else {
      discount = discount.plus(c.AmountWithoutVATOC);
    }
    let row = rows.get(c.rowKey);
    if (!row) {
      row = { key: c.rowKey, vat: c.vat, base: ZERO, tax: ZERO };
      rows.set(c.rowKey, row);
    }
    row.base = row.base.plus(signed(c.AmountWithoutVATOC, c.sign));
    row.tax = row.tax.plus(signed(c.VATAmountOC, c.sign));
  }
  return { gross, discount, rows };
}

/** The sums of consecutive runs, in order, as one (the inputs are left untouched). */
export function mergeLineSums(parts: readonly LineSums[]): LineSums {
  const rows = new Map<string, RowAcc>();
  let gross = ZERO;
  let discount = ZERO;
  for (const part of parts) {
    gross = gross.plus(part.gross);
    discount = discount.plus(part.discount);
    for (const r of part.rows.values()) {
      const row = rows.get(r.key);
      if (row) {
        row.base = row.base.plus(r.base);
        row.tax = row.tax.plus(r.tax);
      } else rows.set(r.key, { ...r });
    }
  }
  return { gross, discount, rows };
}

/** Computes one line; the renderer passes a memoising one so a keystroke recomputes one line. */
type LineComputer = (line: DraftLine, index: number, rule: RoundingRule) => ComputedLine;

export function computeInvoice(draft: InvoiceDraft, options: ComputeOptions = {}, lineFor: LineComputer = computeLine): ComputedInvoice {
  const rule = roundingRuleFor(normaliseCurrencyCode(draft.CurrencyCode), options);
  const lines: ComputedLine[] = new Array<ComputedLine>(draft.lines.length);
  for (let i = 0; i < draft.lines.length; i++) lines[i] = lineFor(draft.lines[i]!, i, rule);
  return finishInvoice(draft, options, lines, sumLines(lines));
}

/** The rest of computeInvoice once the lines are computed and summed: TaxRateInfo, totals, words. */
export function finishInvoice(draft: InvoiceDraft, options: ComputeOptions, lines: ComputedLine[], sums: LineSums): ComputedInvoice {
  const currency = normaliseCurrencyCode(draft.CurrencyCode);
  const rule = roundingRuleFor(currency, options);
  const overrides = draft.vatOverrides ?? {};
  const usedOverrides = new Set<string>();
  const taxRates: ComputedTaxRate[] = [];
  let totalWithoutVAT = ZERO;
  let totalVAT = ZERO;
  for (const row of sortRows([...sums.rows.values()])) {
    const overrideText = overrides[row.key];
    let override: Decimal | null = null;
    let overrideInvalid = false;
    if (overrideText !== undefined) {
      usedOverrides.add(row.key);
      const r = readDecimal(overrideText);
      if (r.invalid || r.blank) overrideInvalid = r.invalid;
      else override = r.value;
    }
    const vatAmount = rowVAT(row.tax, override, rule);
    taxRates.push({
      VATRateName: row.key,
      vat: row.vat,
      AmountWithoutVATOC: row.base,
      VATAmountOC: vatAmount,
      computedVATAmountOC: row.tax,
      edited: override !== null,
      overrideInvalid,
    });
    totalWithoutVAT = totalWithoutVAT.plus(row.base);
    totalVAT = totalVAT.plus(vatAmount);
  }

  const ex = readDecimal(draft.ExchangeRate);
  const exchangeRate = ex.blank || ex.invalid ? new Dec(1) : ex.value;
  const total = totalAmount(totalWithoutVAT, totalVAT);
  const totals: InvoiceTotals = {
    TotalAmountWithoutVATOC: totalWithoutVAT,
    TotalVATAmountOC: totalVAT,
    TotalDiscountAmountOC: sums.discount,
    TotalAmountOC: total,
    grossAmountOC: sums.gross,
    TotalAmountVND: toVND(total, exchangeRate, rule.mode),
  };
  return {
    currency,
    rule,
    exchangeRate,
    exchangeRateInvalid: ex.invalid,
    lines,
    taxRates,
    totals,
    words: amountInWords(total, currency, { decimals: rule.decimals, ...options.words }),
    unusedOverrides: Object.keys(overrides).filter((k) => !usedOverrides.has(k)),
  };
}

function sortRows(rows: Readonly<RowAcc>[]): Readonly<RowAcc>[] {
  return rows.sort((a, b) => {
    // Unparseable labels go last, in the order they appeared.
    if (!a.vat || !b.vat) return (a.vat ? 0 : 1) - (b.vat ? 0 : 1);
    const ka = vatSortKey(a.vat);
    const kb = vatSortKey(b.vat);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}
