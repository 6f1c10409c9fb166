import { MAX_DOWNLOAD_BATCH } from '../../../common/rules/network';

export { MAX_DOWNLOAD_BATCH };

/** Splits a list into batches of at most `max` (1…50 by default rule; any positive size allowed). */
export function chunk<T>(items: readonly T[], max: number = MAX_DOWNLOAD_BATCH): T[][] {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`batch size must be a positive integer, got ${max}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += max) out.push(items.slice(i, i + max));
  return out;
}

/** Splits an address list on `;` or `,`, trims, drops empties, joins with `;` (the service's separator). */
export function normaliseEmailList(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .join(';');
}

/** Runs `worker` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, run));
  return results;
}
