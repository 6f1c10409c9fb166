/**
 * computeInvoice, made cheap per keystroke: each line's result is memoised by the line object
 * (the store replaces only the line being typed in) and the sums are kept per block of lines, so a
 * keystroke in a 1 000-line draft costs one computeLine, one block's additions and the merge. It is
 * common/money's own steps (computeLine, sumLines, finishInvoice), so the figures cannot drift from
 * main's (a property test also compares the two).
 */
import {
  BlockSums,
  computeLine,
  finishInvoice,
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
  private readonly sums: BlockSums;

  constructor(blockSize?: number) {
    this.sums = new BlockSums(blockSize);
  }

  compute(draft: InvoiceDraft, options: ComputeOptions = {}): ComputedInvoice {
    const rule = roundingRuleFor(normaliseCurrencyCode(draft.CurrencyCode), options);
    const key = `${rule.decimals}|${rule.mode}|${rule.rateDecimals}`;
    if (key !== this.ruleKey) {
      this.cache = new WeakMap();
      this.sums.reset();
      this.ruleKey = key;
    }
    const lines = new Array<ComputedLine>(draft.lines.length);
    for (let i = 0; i < draft.lines.length; i++) {
      const line = draft.lines[i]!;
      let computed = this.cache.get(line);
      if (!computed || computed.index !== i) {
        computed = computeLine(line, i, rule);
        this.cache.set(line, computed);
      }
      lines[i] = computed;
    }
    return finishInvoice(draft, options, lines, this.sums.sum(lines));
  }
}
