import type { DatabaseSync } from 'node:sqlite';
import { activeScope, rememberScope, UNKNOWN_SELLER } from './service-key';

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

/**
 * Ties the register to the service its rows came from (the profile's address + the seller's tax
 * code, see service-key.ts), and makes the list fast at 100 000 rows. Rebuilds the two tables:
 * - `issued_invoices` gets `service_key` and a stable `id` (the search index refers to it); one
 *   row per (profile, service, TransactionID). Rows already here are given the profile's service
 *   as it is now.
 * - `issued_sync_days` gets `service_key`. Days synced before this version are forgotten (for
 *   which service they were read is not known), so they are read once more.
 * - `issued_service`: the address and tax code each profile's register was last written for, so
 *   the register still shows its invoices while signed out.
 * - `issued_search`: a trigram index (FTS5) over `search`, so a search for part of a name,
 *   tax code or number does not read every row; `issued_day_counts`: the count of rows per
 *   day, kind and series, so counting a range adds up a few hundred numbers instead of reading
 *   100 000 index entries. Both are kept by triggers, whichever process writes.
 */
export function keyRegisterByService(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE issued_service (
      profile_id  TEXT PRIMARY KEY,
      address     TEXT NOT NULL,
      tax_code    TEXT NOT NULL,
      seen_at     TEXT NOT NULL
    ) STRICT;
    CREATE TEMP TABLE register_scope (profile_id TEXT PRIMARY KEY, service_key TEXT NOT NULL);
  `);
  const at = new Date().toISOString();
  const profiles = db.prepare('SELECT DISTINCT profile_id FROM issued_invoices').all() as Array<{ profile_id: string }>;
  const put = db.prepare('INSERT INTO temp.register_scope (profile_id, service_key) VALUES (?, ?)');
  for (const { profile_id } of profiles) {
    const active = activeScope(db, profile_id);
    // Signed out at the upgrade: the seller is not known yet; the first one signed in adopts them.
    const scope = active.service.endsWith('|') ? { ...active, service: `${active.service}${UNKNOWN_SELLER}` } : active;
    put.run(profile_id, scope.service);
    rememberScope(db, scope, at);
  }
  db.exec(`
    CREATE TABLE issued_invoices_keyed (
      id                 INTEGER PRIMARY KEY,
      profile_id         TEXT NOT NULL,
      service_key        TEXT NOT NULL,
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
      updated_at         TEXT NOT NULL
    ) STRICT;
    INSERT INTO issued_invoices_keyed (profile_id, service_key, transaction_id, ref_id, inv_series, inv_no, inv_date, kind, buyer_name,
      buyer_tax_code, buyer_email, currency, total, total_without_vat, total_vat, invoice_code, send_tax_status, e_invoice_status,
      reference_type, org_series, org_inv_no, org_inv_date, original_tx, corrected_by_tx, email_state, download_state, source, search,
      status_checked_at, updated_at)
    SELECT i.profile_id, s.service_key, i.transaction_id, i.ref_id, i.inv_series, i.inv_no, i.inv_date, i.kind, i.buyer_name,
      i.buyer_tax_code, i.buyer_email, i.currency, i.total, i.total_without_vat, i.total_vat, i.invoice_code, i.send_tax_status, i.e_invoice_status,
      i.reference_type, i.org_series, i.org_inv_no, i.org_inv_date, i.original_tx, i.corrected_by_tx, i.email_state, i.download_state, i.source, i.search,
      i.status_checked_at, i.updated_at
    FROM issued_invoices i JOIN temp.register_scope s ON s.profile_id = i.profile_id;
    DROP TABLE issued_invoices;
    DROP TABLE temp.register_scope;
    ALTER TABLE issued_invoices_keyed RENAME TO issued_invoices;
    CREATE UNIQUE INDEX issued_by_tx ON issued_invoices(profile_id, service_key, transaction_id);
    CREATE INDEX issued_by_date ON issued_invoices(profile_id, service_key, inv_date, inv_series, inv_no, kind);
    CREATE INDEX issued_by_series ON issued_invoices(profile_id, service_key, inv_series, inv_no);
    CREATE INDEX issued_by_original ON issued_invoices(profile_id, service_key, original_tx) WHERE original_tx IS NOT NULL;
    CREATE INDEX issued_tax_pending ON issued_invoices(profile_id, service_key, kind, inv_date) WHERE send_tax_status IS NULL OR send_tax_status NOT IN (2, 3);
    CREATE INDEX issued_by_profile_tx ON issued_invoices(profile_id, transaction_id);

    CREATE VIRTUAL TABLE issued_search USING fts5(search, content='issued_invoices', content_rowid='id', tokenize='trigram', detail='none');
    INSERT INTO issued_search(issued_search) VALUES ('rebuild');
    CREATE TRIGGER issued_search_insert AFTER INSERT ON issued_invoices BEGIN
      INSERT INTO issued_search(rowid, search) VALUES (new.id, new.search);
    END;
    CREATE TRIGGER issued_search_delete AFTER DELETE ON issued_invoices BEGIN
      INSERT INTO issued_search(issued_search, rowid, search) VALUES ('delete', old.id, old.search);
    END;
    CREATE TRIGGER issued_search_update AFTER UPDATE OF search ON issued_invoices WHEN old.search IS NOT new.search BEGIN
      INSERT INTO issued_search(issued_search, rowid, search) VALUES ('delete', old.id, old.search);
      INSERT INTO issued_search(rowid, search) VALUES (new.id, new.search);
    END;

    CREATE TABLE issued_day_counts (
      profile_id   TEXT NOT NULL,
      service_key  TEXT NOT NULL,
      inv_date     TEXT NOT NULL,
      kind         TEXT NOT NULL,
      inv_series   TEXT NOT NULL,
      n            INTEGER NOT NULL,
      PRIMARY KEY (profile_id, service_key, inv_date, kind, inv_series)
    ) STRICT, WITHOUT ROWID;
    INSERT INTO issued_day_counts SELECT profile_id, service_key, inv_date, kind, inv_series, count(*) FROM issued_invoices
      GROUP BY profile_id, service_key, inv_date, kind, inv_series;
    CREATE TRIGGER issued_count_insert AFTER INSERT ON issued_invoices BEGIN
      INSERT INTO issued_day_counts VALUES (new.profile_id, new.service_key, new.inv_date, new.kind, new.inv_series, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER issued_count_delete AFTER DELETE ON issued_invoices BEGIN
      UPDATE issued_day_counts SET n = n - 1 WHERE profile_id = old.profile_id AND service_key = old.service_key AND inv_date = old.inv_date
        AND kind = old.kind AND inv_series = old.inv_series;
    END;
    CREATE TRIGGER issued_count_update AFTER UPDATE OF profile_id, service_key, inv_date, kind, inv_series ON issued_invoices
      WHEN old.profile_id IS NOT new.profile_id OR old.service_key IS NOT new.service_key OR old.inv_date IS NOT new.inv_date
        OR old.kind IS NOT new.kind OR old.inv_series IS NOT new.inv_series BEGIN
      UPDATE issued_day_counts SET n = n - 1 WHERE profile_id = old.profile_id AND service_key = old.service_key AND inv_date = old.inv_date
        AND kind = old.kind AND inv_series = old.inv_series;
      INSERT INTO issued_day_counts VALUES (new.profile_id, new.service_key, new.inv_date, new.kind, new.inv_series, 1)
        ON CONFLICT DO UPDATE SET n = n + 1;
    END;

    DROP TABLE issued_sync_days;
    CREATE TABLE issued_sync_days (
      profile_id   TEXT NOT NULL,
      service_key  TEXT NOT NULL,
      kind         TEXT NOT NULL,
      day          TEXT NOT NULL,
      synced_at    TEXT NOT NULL,
      PRIMARY KEY (profile_id, service_key, kind, day)
    ) STRICT;
  `);
}
