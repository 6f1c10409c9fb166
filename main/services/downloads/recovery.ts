import { exists, placeFile, sizeOf, syncFolder } from './files';
import { resolveInside } from './names';
import type { ItemOutcome, ItemRow, JobsRepository } from './repository';

export interface RecoveryContext {
  repo: Pick<JobsRepository, 'itemsAfter' | 'record'>;
  jobId: string;
  folder: string;
  unzip: boolean;
  durable: boolean;
  tempPath(seq: number, suffix?: string): string;
  /** Each page's items sent back to pending, told in the same turn as they are recorded. */
  onSentBack?(items: ItemRow[]): void;
}

/**
 * After a crash: finishes the renames that were decided (`placing` items whose temporary file is
 * complete) or sends the item back to pending, a page at a time. Returns the items sent back.
 */
export async function recoverPlacing(ctx: RecoveryContext): Promise<ItemRow[]> {
  const back: ItemRow[] = [];
  for (let after = -1; ;) {
    const placing = ctx.repo.itemsAfter(ctx.jobId, 'placing', after, 500);
    if (placing.length === 0) return back;
    after = placing[placing.length - 1]!.seq;
    // Each item has its own temporary and final name: the page's items are settled in parallel.
    const outcomes = await Promise.all(placing.map((item) => settle(ctx, item)));
    if (ctx.durable) await syncFolder(ctx.folder);
    ctx.repo.record(ctx.jobId, outcomes);
    const page: ItemRow[] = [];
    for (const [i, o] of outcomes.entries()) if (o.status === 'pending') page.push({ ...placing[i]!, status: 'pending', file: null, bytes: 0 });
    if (page.length > 0) ctx.onSentBack?.(page);
    back.push(...page);
  }
}

async function settle(ctx: RecoveryContext, item: ItemRow): Promise<ItemOutcome> {
  const temp = ctx.tempPath(item.seq);
  let final: string | null;
  try {
    final = item.file ? resolveInside(ctx.folder, item.file) : null;
  } catch {
    final = null;
  }
  if (final && (await exists(temp))) {
    await placeFile(temp, final, ctx.unzip, ctx.tempPath(item.seq, '.old'));
    return { seq: item.seq, status: 'saved', file: item.file, bytes: await sizeOf(final) };
  }
  if (final && (await exists(final))) return { seq: item.seq, status: 'saved', file: item.file, bytes: await sizeOf(final) };
  return { seq: item.seq, status: 'pending' };
}
