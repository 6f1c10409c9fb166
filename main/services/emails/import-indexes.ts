import type { Store } from '../store';
import { IMPORT_DEFERRED_INDEXES } from './schema';

/** Imports smaller than this keep every index up as they write. */
export const DEFER_INDEXES_FROM_ROWS = 5_000;

const NAMES = Object.keys(IMPORT_DEFERRED_INDEXES);

/**
 * Builds whichever of the import's deferred indexes is missing: an import ends by doing so, and
 * one cut short by a crash or a kill leaves them out until the next start does. Reads only the
 * schema when nothing is missing.
 */
export function ensureSortIndexes(store: Store): void {
  const have = new Set(
    (
      store.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (${NAMES.map(() => '?').join(', ')})`).all(...NAMES) as Array<{
        name: string;
      }>
    ).map((r) => r.name),
  );
  const missing = NAMES.filter((name) => !have.has(name));
  if (missing.length > 0) store.transaction((db) => missing.forEach((name) => db.exec(IMPORT_DEFERRED_INDEXES[name]!)));
}

/**
 * Before an import of about `rows` rows: leaves out the sort indexes by name and address while it
 * writes, when building them again afterwards costs less than keeping them up (the import adds at
 * least half as many rows as the queue holds, all profiles together). Returns what builds them
 * again, to be called however the import ends; null when they stay. Meanwhile a list sorted by
 * those columns reads the whole table: slower, the same rows.
 */
export function deferSortIndexes(store: Store, rows: number): (() => void) | null {
  if (rows < DEFER_INDEXES_FROM_ROWS) return null;
  const queued = Number((store.db.prepare('SELECT coalesce(sum(n), 0) AS n FROM email_state_counts').get() as { n: number }).n);
  if (rows * 2 < queued) return null;
  store.transaction((db) => NAMES.forEach((name) => db.exec(`DROP INDEX IF EXISTS ${name}`)));
  return () => ensureSortIndexes(store);
}

/** About how many rows a CSV text holds: its line breaks. */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
