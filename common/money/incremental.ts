/**
 * Line sums kept per block of lines, so a keystroke that changes one computed line re-adds one
 * block and merges the blocks' sums instead of adding up every line again. A block is reused while
 * it holds the very same computed-line objects (the caller memoises lines by identity).
 */
import { mergeLineSums, sumLines, type ComputedLine, type LineSums } from './compute';

interface Block {
  lines: ComputedLine[];
  sums: LineSums;
}

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
