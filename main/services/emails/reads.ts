import type { StatementSync } from 'node:sqlite';
import { EMAIL_STATES, type EmailAttempt, type EmailCounts, type EmailEntry, type EmailState } from '../../../common/calls/emails';
import { prepared, readPage, type Store } from '../store';
import { SORT_COLUMNS, stamp, toEntry, whereOf, type ListQuery, type Row } from './entries';
import { HISTORY_SQL, toAttempt } from './history';

/** What the outbox's readers ask of the table: one entry and its history, a page of the list, the counts, what is due. */
export class OutboxReads {
  constructor(
    protected readonly store: Store,
    protected readonly clock: () => number,
  ) {}

  /** Now, as the table stores times (ISO-8601 text, like every table). */
  protected now(): string {
    return stamp(this.clock());
  }

  protected stmt(sql: string): StatementSync {
    return prepared(this.store.db, sql);
  }

  protected row(id: number): Row | undefined {
    return this.stmt('SELECT * FROM email_outbox WHERE id = ?').get(id) as Row | undefined;
  }

  /** The entry with its earlier outcomes, oldest first. */
  history(id: number): { entry: EmailEntry; attempts: EmailAttempt[] } | null {
    const row = this.row(id);
    if (!row) return null;
    const attempts = this.stmt(HISTORY_SQL.list).all(id) as unknown as Parameters<typeof toAttempt>[0][];
    return { entry: toEntry(row), attempts: attempts.map(toAttempt) };
  }

  get(id: number): EmailEntry | null {
    const row = this.row(id);
    return row ? toEntry(row) : null;
  }

  /**
   * One page of the queue (a query's rows in its order, `limit` from `offset`) and how many rows the
   * query has: taken from `counts` (the state counts, read in the same snapshot) unless the query
   * searches; the count and the page are read in one snapshot. A page in the far half is read from the
   * other end (readPage).
   */
  list(profileId: string, q: ListQuery = {}, counts?: EmailCounts): { items: EmailEntry[]; total: number } {
    return this.store.read(() => this.readList(profileId, q, counts));
  }

  private readList(profileId: string, q: ListQuery, counts?: EmailCounts): { items: EmailEntry[]; total: number } {
    let total: number;
    if (counts && !q.search?.trim()) {
      const states = q.states && q.states.length > 0 ? new Set(q.states) : EMAIL_STATES;
      total = [...states].reduce((sum, state) => sum + counts[state], 0);
    } else {
      const { sql, params } = whereOf(profileId, q);
      total = (this.stmt(`SELECT count(*) AS n FROM email_outbox WHERE ${sql}`).get(...params) as { n: number }).n;
    }
    const rows = readPage(total, Math.max(0, q.offset ?? 0), q.limit ?? -1, (page, mirrored) =>
      this.page<Row>('*', profileId, mirrored ? { ...q, ...page, dir: q.dir === 'asc' ? 'desc' : 'asc' } : q),
    );
    return { items: rows.map(toEntry), total };
  }

  /** The entry numbers and states of a page (what a selection needs), without the rest of each row. */
  keys(profileId: string, q: ListQuery = {}): { ids: number[]; states: EmailState[] } {
    const rows = this.page<{ id: number; state: EmailState }>('id, state', profileId, q);
    return { ids: rows.map((r) => r.id), states: rows.map((r) => r.state) };
  }

  /**
   * Rows of a query in its order. The entry number, names, addresses, invoice and kind have an index
   * ending in the rowid (a page is an index walk); state, last change and attempts, which every batch
   * sent changes, have none (a page is one pass over the table).
   */
  private page<T>(columns: string, profileId: string, q: ListQuery): T[] {
    const { sql, params } = whereOf(profileId, q);
    const column = SORT_COLUMNS[q.sort ?? 'id'];
    const dir = q.dir === 'asc' ? 'ASC' : 'DESC';
    const order = column === 'id' ? `id ${dir}` : `${column} ${dir}, id ${dir}`;
    return this.stmt(`SELECT ${columns} FROM email_outbox WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
      ...params,
      q.limit ?? -1,
      q.offset ?? 0,
    ) as unknown as T[];
  }

  /** Entries per state, as the table's triggers keep them. */
  counts(profileId: string): EmailCounts {
    const counts = Object.fromEntries(EMAIL_STATES.map((s) => [s, 0])) as EmailCounts;
    const rows = this.stmt('SELECT state, n FROM email_state_counts WHERE profile_id = ?').all(profileId) as Array<{
      state: EmailState;
      n: number;
    }>;
    for (const r of rows) counts[r.state] = r.n;
    return counts;
  }

  /** Is a queued entry due now, and when is the earliest later one? (Two index range lookups.) */
  due(profileId: string): { due: boolean; nextAt: number | null } {
    const at = this.now();
    const now = this.stmt("SELECT 1 AS x FROM email_outbox WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ? LIMIT 1").get(profileId, at);
    const later = this.stmt("SELECT min(next_attempt_at) AS next FROM email_outbox WHERE profile_id = ? AND state = 'queued' AND next_attempt_at > ?").get(
      profileId,
      at,
    ) as { next: string | null } | undefined;
    return { due: now !== undefined, nextAt: later?.next ? Date.parse(later.next) : null };
  }

  /** Ids of entries in the given states (for "retry all failed" and the CLI). */
  idsIn(profileId: string, states: readonly EmailState[]): number[] {
    const rows = this.store.db
      .prepare(`SELECT id FROM email_outbox WHERE profile_id = ? AND state IN (${states.map(() => '?').join(', ')}) ORDER BY id`)
      .all(profileId, ...states) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }
}
