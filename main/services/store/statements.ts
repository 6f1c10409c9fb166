import type { DatabaseSync, StatementSync } from 'node:sqlite';

const byDatabase = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/**
 * The connection's prepared statement for `sql`, prepared on first use and kept while the connection
 * lives. Preparing per call costs more than running a short statement (the register's copy of an
 * issued batch spent a tenth of its time there), and each prepared statement holds native memory
 * until the garbage collector finalises it, which a job of 100 000 items turns into steady growth.
 * Callers must not change a kept statement's options (they are shared).
 */
export function prepared(db: DatabaseSync, sql: string): StatementSync {
  let cache = byDatabase.get(db);
  if (!cache) byDatabase.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}
