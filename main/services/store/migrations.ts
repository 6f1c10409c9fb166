import { createRegisterTables, keyRegisterByService } from '../register/schema';
import { createIssuingTables } from '../issuing/schema';
import type { DatabaseSync } from 'node:sqlite';
import { addDownloadCounters, addDownloadFileIndex, addDownloadOwner, createDownloadsTables } from '../downloads/schema';
import { createDraftsTables } from '../drafts/schema';
import { createEmailAttempts, createEmailsTables, emailBatchIndexes, emailSortIndexes, emailStateCounts, emailTimesAsText } from '../emails/schema';
import { createTemplatesTables } from '../templates/schema';

/**
 * One numbered step of the database schema. `up` runs inside the migration transaction
 * (BEGIN IMMEDIATE … COMMIT) together with every other pending step, so a failure leaves the
 * file at its previous version.
 */
export interface Migration {
  /** 1, 2, 3, … — consecutive; the database's `PRAGMA user_version` is the last one applied. */
  readonly version: number;
  /** A short description, e.g. "drafts and catalogues" (for messages and tests). */
  readonly name: string;
  up(db: DatabaseSync): void;
}

/**
 * THE ordered list of schema migrations of `einvoice.db`.
 *
 * How to add tables for a capability (drafts, downloads, emails, template cache, …):
 * - APPEND one entry at the end with the next version number; never edit, reorder or remove
 *   an entry that has shipped (databases in the field are already at that version).
 * - Keep it plain DDL (`db.exec(...)`), idempotent inside one transaction is not needed:
 *   each version runs exactly once.
 * - Data that belongs to a service (download jobs, email queue, template cache, …) carries a
 *   `profile_id TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE` column, so it stays
 *   with the connection profile it came from.
 * - Secrets (tokens, passwords) NEVER go in the database: they live in the SecretStore.
 */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'connection profiles and settings',
    up(db) {
      db.exec(`
        CREATE TABLE profiles (
          id          TEXT PRIMARY KEY,
          name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
          kind        TEXT NOT NULL CHECK (kind IN ('sandbox', 'test', 'production', 'custom')),
          base_url    TEXT,
          token_url   TEXT,
          builtin     INTEGER NOT NULL DEFAULT 0,
          created_at  TEXT NOT NULL,
          updated_at  TEXT NOT NULL
        ) STRICT;
        CREATE TABLE settings (
          key    TEXT PRIMARY KEY,
          value  TEXT NOT NULL
        ) STRICT;
      `);
    },
  },
  {
    version: 2,
    name: 'sign-in state per profile (never the token itself)',
    up(db) {
      db.exec(`
        CREATE TABLE profile_auth (
          profile_id         TEXT PRIMARY KEY REFERENCES profiles(id) ON DELETE CASCADE,
          method             TEXT NOT NULL CHECK (method IN ('token', 'credentials', 'sandbox')),
          signed_in_at       TEXT NOT NULL,
          expires_at         TEXT,
          app_id             TEXT,
          tax_code           TEXT,
          user_name          TEXT,
          password_remembered INTEGER NOT NULL DEFAULT 0
        ) STRICT;
      `);
    },
  },
  // Versions 3–6 are reserved for the capabilities built in parallel; each owns its DDL.
  { version: 3, name: 'drafts and catalogues', up: (db) => createDraftsTables(db) },
  { version: 4, name: 'template cache', up: (db) => createTemplatesTables(db) },
  { version: 5, name: 'download jobs', up: (db) => createDownloadsTables(db) },
  { version: 6, name: 'email outbox', up: (db) => createEmailsTables(db) },
  { version: 7, name: 'download progress counters on the job row', up: (db) => addDownloadCounters(db) },
  { version: 8, name: 'email send history per invoice', up: (db) => createEmailAttempts(db) },
  {
    version: 9,
    name: 'download job errors as { en, vi } texts',
    up(db) {
      db.exec(`
        UPDATE download_jobs
           SET last_error = json_object('en', json_extract(last_error, '$.message'), 'vi', json_extract(last_error, '$.messageVi'))
         WHERE last_error IS NOT NULL AND json_extract(last_error, '$.message') IS NOT NULL;
      `);
    },
  },
  { version: 10, name: 'download job owner, heartbeat and service address', up: (db) => addDownloadOwner(db) },
  { version: 11, name: 'issue queue, series spacing, issuing exchanges; drafts locked while issued', up: (db) => createIssuingTables(db) },
  { version: 12, name: 'email outbox and history times as ISO-8601 text', up: (db) => emailTimesAsText(db) },
  { version: 13, name: 'register of issued invoices and the days synced', up: (db) => createRegisterTables(db) },
  { version: 14, name: 'email outbox indexes for each sort key of the queue list', up: (db) => emailSortIndexes(db) },
  { version: 15, name: 'download item file names by job, ignoring case', up: (db) => addDownloadFileIndex(db) },
  {
    version: 16,
    name: 'register rows and synced days belong to a service (address + tax code); search and count indexes',
    up: (db) => keyRegisterByService(db),
  },
  { version: 17, name: 'email outbox: what is due found among queued entries only; no index of claim tokens', up: (db) => emailBatchIndexes(db) },
  { version: 18, name: 'email outbox: counts per state kept in a table; no index moves while a batch is sent', up: (db) => emailStateCounts(db) },
];
