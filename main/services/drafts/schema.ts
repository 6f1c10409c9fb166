import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the drafts capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 *
 * A draft is one row: the editable draft as JSON plus the columns the list searches and sorts
 * by, all written by one UPDATE (atomic under WAL: a crash keeps the previous or the new row,
 * never half of one). Drafts are local work, not service data, so they carry no profile.
 */
export function createDraftsTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE drafts (
      id                 TEXT PRIMARY KEY,
      body               TEXT NOT NULL,
      meta               TEXT NOT NULL DEFAULT '{}',
      buyer_name         TEXT NOT NULL DEFAULT '',
      buyer_tax_code     TEXT NOT NULL DEFAULT '',
      inv_series         TEXT NOT NULL DEFAULT '',
      inv_date           TEXT NOT NULL DEFAULT '',
      currency           TEXT NOT NULL DEFAULT 'VND',
      total              TEXT NOT NULL DEFAULT '0',
      total_num          REAL NOT NULL DEFAULT 0,
      line_count         INTEGER NOT NULL DEFAULT 0,
      revision           INTEGER NOT NULL DEFAULT 1,
      created_at         TEXT NOT NULL,
      updated_at         TEXT NOT NULL,
      last_previewed_at  TEXT,
      deleted_at         TEXT
    ) STRICT;
    CREATE INDEX drafts_updated ON drafts(deleted_at, updated_at);
    CREATE TABLE draft_previews (
      id            TEXT PRIMARY KEY,
      draft_id      TEXT NOT NULL REFERENCES drafts(id) ON DELETE CASCADE,
      kind          TEXT NOT NULL CHECK (kind IN ('pdf', 'page')),
      content_type  TEXT,
      link          TEXT,
      bytes         BLOB,
      created_at    TEXT NOT NULL
    ) STRICT;
    CREATE INDEX draft_previews_draft ON draft_previews(draft_id, created_at);
    CREATE TABLE catalogue_items (
      key         TEXT PRIMARY KEY,
      code        TEXT NOT NULL DEFAULT '',
      name        TEXT NOT NULL,
      unit        TEXT NOT NULL DEFAULT '',
      price       TEXT NOT NULL DEFAULT '',
      vat_rate    TEXT NOT NULL DEFAULT '',
      uses        INTEGER NOT NULL DEFAULT 0,
      updated_at  TEXT NOT NULL
    ) STRICT;
    CREATE TABLE catalogue_buyers (
      key         TEXT PRIMARY KEY,
      tax_code    TEXT NOT NULL DEFAULT '',
      legal_name  TEXT NOT NULL,
      address     TEXT NOT NULL DEFAULT '',
      contact     TEXT NOT NULL DEFAULT '',
      email       TEXT NOT NULL DEFAULT '',
      phone       TEXT NOT NULL DEFAULT '',
      code        TEXT NOT NULL DEFAULT '',
      uses        INTEGER NOT NULL DEFAULT 0,
      updated_at  TEXT NOT NULL
    ) STRICT;
  `);
}
