import type { StatementSync } from 'node:sqlite';
import { prepared, type Store } from '../store';

/**
 * Every issuing request and its answer (already free of the token), kept as the service asks
 * integrators to, for support; written by IssueQueue with the verdicts.
 */
export class IssueExchanges {
  constructor(private readonly store: Store) {}

  private stmt(sql: string): StatementSync {
    return prepared(this.store.db, sql);
  }

  list(profileId: string, refId: string): Array<{ at: string; request: string; answer: string | null }> {
    return this.stmt(
      `SELECT at, request, answer FROM issue_exchanges WHERE profile_id = ? AND EXISTS (SELECT 1 FROM json_each(ref_ids) WHERE value = ?) ORDER BY id`,
    ).all(profileId, refId) as Array<{ at: string; request: string; answer: string | null }>;
  }
}
