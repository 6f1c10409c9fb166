import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the emails capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 *
 * `email_outbox`: one row per invoice to email. Times are epoch milliseconds. A row in state
 * `sending` carries the claim (`claim_token` = "<pid>:<random>[:<identity>]", `claimed_at`) of the process that
 * sent it, so a restart finds in-flight rows: a claim whose process is gone means the request may
 * have reached the service, and the row becomes `unknown` (never re-sent automatically).
 */
export function createEmailsTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE email_outbox (
      id                INTEGER PRIMARY KEY,
      profile_id        TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      transaction_id    TEXT NOT NULL,
      receiver_name     TEXT NOT NULL DEFAULT '',
      receiver_email    TEXT NOT NULL,
      cc_email          TEXT NOT NULL DEFAULT '',
      bcc_email         TEXT NOT NULL DEFAULT '',
      reply_email       TEXT NOT NULL DEFAULT '',
      kind              TEXT NOT NULL CHECK (kind IN ('withCode', 'withoutCode', 'cashRegister')),
      state             TEXT NOT NULL DEFAULT 'queued'
                        CHECK (state IN ('queued', 'sending', 'sent', 'requested', 'sendingAtService', 'failed', 'unknown', 'cancelled')),
      send_email_status INTEGER,
      error_code        TEXT,
      retryable         INTEGER NOT NULL DEFAULT 0,
      attempts          INTEGER NOT NULL DEFAULT 0,
      next_attempt_at   INTEGER NOT NULL DEFAULT 0,
      last_error        TEXT,
      last_error_vi     TEXT,
      claim_token       TEXT,
      claimed_at        INTEGER,
      created_at        INTEGER NOT NULL,
      updated_at        INTEGER NOT NULL,
      done_at           INTEGER
    ) STRICT;
    CREATE INDEX email_outbox_due ON email_outbox(profile_id, state, next_attempt_at);
    CREATE INDEX email_outbox_tx ON email_outbox(profile_id, transaction_id);
    CREATE INDEX email_outbox_claim ON email_outbox(claim_token) WHERE claim_token IS NOT NULL;
  `);
}

/**
 * `email_attempts`: the earlier outcomes of an outbox entry, one row each time the entry was
 * queued again (send again, retry, cancelled). The entry itself holds the current attempt, so the
 * outbox keeps one entry — and one history — per invoice.
 */
export function createEmailAttempts(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE email_attempts (
      id                INTEGER PRIMARY KEY,
      entry_id          INTEGER NOT NULL REFERENCES email_outbox(id) ON DELETE CASCADE,
      state             TEXT NOT NULL,
      send_email_status INTEGER,
      error_code        TEXT,
      receiver_email    TEXT NOT NULL,
      cc_email          TEXT NOT NULL DEFAULT '',
      bcc_email         TEXT NOT NULL DEFAULT '',
      message           TEXT,
      message_vi        TEXT,
      at                INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX email_attempts_entry ON email_attempts(entry_id, id);
  `);
}
