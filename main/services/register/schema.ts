import type { DatabaseSync } from 'node:sqlite';

/**
 * The register of issued invoices, created by a migration entry in store/migrations.ts. Once
 * shipped, never change this function: add a new one and a new migration entry.
 *
 * `issued_invoices`: one row per (profile, TransactionID) — the invoices this app issued (written
 * by the issue queue in the transaction that settles them) and those found by syncing a date
 * range from the service (paging). Dates are `YYYY-MM-DD` (the invoice date in Vietnam), amounts
 * decimal strings. `search` holds the buyer's name, tax code and the number in lower case without
 * diacritics, for the text search; the date index carries it (and the kind), so counting and
 * filtering a range never reads the table itself. A correction (reference_type 1 replacement, 2 adjustment) names
 * its original by series + number (org_*); `original_tx` and `corrected_by_tx` link the two rows
 * once both are known. email_state / download_state: off | waiting | done | failed.
 *
 * `issued_sync_days`: the days (per profile and kind) whose list was read to the end; a sync
 * reads only the days not in it, plus the last two days, which are never final.
 */
export function createRegisterTables(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE issued_invoices (
      profile_id         TEXT NOT NULL,
      transaction_id     TEXT NOT NULL,
      ref_id             TEXT,
      inv_series         TEXT NOT NULL DEFAULT '',
      inv_no             TEXT NOT NULL DEFAULT '',
      inv_date           TEXT NOT NULL,
      kind               TEXT NOT NULL CHECK (kind IN ('withCode', 'withoutCode', 'cashRegister')),
      buyer_name         TEXT NOT NULL DEFAULT '',
      buyer_tax_code     TEXT NOT NULL DEFAULT '',
      buyer_email        TEXT NOT NULL DEFAULT '',
      currency           TEXT NOT NULL DEFAULT 'VND',
      total              TEXT NOT NULL DEFAULT '0',
      total_without_vat  TEXT NOT NULL DEFAULT '0',
      total_vat          TEXT NOT NULL DEFAULT '0',
      invoice_code       TEXT,
      send_tax_status    INTEGER,
      e_invoice_status   INTEGER,
      reference_type     INTEGER NOT NULL DEFAULT 0,
      org_series         TEXT,
      org_inv_no         TEXT,
      org_inv_date       TEXT,
      original_tx        TEXT,
      corrected_by_tx    TEXT,
      email_state        TEXT NOT NULL DEFAULT 'off' CHECK (email_state IN ('off', 'waiting', 'done', 'failed')),
      download_state     TEXT NOT NULL DEFAULT 'off' CHECK (download_state IN ('off', 'waiting', 'done', 'failed')),
      source             TEXT NOT NULL CHECK (source IN ('queue', 'sync')),
      search             TEXT NOT NULL DEFAULT '',
      status_checked_at  TEXT,
      updated_at         TEXT NOT NULL,
      PRIMARY KEY (profile_id, transaction_id)
    ) STRICT;
    CREATE INDEX issued_by_date ON issued_invoices(profile_id, inv_date, inv_series, inv_no, kind, search);
    CREATE INDEX issued_by_series ON issued_invoices(profile_id, inv_series, inv_no);
    CREATE INDEX issued_by_number ON issued_invoices(profile_id, inv_no);
    CREATE INDEX issued_by_buyer ON issued_invoices(profile_id, buyer_tax_code);
    CREATE INDEX issued_by_ref ON issued_invoices(profile_id, ref_id);
    CREATE INDEX issued_by_original ON issued_invoices(profile_id, original_tx) WHERE original_tx IS NOT NULL;
    CREATE INDEX issued_tax_pending ON issued_invoices(profile_id, kind, inv_date) WHERE send_tax_status IS NULL OR send_tax_status NOT IN (2, 3);
    CREATE TABLE issued_sync_days (
      profile_id  TEXT NOT NULL,
      kind        TEXT NOT NULL,
      day         TEXT NOT NULL,
      synced_at   TEXT NOT NULL,
      PRIMARY KEY (profile_id, kind, day)
    ) STRICT;
  `);
}
