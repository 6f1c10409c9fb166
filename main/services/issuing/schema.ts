import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the issue queue, created by a migration entry in store/migrations.ts. Once shipped,
 * never change this function: add a new one and a new migration entry.
 *
 * One row per invoice to issue, keyed by (profile, RefID): its state and, once issued, the
 * service's numbers; the frozen issuing form as sent sits in `issue_payloads`, apart, so a state
 * change rewrites a short row. Times are ISO-8601 text like the other tables.
 * `issue_series` spaces the requests of one series across processes; `issue_exchanges` keeps
 * every issuing request and answer (the token never reaches it), as the service asks integrators to.
 */
export function createIssuingTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE issue_queue (
      id               INTEGER PRIMARY KEY,
      profile_id       TEXT NOT NULL,
      draft_id         TEXT,
      ref_id           TEXT NOT NULL,
      inv_series       TEXT NOT NULL,
      inv_date         TEXT NOT NULL,
      kind             TEXT NOT NULL CHECK (kind IN ('withCode', 'withoutCode', 'cashRegister')),
      sign_type        INTEGER NOT NULL,
      certificate_sn   TEXT,
      buyer_name       TEXT NOT NULL DEFAULT '',
      buyer_email      TEXT NOT NULL DEFAULT '',
      total            TEXT NOT NULL DEFAULT '0',
      currency         TEXT NOT NULL DEFAULT 'VND',
      state            TEXT NOT NULL CHECK (state IN ('queued', 'issuing', 'issued', 'failed', 'unknown')),
      claim_token      TEXT,
      claimed_at       TEXT,
      attempts         INTEGER NOT NULL DEFAULT 0,
      next_attempt_at  TEXT NOT NULL,
      unknown_since    TEXT,
      lookups          INTEGER NOT NULL DEFAULT 0,
      service_has      INTEGER NOT NULL DEFAULT 0,
      transaction_id   TEXT,
      inv_no           TEXT,
      invoice_code     TEXT,
      issued_at        TEXT,
      error_code       TEXT,
      last_error       TEXT,
      retryable        INTEGER NOT NULL DEFAULT 0,
      reopened_at      TEXT,
      download_state   TEXT NOT NULL DEFAULT 'off' CHECK (download_state IN ('off', 'waiting', 'done', 'failed')),
      email_state      TEXT NOT NULL DEFAULT 'off' CHECK (email_state IN ('off', 'waiting', 'done', 'failed')),
      email_id         INTEGER,
      created_at       TEXT NOT NULL,
      updated_at       TEXT NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX issue_queue_ref ON issue_queue(profile_id, ref_id);
    CREATE INDEX issue_queue_due ON issue_queue(profile_id, state, inv_series, next_attempt_at);
    CREATE INDEX issue_queue_draft ON issue_queue(draft_id);
    CREATE TABLE issue_payloads (
      queue_id  INTEGER PRIMARY KEY REFERENCES issue_queue(id) ON DELETE CASCADE,
      payload   TEXT NOT NULL
    ) STRICT;
    CREATE TABLE issue_series (
      profile_id  TEXT NOT NULL,
      inv_series  TEXT NOT NULL,
      free_at     TEXT NOT NULL,
      PRIMARY KEY (profile_id, inv_series)
    ) STRICT;
    CREATE TABLE issue_exchanges (
      id          INTEGER PRIMARY KEY,
      profile_id  TEXT NOT NULL,
      at          TEXT NOT NULL,
      ref_ids     TEXT NOT NULL,
      request     TEXT NOT NULL,
      answer      TEXT
    ) STRICT;
    ALTER TABLE drafts ADD COLUMN issue_id INTEGER;
  `);
}
