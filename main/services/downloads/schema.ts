import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the downloads capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 *
 * Item states: `pending` (to fetch), `placing` (content complete in its temporary file, final
 * name decided and recorded, rename not yet confirmed), `saved`, `skipped`, `failed`.
 */
export function createDownloadsTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE download_jobs (
      id           TEXT PRIMARY KEY,
      profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      fingerprint  TEXT NOT NULL,
      type         TEXT NOT NULL CHECK (type IN ('Xml', 'Pdf', 'Html', 'All')),
      with_code    INTEGER NOT NULL,
      calc         INTEGER NOT NULL,
      folder       TEXT NOT NULL,
      existing     TEXT NOT NULL CHECK (existing IN ('skip', 'overwrite', 'keepBoth')),
      unzip        INTEGER NOT NULL,
      status       TEXT NOT NULL CHECK (status IN ('ready', 'running', 'paused', 'done', 'cancelled')),
      last_error   TEXT,
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL
    ) STRICT;
    CREATE INDEX download_jobs_profile ON download_jobs(profile_id, created_at);
    CREATE INDEX download_jobs_fingerprint ON download_jobs(fingerprint, status);
    CREATE TABLE download_items (
      job_id          TEXT NOT NULL REFERENCES download_jobs(id) ON DELETE CASCADE,
      seq             INTEGER NOT NULL,
      transaction_id  TEXT NOT NULL,
      status          TEXT NOT NULL CHECK (status IN ('pending', 'placing', 'saved', 'skipped', 'failed')),
      file            TEXT,
      bytes           INTEGER NOT NULL DEFAULT 0,
      error_code      TEXT,
      message         TEXT,
      message_vi      TEXT,
      attempts        INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (job_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX download_items_status ON download_items(job_id, status, seq);
  `);
}
