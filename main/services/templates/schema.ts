import type { DatabaseSync } from 'node:sqlite';

/**
 * Tables of the templates capability, created by migration entries in store/migrations.ts.
 * Once shipped, never change a function here: add a new one and a new migration entry.
 */
export function createTemplatesTables(db: DatabaseSync): void {
  void db; // filled in by the templates capability
}
