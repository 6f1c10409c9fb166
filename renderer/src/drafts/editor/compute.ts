/**
 * computeInvoice, made cheap per keystroke: each line's result is memoised by the line object
 * (the store replaces only the line being typed in), so a keystroke in a 200-line draft costs one
 * computeLine plus the sums. Produces the same figures as common/money's computeInvoice (a unit
 * test checks them against each other).
 */
import {
  Dec,
  ZERO,
  amountInWords,
  computeLine,
  normaliseCurrencyCode,
  readDecimal,
  roundingRuleFor,
  rowVAT,
  signed,
  toVND,
  totalAmount,
  vatSortKey,
  type ComputeOptions,
  type ComputedInvoice,
  type ComputedLine,
  type ComputedTaxRate,
  type Decimal,
  type DraftLine,
  type InvoiceDraft,
  type RoundingRule,
  type VatRate,
} from './money';

interface RowAcc {
  key: string;
  vat: VatRate | null;
  base: Decimal;
  tax: Decimal;
}

export class IncrementalCompute {
  private cache = new WeakMap<DraftLine, ComputedLine>();
  private ruleKey = '';

  compute(draft: InvoiceDraft, options: ComputeOptions = {}): ComputedInvoice {
    const currency = normaliseCurrencyCode(draft.CurrencyCode);
    const rule: RoundingRule = roundingRuleFor(currency, options);
    const key = `${rule.decimals}|${rule.mode}|${rule.rateDecimals}`;
    if (key !== this.ruleKey) {
      this.cache = new WeakMap();
      this.ruleKey = key;
    }
    const lines: ComputedLine[] = new Array<ComputedLine>(draft.lines.length);
    const rows = new Map<string, RowAcc>();
    let gross = ZERO;
    let discountTotal = ZERO;
    for (let i = 0; i < draft.lines.length; i++) {
      const line = draft.lines[i]!;
      let c = this.cache.get(line);
      if (!c || c.index !== i) {
        c = computeLine(line, i, rule);
        this.cache.set(line, c);
      }
      lines[i] = c;
      if (c.sign === 0) continue;
      if (c.sign === 1) {
        gross = gross.plus(c.AmountOC);
        discountTotal = discountTotal.plus(c.DiscountAmountOC);
      } else {
        discountTotal = discountTotal.plus(c.AmountWithoutVATOC);
      }
      let row = rows.get(c.rowKey);
      if (!row) {
        row = { key: c.rowKey, vat: c.vat, base: ZERO, tax: ZERO };
        rows.set(c.rowKey, row);
      }
      row.base = row.base.plus(signed(c.AmountWithoutVATOC, c.sign));
      row.tax = row.tax.plus(signed(c.VATAmountOC, c.sign));
    }
    const overrides = draft.vatOverrides ?? {};
    const used = new Set<string>();
    const taxRates: ComputedTaxRate[] = [];
    let totalWithoutVAT = ZERO;
    let totalVAT = ZERO;
    const sorted = [...rows.values()].sort((a, b) => {
      if (!a.vat || !b.vat) return (a.vat ? 0 : 1) - (b.vat ? 0 : 1);
      const ka = vatSortKey(a.vat);
      const kb = vatSortKey(b.vat);
      return ka[0] - kb[0] || ka[1] - kb[1];
    });
    for (const row of sorted) {
      const text = overrides[row.key];
      let override: Decimal | null = null;
      let overrideInvalid = false;
      if (text !== undefined) {
        used.add(row.key);
        const r = readDecimal(text);
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
    return {
      currency,
      rule,
      exchangeRate,
      exchangeRateInvalid: ex.invalid,
      lines,
      taxRates,
      totals: {
        TotalAmountWithoutVATOC: totalWithoutVAT,
        TotalVATAmountOC: totalVAT,
        TotalDiscountAmountOC: discountTotal,
        TotalAmountOC: total,
        grossAmountOC: gross,
        TotalAmountVND: toVND(total, exchangeRate, rule.mode),
      },
      words: amountInWords(total, currency, { decimals: rule.decimals, ...options.words }),
      unusedOverrides: Object.keys(overrides).filter((k) => !used.has(k)),
    };
  }
}
