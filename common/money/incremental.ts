/**
 * computeInvoice made cheap for a draft that changes a line at a time: each line's result is
 * memoised and the sums are kept per block of lines, so an edit in a 1 000-line draft costs one
 * computeLine, one block's additions and the merge. These are computeInvoice's own steps
 * (computeLine, sumLines, finishInvoice), so the figures cannot drift from it (a property test
 * compares the two).
 */
import {
  computeLine,
  finishInvoice,
  mergeLineSums,
  roundingRuleFor,
  sumLines,
  type ComputeOptions,
  type ComputedInvoice,
  type ComputedLine,
  type LineSums,
} from './compute';
import { normaliseCurrencyCode } from './currency';
import type { DraftLine, InvoiceDraft } from './draft';

interface Block {
  lines: ComputedLine[];
  sums: LineSums;
}

/**
 * Line sums kept per block of lines: a block is reused while it holds the very same computed-line
 * objects (the caller memoises lines), so one changed line re-adds one block.
 */
export class BlockSums {
  private blocks: Block[] = [];

  constructor(private readonly size = 32) {}

  sum(lines: readonly ComputedLine[]): LineSums {
    const count = Math.ceil(lines.length / this.size);
    const next: Block[] = new Array<Block>(count);
    for (let b = 0; b < count; b++) {
      const from = b * this.size;
      const to = Math.min(lines.length, from + this.size);
      const old = this.blocks[b];
      next[b] = old && sameLines(old.lines, lines, from, to) ? old : { lines: lines.slice(from, to), sums: sumLines(lines, from, to) };
    }
    this.blocks = next;
    return mergeLineSums(next.map((b) => b.sums));
  }

  reset(): void {
    this.blocks = [];
  }
}

function sameLines(kept: readonly ComputedLine[], lines: readonly ComputedLine[], from: number, to: number): boolean {
  if (kept.length !== to - from) return false;
  for (let i = from; i < to; i++) if (kept[i - from] !== lines[i]) return false;
  return true;
}

/**
 * How a line's result is found again:
 * - `identity`: by the line object (the editor's store replaces only the line being typed in);
 * - `content`: by the line's JSON (a draft that arrives parsed anew on every save). Only the
 *   current draft's lines are kept, so the memo never outgrows one draft (the key holds the line's
 *   place too: a computed line carries its number).
 */
export type LineMemo = 'identity' | 'content';

export class IncrementalCompute {
  private byObject = new WeakMap<DraftLine, ComputedLine>();
  private byContent = new Map<string, ComputedLine>();
  private ruleKey = '';
  private readonly sums: BlockSums;

  constructor(
    blockSize?: number,
    private readonly memo: LineMemo = 'identity',
  ) {
    this.sums = new BlockSums(blockSize);
  }

  compute(draft: InvoiceDraft, options: ComputeOptions = {}): ComputedInvoice {
    const rule = roundingRuleFor(normaliseCurrencyCode(draft.CurrencyCode), options);
    const key = `${rule.decimals}|${rule.mode}|${rule.rateDecimals}`;
    if (key !== this.ruleKey) {
      this.byObject = new WeakMap();
      this.byContent = new Map();
      this.sums.reset();
      this.ruleKey = key;
    }
    const lines = new Array<ComputedLine>(draft.lines.length);
    const kept = new Map<string, ComputedLine>();
    for (let i = 0; i < draft.lines.length; i++) {
      const line = draft.lines[i]!;
      const text = this.memo === 'content' ? `${i} ${JSON.stringify(line)}` : '';
      let computed = this.memo === 'content' ? this.byContent.get(text) : this.byObject.get(line);
      if (!computed || computed.index !== i) {
        computed = computeLine(line, i, rule);
        if (this.memo === 'identity') this.byObject.set(line, computed);
      }
      if (this.memo === 'content') kept.set(text, computed);
      lines[i] = computed;
    }
    if (this.memo === 'content') this.byContent = kept;
    return finishInvoice(draft, options, lines, this.sums.sum(lines));
  }
}
