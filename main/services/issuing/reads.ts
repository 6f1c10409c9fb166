import type { StatementSync } from 'node:sqlite';
import { ISSUE_STATES, type IssueEntry, type IssueState } from '../../../common/calls/issuing';
import type { InvoiceKind } from '../../../common/model';
import type { IssuingInvoiceData } from '../../../common/model/issuing';
import { prepared, type Store } from '../store';
import { toEntry, type Row } from './rows';

/** What the issue queue's readers ask of the table: the list, the counts, what is due. */
export class IssueQueueReads {
  protected readonly now: () => Date;

  constructor(
    protected readonly store: Store,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  protected stmt(sql: string): StatementSync {
    return prepared(this.store.db, sql);
  }

  protected iso(offsetMs = 0): string {
    return new Date(this.now().getTime() + offsetMs).toISOString();
  }

  protected row(id: number): Row | undefined {
    return this.stmt('SELECT * FROM issue_queue WHERE id = ?').get(id) as Row | undefined;
  }

  get(id: number): IssueEntry | null {
    const r = this.row(id);
    return r ? toEntry(r) : null;
  }

  byRefId(profileId: string, refId: string): IssueEntry | null {
    const r = this.stmt('SELECT * FROM issue_queue WHERE profile_id = ? AND ref_id = ?').get(profileId, refId) as Row | undefined;
    return r ? toEntry(r) : null;
  }

  payloadOf(id: number): IssuingInvoiceData | null {
    const r = this.stmt('SELECT payload FROM issue_payloads WHERE queue_id = ?').get(id) as { payload: string } | undefined;
    return r ? (JSON.parse(r.payload) as IssuingInvoiceData) : null;
  }

  list(profileId: string, q: { states?: readonly IssueState[]; limit?: number; offset?: number } = {}): { items: IssueEntry[]; total: number } {
    const states = q.states?.length ? q.states : ISSUE_STATES;
    return this.store.read(() => {
      const rows = this.stmt(`SELECT * FROM issue_queue WHERE ${listed(states)} ORDER BY id DESC LIMIT ? OFFSET ?`).all(
        profileId,
        ...states,
        q.limit ?? 100_000,
        q.offset ?? 0,
      ) as unknown as Row[];
      return { items: rows.map(toEntry), total: this.total(profileId, states) };
    });
  }

  /** How many rows `list` finds in these states (all by default). */
  total(profileId: string, states: readonly IssueState[] = ISSUE_STATES): number {
    return (this.stmt(`SELECT count(*) AS n FROM issue_queue WHERE ${listed(states)}`).get(profileId, ...states) as { n: number }).n;
  }

  /** The counts per state and the whole list's total, read together so that they agree. */
  summary(profileId: string): { counts: Record<IssueState, number>; total: number } {
    return this.store.read(() => ({ counts: this.counts(profileId), total: this.total(profileId) }));
  }

  /** Per state, without the reopened refusals (history: nothing is left to do about them). */
  counts(profileId: string): Record<IssueState, number> {
    const counts = Object.fromEntries(ISSUE_STATES.map((s) => [s, 0])) as Record<IssueState, number>;
    for (const r of this.stmt('SELECT state, count(*) AS n FROM issue_queue WHERE profile_id = ? AND reopened_at IS NULL GROUP BY state').all(
      profileId,
    ) as Array<{
      state: IssueState;
      n: number;
    }>)
      counts[r.state] = r.n;
    return counts;
  }

  /** The last InvDate issued on each series (the next one may not be earlier). */
  lastIssuedDates(profileId: string): Record<string, string> {
    const rows = this.stmt("SELECT inv_series, max(inv_date) AS d FROM issue_queue WHERE profile_id = ? AND state = 'issued' GROUP BY inv_series").all(
      profileId,
    ) as Array<{ inv_series: string; d: string }>;
    return Object.fromEntries(rows.map((r) => [r.inv_series, r.d]));
  }

  /** Series with a queued invoice due now, each free of a request in flight and past its gap. */
  dueSeries(profileId: string): string[] {
    const at = this.iso();
    const rows = this.stmt(
      `SELECT DISTINCT q.inv_series AS series FROM issue_queue q
        WHERE q.profile_id = ? AND q.state = 'queued' AND q.next_attempt_at <= ?
          AND NOT EXISTS (SELECT 1 FROM issue_queue b WHERE b.profile_id = q.profile_id AND b.inv_series = q.inv_series AND b.state = 'issuing')
          AND NOT EXISTS (SELECT 1 FROM issue_series s WHERE s.profile_id = q.profile_id AND s.inv_series = q.inv_series AND s.free_at > ?)`,
    ).all(profileId, at, at) as Array<{ series: string }>;
    return rows.map((r) => r.series);
  }

  /** When the next queued invoice, series gap or unknown lookup falls due (null: nothing waits). */
  nextDue(profileId: string): string | null {
    const r = this.stmt(
      `SELECT min(t) AS t FROM (
         SELECT max(q.next_attempt_at, coalesce(s.free_at, '')) AS t FROM issue_queue q
           LEFT JOIN issue_series s ON s.profile_id = q.profile_id AND s.inv_series = q.inv_series
          WHERE q.profile_id = ? AND (q.state = 'unknown' OR (q.state = 'queued'
            AND NOT EXISTS (SELECT 1 FROM issue_queue b WHERE b.profile_id = q.profile_id AND b.inv_series = q.inv_series AND b.state = 'issuing'))))`,
    ).get(profileId) as { t: string | null } | undefined;
    return r?.t ?? null;
  }

  /** Unknown invoices whose next lookup is due (or all of them / these ids, when asked by a person). */
  unknownDue(
    profileId: string,
    options: { all?: boolean; ids?: readonly number[] } = {},
  ): Array<{ id: number; refId: string; kind: InvoiceKind; unknownSince: string; lookups: number; serviceHas: boolean }> {
    const rows = this.stmt(
      `SELECT id, ref_id, kind, unknown_since, lookups, service_has, next_attempt_at FROM issue_queue WHERE profile_id = ? AND state = 'unknown' ORDER BY id`,
    ).all(profileId) as unknown as Row[];
    const at = this.iso();
    return rows
      .filter((r) => (options.ids ? options.ids.includes(r.id) : options.all === true || r.next_attempt_at <= at))
      .map((r) => ({ id: r.id, refId: r.ref_id, kind: r.kind, unknownSince: r.unknown_since ?? at, lookups: r.lookups, serviceHas: r.service_has === 1 }));
  }

  /** Is a queued invoice waiting for a series that has a request in flight (perhaps in another process)? */
  waitingOnBusySeries(profileId: string): boolean {
    return (
      this.stmt(
        `SELECT 1 AS x FROM issue_queue q WHERE q.profile_id = ? AND q.state = 'queued'
           AND EXISTS (SELECT 1 FROM issue_queue b WHERE b.profile_id = q.profile_id AND b.inv_series = q.inv_series AND b.state = 'issuing') LIMIT 1`,
      ).get(profileId) !== undefined
    );
  }

  /** Issued with-code invoices still waiting for the tax authority's code. */
  codesWaiting(profileId: string, limit = 50): Array<{ id: number; transactionId: string }> {
    return (
      this.stmt(
        `SELECT id, transaction_id FROM issue_queue WHERE profile_id = ? AND state = 'issued' AND kind = 'withCode' AND invoice_code IS NULL
           AND transaction_id IS NOT NULL ORDER BY id LIMIT ?`,
      ).all(profileId, limit) as Array<{ id: number; transaction_id: string }>
    ).map((r) => ({ id: r.id, transactionId: r.transaction_id }));
  }
}

function inStates(states: readonly IssueState[]): string {
  return `profile_id = ? AND state IN (${states.map(() => '?').join(', ')})`;
}

/**
 * The rows a list in these states shows: every state (All) shows the reopened refusals too, as the
 * queue's history; a narrower filter leaves them out, as its count does (nothing is left to do about them).
 */
function listed(states: readonly IssueState[]): string {
  return ISSUE_STATES.every((s) => states.includes(s)) ? inStates(states) : `${inStates(states)} AND reopened_at IS NULL`;
}
