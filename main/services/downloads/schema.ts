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

const ITEM_STATES = ['pending', 'placing', 'saved', 'skipped', 'failed'] as const;

/**
 * Progress counters on the job row (`n_<state>`, `n_total`, `n_bytes`), so a progress tick reads
 * one row instead of counting the job's items. Triggers keep them in the same transaction as every
 * item insert and state change, so they always equal a count of the items.
 */
export function addDownloadCounters(db: DatabaseSync): void {
  const counted = (change: (state: string) => string) => ITEM_STATES.map((s) => `n_${s} = n_${s} ${change(s)}`).join(', ');
  db.exec(`
    ${[...ITEM_STATES, 'total', 'bytes'].map((c) => `ALTER TABLE download_jobs ADD COLUMN n_${c} INTEGER NOT NULL DEFAULT 0;`).join('\n    ')}
    UPDATE download_jobs SET
      ${ITEM_STATES.map((s) => `n_${s} = (SELECT count(*) FROM download_items WHERE job_id = download_jobs.id AND status = '${s}')`).join(',\n      ')},
      n_total = (SELECT count(*) FROM download_items WHERE job_id = download_jobs.id),
      n_bytes = (SELECT coalesce(sum(bytes), 0) FROM download_items WHERE job_id = download_jobs.id);
    CREATE TRIGGER download_items_count_insert AFTER INSERT ON download_items BEGIN
      UPDATE download_jobs SET ${counted((s) => `+ (NEW.status = '${s}')`)}, n_total = n_total + 1, n_bytes = n_bytes + NEW.bytes
      WHERE id = NEW.job_id;
    END;
    CREATE TRIGGER download_items_count_update AFTER UPDATE OF status, bytes ON download_items BEGIN
      UPDATE download_jobs SET ${counted((s) => `+ (NEW.status = '${s}') - (OLD.status = '${s}')`)}, n_bytes = n_bytes + NEW.bytes - OLD.bytes
      WHERE id = NEW.job_id;
    END;
  `);
}

/**
 * One owner per job: the process running it (`owner`, "<pid>:<random>") and its last sign of life
 * (`heartbeat_at`); and the service address the job was created for (`base_url`), so it is never
 * continued against another one.
 */
export function addDownloadOwner(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE download_jobs ADD COLUMN owner TEXT;
    ALTER TABLE download_jobs ADD COLUMN heartbeat_at TEXT;
    ALTER TABLE download_jobs ADD COLUMN base_url TEXT;
  `);
}

/**
 * File names given to a job's items, found without holding them in memory: the engine asks
 * whether a name (ignoring case, as Windows and macOS folders do) is already one of the job's.
 */
export function addDownloadFileIndex(db: DatabaseSync): void {
  db.exec(`CREATE INDEX download_items_file ON download_items(job_id, file COLLATE NOCASE) WHERE file IS NOT NULL;`);
}
