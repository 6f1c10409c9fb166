import type { SyncProgress, SyncSummary } from '../../../common/calls/register';
import { INVOICE_KINDS, type InvoiceKind } from '../../../common/model';
import { vietnamToday } from '../../../common/rules';
import { chunk, pageAll, MAX_DOWNLOAD_BATCH, type ApiClient } from '../api';
import type { Store } from '../store';
import type { RegisterScope } from './service-key';
import { rowFromListed, upsertRows, type RegisterRepository, type RegisterRow } from './repository';

const DAY_MS = 86_400_000;
/** The longest range one paging pass covers; the days of a pass are marked synced when it ends. */
const MAX_RUN_DAYS = 31;
/**
 * Days this close to today are read again by every sync and never marked synced: an invoice
 * issued just before midnight can reach the list after it (the service's own lag, the
 * sandbox's statusDelayMs), and one can be issued or signed later with an earlier InvDate.
 */
export const RECHECK_DAYS = 2;
/** A sync that added at least this many rows merges the search index afterwards. */
const TIDY_AFTER = 1_000;
/** With-code invoices this recent get their tax-authority status asked again until it is final. */
export const STATUS_REFRESH_DAYS = 30;

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** Contiguous runs of the given (sorted) days, each at most `max` days long. */
export function runsOf(days: readonly string[], max = MAX_RUN_DAYS): Array<{ from: string; to: string; days: string[] }> {
  const runs: Array<{ from: string; to: string; days: string[] }> = [];
  for (const day of days) {
    const last = runs.at(-1);
    if (last && addDays(last.to, 1) === day && last.days.length < max) {
      last.to = day;
      last.days.push(day);
    } else runs.push({ from: day, to: day, days: [day] });
  }
  return runs;
}

export interface SyncDeps {
  store: Store;
  repo: RegisterRepository;
  client: ApiClient;
  /** The profile and the service (address + tax code) the client talks to: rows and synced days are recorded for it. */
  scope: RegisterScope;
  now: () => Date;
  onProgress?: (p: SyncProgress) => void;
  /** After each page written (the screen refreshes its list). */
  onChanged?: () => void;
  signal?: AbortSignal;
}

/**
 * Brings a date range of the register up to date. Per kind, only the days not yet synced from this
 * service (address + tax code: after a change of either, every day is read again) are read,
 * plus the last two days (never final: invoices are still being issued and listed), in contiguous runs of at most 31 days,
 * each paged to the end (Take 100, de-duplicated by TransactionID). Every page is written in its
 * own transaction as it arrives (one row per TransactionID: writing it again changes nothing), and
 * a run's days are marked synced only once the run is complete — so a sync stopped half-way loses
 * nothing and, run again, doubles nothing. Then the recent with-code invoices whose tax-authority
 * answer is not final (SendTaxStatus not 2/3) are asked about by `status`.
 */
export async function syncRange(deps: SyncDeps, range: { from: string; to: string; kinds?: readonly InvoiceKind[] }): Promise<SyncSummary> {
  const { repo, client, scope, signal } = deps;
  const today = vietnamToday(deps.now());
  const kinds = range.kinds && range.kinds.length > 0 ? [...new Set(range.kinds)] : [...INVOICE_KINDS];
  const to = range.to < today ? range.to : today;
  const openFrom = addDays(today, -RECHECK_DAYS);
  const summary: SyncSummary = { ranges: [], pagingRequests: 0, fetched: 0, added: 0, statusRefreshed: 0 };
  for (const kind of range.from <= to ? kinds : []) {
    const synced = repo.syncedDays(scope, kind, range.from, to);
    const pending = daysBetween(range.from, to).filter((d) => d >= openFrom || !synced.has(d));
    for (const run of runsOf(pending)) {
      signal?.throwIfAborted();
      summary.ranges.push({ kind, from: run.from, to: run.to });
      const paged = await pageAll(
        (skip, take) => client.paging({ from: run.from, to: run.to, kind, skip, take }, signal ? { signal } : {}),
        (fresh, progress) => {
          const rows = fresh.flatMap((i) => rowFromListed(i) ?? []);
          const emailed = new Set(fresh.filter((i) => i.raw.IsSendMail === true || i.raw.isSendMail === true).map((i) => i.transactionId));
          summary.added += write(deps, rows, emailed);
          summary.fetched += fresh.length;
          deps.onProgress?.({ phase: 'list', kind, seen: progress.seen, total: progress.total });
          deps.onChanged?.();
          signal?.throwIfAborted();
        },
      );
      summary.pagingRequests += paged.requests;
      // pageAll can give up (its request budget, its passes) with fewer invoices than TotalCount:
      // such a run is not complete, so its days stay unsynced and are read again next time.
      if (paged.seen < paged.total) continue;
      repo.markSynced(
        scope,
        kind,
        run.days.filter((d) => d < openFrom),
        deps.now().toISOString(),
      );
    }
  }
  if (summary.added >= TIDY_AFTER) repo.tidySearch();
  summary.statusRefreshed = await refreshTaxStatus(deps, addDays(today, -STATUS_REFRESH_DAYS));
  deps.onProgress?.({ phase: 'done', kind: null, seen: summary.fetched, total: summary.fetched });
  return summary;
}

function write(deps: SyncDeps, rows: RegisterRow[], emailed: ReadonlySet<string>): number {
  const at = deps.now().toISOString();
  return deps.store.transaction((db) => upsertRows(db, deps.scope, rows, 'sync', at, emailed));
}

/** Asks `status` (50 at a time) about with-code invoices since `fromDay` whose SendTaxStatus is not 2 or 3. */
export async function refreshTaxStatus(deps: SyncDeps, fromDay: string): Promise<number> {
  const ids = deps.repo.pendingTax(deps.scope, fromDay);
  let done = 0;
  for (const batch of chunk(ids, MAX_DOWNLOAD_BATCH)) {
    deps.signal?.throwIfAborted();
    const items = await deps.client.status(batch, { by: 'transactionId', kind: 'withCode', ...(deps.signal ? { signal: deps.signal } : {}) });
    deps.repo.applyStatus(deps.scope, items, deps.now().toISOString());
    done += batch.length;
    deps.onProgress?.({ phase: 'status', kind: 'withCode', seen: done, total: ids.length });
  }
  if (ids.length > 0) deps.onChanged?.();
  return ids.length;
}
