/**
 * computeInvoice, made cheap per keystroke: each line's result is memoised by the line object
 * (the store replaces only the line being typed in), so a keystroke in a 200-line draft costs one
 * computeLine plus the sums. It is common/money's computeInvoice itself, given a memoising line
 * step, so the figures cannot drift from main's (a property test also compares the two).
 */
import {
  computeInvoice,
  computeLine,
  normaliseCurrencyCode,
  roundingRuleFor,
  type ComputeOptions,
  type ComputedInvoice,
  type ComputedLine,
  type DraftLine,
  type InvoiceDraft,
} from './money';

export class IncrementalCompute {
  private cache = new WeakMap<DraftLine, ComputedLine>();
  private ruleKey = '';

  compute(draft: InvoiceDraft, options: ComputeOptions = {}): ComputedInvoice {
    const rule = roundingRuleFor(normaliseCurrencyCode(draft.CurrencyCode), options);
    const key = `${rule.decimals}|${rule.mode}|${rule.rateDecimals}`;
    if (key !== this.ruleKey) {
      this.cache = new WeakMap();
      this.ruleKey = key;
    }
    return computeInvoice(draft, options, (line, index, lineRule) => {
      let computed = this.cache.get(line);
      if (!computed || computed.index !== index) {
        computed = computeLine(line, index, lineRule);
        this.cache.set(line, computed);
      }
      return computed;
    });
  }
}
