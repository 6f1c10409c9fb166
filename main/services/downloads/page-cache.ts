import type { DatabaseSync } from 'node:sqlite';

/**
 * SQLite's page cache around a download job. A job touches each of its items a few times and
 * then never again, so a cache left to fill would hold the pages of items long settled: tens of
 * MB for a 100 000-item job that a 1 000-item one does not need. Pages given back are read again
 * from the OS's file cache when needed.
 */

/** Runs `fn` with the connection's page cache at most `kb` KB, then puts the setting back. */
export function withPageCache<T>(db: DatabaseSync, kb: number, fn: () => T): T {
  const { cache_size: size } = db.prepare('PRAGMA cache_size').get() as { cache_size: number };
  // Negative: a size in KB; positive: in pages (left as it is).
  if (size < 0) db.exec(`PRAGMA cache_size = ${Math.max(-kb, Math.trunc(size))}`);
  try {
    return fn();
  } finally {
    db.exec(`PRAGMA cache_size = ${Math.trunc(size)}`);
  }
}

/** Gives back the connection's unused cached pages. */
export function releasePageCache(db: DatabaseSync): void {
  db.exec('PRAGMA shrink_memory');
}
