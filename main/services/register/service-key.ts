import type { DatabaseSync } from 'node:sqlite';
import { checkServiceUrl } from '../../../common/rules/network';
import { prepared } from '../store/statements';

/**
 * Which service a profile's register belongs to: its address and the seller's tax code.
 * The built-in Sandbox profile's address is `sandbox` (its port changes at every start); any
 * other address is the checked URL without a trailing slash, so two spellings of one address
 * are one service.
 */
export function serviceAddress(kind: string, baseUrl: string | null): string {
  if (kind === 'sandbox') return 'sandbox';
  const raw = (baseUrl ?? '').trim();
  const checked = checkServiceUrl(raw);
  return (checked.ok ? checked.url.href : raw).replace(/\/+$/, '');
}

/** A register scope: a profile and the service (address + tax code) its rows came from. */
export interface RegisterScope {
  profileId: string;
  service: string;
}

/**
 * The service the register of `profileId` now shows: the profile's address with the tax code
 * signed in with. Signed out (no sign-in row), the tax code last seen at this address is kept,
 * so signing out does not hide the register.
 */
export function activeScope(db: DatabaseSync, profileId: string): RegisterScope {
  const row = prepared(
    db,
    `SELECT p.kind, p.base_url, a.profile_id AS signed_in, a.tax_code, s.address AS seen_address, s.tax_code AS seen_tax_code
         FROM profiles p LEFT JOIN profile_auth a ON a.profile_id = p.id LEFT JOIN issued_service s ON s.profile_id = p.id
        WHERE p.id = ?`,
  ).get(profileId) as
    | { kind: string; base_url: string | null; signed_in: string | null; tax_code: string | null; seen_address: string | null; seen_tax_code: string }
    | undefined;
  if (!row) return { profileId, service: '|' };
  const address = serviceAddress(row.kind, row.base_url);
  const taxCode = row.signed_in !== null ? (row.tax_code ?? '').trim() : row.seen_address === address ? row.seen_tax_code : '';
  return { profileId, service: `${address}|${taxCode}` };
}

/** Remembers the service a profile's register was last written for (see `activeScope`). */
export function rememberScope(db: DatabaseSync, scope: RegisterScope, at: string): void {
  const cut = scope.service.lastIndexOf('|');
  prepared(
    db,
    `INSERT INTO issued_service (profile_id, address, tax_code, seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (profile_id) DO UPDATE SET address = excluded.address, tax_code = excluded.tax_code, seen_at = excluded.seen_at`,
  ).run(scope.profileId, scope.service.slice(0, cut), scope.service.slice(cut + 1), at);
}

/** The tax code of rows kept from before the register was keyed by service, when no seller was signed in. */
export const UNKNOWN_SELLER = '?';

/**
 * Rows kept from before the register was keyed by service while nobody was signed in belong to
 * the first seller signed in at that address: moved into `scope`, so that sign-in does not hide
 * them. (Rows read under a bare token, whose seller is never known, stay apart.) An invoice already
 * under `scope` keeps that copy. Cheap when there is nothing to move (two index lookups).
 */
export function adoptUnknownSeller(db: DatabaseSync, scope: RegisterScope): boolean {
  const unknown = unknownSellerKey(scope);
  if (!unknown || !hasRowsUnder(db, scope.profileId, unknown)) return false;
  for (const table of ['issued_invoices', 'issued_sync_days']) {
    prepared(db, `UPDATE OR IGNORE ${table} SET service_key = ? WHERE profile_id = ? AND service_key = ?`).run(scope.service, scope.profileId, unknown);
    prepared(db, `DELETE FROM ${table} WHERE profile_id = ? AND service_key = ?`).run(scope.profileId, unknown);
  }
  return true;
}

/** Whether `adoptUnknownSeller` has anything to move (a read, outside any transaction). */
export function hasUnknownSeller(db: DatabaseSync, scope: RegisterScope): boolean {
  const unknown = unknownSellerKey(scope);
  return unknown !== null && hasRowsUnder(db, scope.profileId, unknown);
}

/** The same address with the unknown seller; null when `scope` itself has no known tax code. */
function unknownSellerKey(scope: RegisterScope): string | null {
  const cut = scope.service.lastIndexOf('|');
  const taxCode = scope.service.slice(cut + 1);
  return taxCode === '' || taxCode === UNKNOWN_SELLER ? null : `${scope.service.slice(0, cut + 1)}${UNKNOWN_SELLER}`;
}

function hasRowsUnder(db: DatabaseSync, profileId: string, service: string): boolean {
  return ['issued_invoices', 'issued_sync_days'].some(
    (table) => prepared(db, `SELECT 1 AS x FROM ${table} WHERE profile_id = ? AND service_key = ? LIMIT 1`).get(profileId, service) !== undefined,
  );
}
