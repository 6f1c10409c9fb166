import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the emails capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 *
 * `email_outbox`: one row per invoice to email. Times were epoch milliseconds here; migration 12
 * (emailTimesAsText) turned them into ISO-8601 text like every other table. A row in state
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

/** Epoch milliseconds → ISO-8601 text (`2026-11-25T03:00:00.000Z`); 0 or NULL as given. */
const text = (column: string, zero: string) =>
  `CASE WHEN ${column} IS NULL THEN NULL WHEN ${column} <= 0 THEN ${zero} ELSE strftime('%Y-%m-%dT%H:%M:%fZ', ${column} / 1000.0, 'unixepoch') END`;

/**
 * The outbox and its history with their times as ISO-8601 text (the one way every table stores
 * time; `next_attempt_at` '' = due at once). The tables are rebuilt child-first so the history's
 * foreign key never cascades: new tables, copies, drop the old child then the old parent, rename.
 */
export function emailTimesAsText(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE email_outbox_new (
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
      next_attempt_at   TEXT NOT NULL DEFAULT '',
      last_error        TEXT,
      last_error_vi     TEXT,
      claim_token       TEXT,
      claimed_at        TEXT,
      created_at        TEXT NOT NULL,
      updated_at        TEXT NOT NULL,
      done_at           TEXT
    ) STRICT;
    INSERT INTO email_outbox_new
      SELECT id, profile_id, transaction_id, receiver_name, receiver_email, cc_email, bcc_email, reply_email, kind, state, send_email_status,
             error_code, retryable, attempts, ${text('next_attempt_at', "''")}, last_error, last_error_vi, claim_token, ${text('claimed_at', 'NULL')},
             ${text('created_at', "'1970-01-01T00:00:00.000Z'")}, ${text('updated_at', "'1970-01-01T00:00:00.000Z'")}, ${text('done_at', 'NULL')}
        FROM email_outbox;
    CREATE TABLE email_attempts_new (
      id                INTEGER PRIMARY KEY,
      entry_id          INTEGER NOT NULL REFERENCES email_outbox_new(id) ON DELETE CASCADE,
      state             TEXT NOT NULL,
      send_email_status INTEGER,
      error_code        TEXT,
      receiver_email    TEXT NOT NULL,
      cc_email          TEXT NOT NULL DEFAULT '',
      bcc_email         TEXT NOT NULL DEFAULT '',
      message           TEXT,
      message_vi        TEXT,
      at                TEXT NOT NULL
    ) STRICT;
    INSERT INTO email_attempts_new
      SELECT id, entry_id, state, send_email_status, error_code, receiver_email, cc_email, bcc_email, message, message_vi,
             ${text('at', "'1970-01-01T00:00:00.000Z'")}
        FROM email_attempts;
    DROP TABLE email_attempts;
    DROP TABLE email_outbox;
    ALTER TABLE email_outbox_new RENAME TO email_outbox;
    ALTER TABLE email_attempts_new RENAME TO email_attempts;
    CREATE INDEX email_outbox_due ON email_outbox(profile_id, state, next_attempt_at);
    CREATE INDEX email_outbox_tx ON email_outbox(profile_id, transaction_id);
    CREATE INDEX email_outbox_claim ON email_outbox(claim_token) WHERE claim_token IS NOT NULL;
    CREATE INDEX email_attempts_entry ON email_attempts(entry_id, id);
  `);
}

/**
 * The queue screen and `queue list` read one page at a time, ordered by any sort key with the
 * entry number as tie-break: one index per sort key (an index ends with the rowid, so
 * `ORDER BY key, id` walks it in order, either way). transaction_id has email_outbox_tx already.
 */
export function emailSortIndexes(db: DatabaseSync): void {
  db.exec(`
    CREATE INDEX email_outbox_by_id ON email_outbox(profile_id, id);
    CREATE INDEX email_outbox_by_name ON email_outbox(profile_id, receiver_name);
    CREATE INDEX email_outbox_by_email ON email_outbox(profile_id, receiver_email);
    CREATE INDEX email_outbox_by_state ON email_outbox(profile_id, state);
    CREATE INDEX email_outbox_by_updated ON email_outbox(profile_id, updated_at);
    CREATE INDEX email_outbox_by_attempts ON email_outbox(profile_id, attempts);
    CREATE INDEX email_outbox_by_kind ON email_outbox(profile_id, kind);
  `);
}

/**
 * Fewer indexes for each batch to move. What is due is found among queued entries only: the index
 * holds a row while it is queued, so the claim that arms it removes one entry and its outcome
 * touches nothing here (the whole-table index by state moved on every settle too). The index of
 * claim tokens goes: a claim's rows are written by their entry numbers (with the token as a
 * check), and a recovery reads the rows in `sending` once per flush. The queue screen sorts and
 * filters by state with email_outbox_by_state.
 */
export function emailBatchIndexes(db: DatabaseSync): void {
  db.exec(`
    DROP INDEX email_outbox_due;
    DROP INDEX email_outbox_claim;
    CREATE INDEX email_outbox_queued_due ON email_outbox(profile_id, next_attempt_at) WHERE state = 'queued';
  `);
}

/** The states of an outbox entry, as migration 18 knows them (a later state needs its own migration). */
const STATES_AT_18 = `'["queued","sending","sent","requested","sendingAtService","failed","unknown","cancelled"]'`;

/**
 * Nothing indexed moves while a batch is sent. The indexes by state, last change and attempts
 * changed twice for every entry of every batch (claim, then outcome) and cost more than the rest of
 * the send cycle together; the counts per state they served are kept instead in a table of a few
 * rows by triggers (every insert, delete and change of state, whichever statement makes it — an
 * import, a claim, a cascade from a removed profile), and a list sorted or filtered by those
 * columns reads the table (one pass, no index to keep up). Every profile has a row for each state
 * from its creation, so a change of state is one UPDATE of two rows. Moves into and out of
 * `sending` are made by the outbox's own send-cycle statements only (claim, outcome, release,
 * unknown, recovery), 50 rows at a time: each of them moves the counts once, by the rows it changed
 * (outbox.ts), instead of a trigger firing per row — a third of a batch's database work.
 */
export function emailStateCounts(db: DatabaseSync): void {
  db.exec(`
    DROP INDEX email_outbox_by_state;
    DROP INDEX email_outbox_by_updated;
    DROP INDEX email_outbox_by_attempts;
    CREATE TABLE email_state_counts (
      profile_id TEXT NOT NULL,
      state      TEXT NOT NULL,
      n          INTEGER NOT NULL,
      PRIMARY KEY (profile_id, state)
    ) WITHOUT ROWID, STRICT;
    INSERT INTO email_state_counts
      SELECT p.id, s.value, (SELECT count(*) FROM email_outbox o WHERE o.profile_id = p.id AND o.state = s.value)
        FROM profiles p, json_each(${STATES_AT_18}) s;
    CREATE TRIGGER email_counts_profile_added AFTER INSERT ON profiles BEGIN
      INSERT INTO email_state_counts SELECT NEW.id, value, 0 FROM json_each(${STATES_AT_18});
    END;
    CREATE TRIGGER email_counts_profile_removed AFTER DELETE ON profiles BEGIN
      DELETE FROM email_state_counts WHERE profile_id = OLD.id;
    END;
    CREATE TRIGGER email_counts_insert AFTER INSERT ON email_outbox BEGIN
      UPDATE email_state_counts SET n = n + 1 WHERE profile_id = NEW.profile_id AND state = NEW.state;
    END;
    CREATE TRIGGER email_counts_delete AFTER DELETE ON email_outbox BEGIN
      UPDATE email_state_counts SET n = n - 1 WHERE profile_id = OLD.profile_id AND state = OLD.state;
    END;
    CREATE TRIGGER email_counts_state AFTER UPDATE OF state ON email_outbox
      WHEN OLD.state IS NOT NEW.state AND OLD.profile_id IS NEW.profile_id AND OLD.state <> 'sending' AND NEW.state <> 'sending' BEGIN
      UPDATE email_state_counts SET n = n + (state = NEW.state) - (state = OLD.state)
       WHERE profile_id = NEW.profile_id AND state IN (OLD.state, NEW.state);
    END;
    CREATE TRIGGER email_counts_profile_moved AFTER UPDATE OF profile_id ON email_outbox
      WHEN OLD.profile_id IS NOT NEW.profile_id BEGIN
      UPDATE email_state_counts SET n = n - 1 WHERE profile_id = OLD.profile_id AND state = OLD.state;
      UPDATE email_state_counts SET n = n + 1 WHERE profile_id = NEW.profile_id AND state = NEW.state;
    END;
  `);
}

/**
 * The sort indexes a large import leaves out while it writes and builds again at its end
 * (import-indexes.ts), as migration 14 made them. Their entries land at random places in the tree,
 * so keeping them up row by row cost about as much as the rest of the import; built once, sorted,
 * they cost a fraction of that. An import killed meanwhile leaves them out until the next start: a
 * later migration that changes or drops them says IF EXISTS and changes these definitions too.
 */
export const IMPORT_DEFERRED_INDEXES: Readonly<Record<string, string>> = {
  email_outbox_by_name: 'CREATE INDEX IF NOT EXISTS email_outbox_by_name ON email_outbox(profile_id, receiver_name)',
  email_outbox_by_email: 'CREATE INDEX IF NOT EXISTS email_outbox_by_email ON email_outbox(profile_id, receiver_email)',
};
