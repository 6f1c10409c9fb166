import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the templates capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 *
 * The template cache: what `GET /templates` answered per profile, kind (with code, ticket)
 * and year, so the series picker works offline.
 */
export function createTemplatesTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE template_cache (
      profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      year         INTEGER NOT NULL,
      with_code    INTEGER NOT NULL,
      ticket       INTEGER NOT NULL,
      template_id  TEXT NOT NULL,
      series       TEXT NOT NULL,
      body         TEXT NOT NULL,
      fetched_at   TEXT NOT NULL,
      PRIMARY KEY (profile_id, year, with_code, ticket, template_id)
    ) STRICT;
    CREATE TABLE template_cache_state (
      profile_id   TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
      year         INTEGER NOT NULL,
      fetched_at   TEXT NOT NULL,
      PRIMARY KEY (profile_id, year)
    ) STRICT;
  `);
}
