import type { StatementSync } from 'node:sqlite';
import type { Store } from './store';

/**
 * Prepared statements kept per SQL text: a statement prepared per call holds native memory until
 * the garbage collector finalises it, which a job of 100 000 items turns into steady growth.
 */
export class Statements {
  private readonly cache = new Map<string, StatementSync>();

  constructor(private readonly store: Store) {}

  get(sql: string): StatementSync {
    let s = this.cache.get(sql);
    if (!s) this.cache.set(sql, (s = this.store.db.prepare(sql)));
    return s;
  }
}
