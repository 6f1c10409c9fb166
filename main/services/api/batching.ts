import type { SendEmailData, SendEmailParameter } from '../../../common/model';

import { MAX_DOWNLOAD_BATCH } from '../../../common/rules/network';

export { MAX_DOWNLOAD_BATCH };

/** Splits a list into batches of at most `max` (1…50 by default rule; any positive size allowed). */
export function chunk<T>(items: readonly T[], max: number = MAX_DOWNLOAD_BATCH): T[][] {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`batch size must be a positive integer, got ${max}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += max) out.push(items.slice(i, i + max));
  return out;
}

/**
 * The three invoice kinds that must not be mixed in one sendemail (or Download) call.
 * Cash-register invoices carry a tax-authority code generated at the register (series letter C
 * with type M), so they are sent with `IsInvoiceCode: true` plus `IsInvoiceCalculatingMachine: true`.
 */
export type InvoiceKind = 'withCode' | 'withoutCode' | 'cashRegister';

export function kindFlags(kind: InvoiceKind): { withCode: boolean; cashRegister: boolean } {
  switch (kind) {
    case 'withCode':
      return { withCode: true, cashRegister: false };
    case 'withoutCode':
      return { withCode: false, cashRegister: false };
    case 'cashRegister':
      return { withCode: true, cashRegister: true };
  }
}

/** Reads the kind from a series symbol such as `1C25TAA` / `1K25TAA` / `1C25MAA`; null if unreadable. */
export function kindFromSeries(series: string): InvoiceKind | null {
  const m = /^\d([CK])\d{2}([A-Z])[A-Z0-9]{2}$/i.exec(series.trim());
  if (!m) return null;
  if (m[2]!.toUpperCase() === 'M') return 'cashRegister';
  return m[1]!.toUpperCase() === 'C' ? 'withCode' : 'withoutCode';
}

export interface EmailEntry {
  kind: InvoiceKind;
  data: SendEmailData;
}

/**
 * Groups email entries into sendemail bodies: one invoice kind per body, at most `max` entries
 * each, in the order the kinds first appear.
 */
export function groupEmailsByKind(entries: readonly EmailEntry[], max: number = MAX_DOWNLOAD_BATCH): Array<{ kind: InvoiceKind; parameter: SendEmailParameter }> {
  const byKind = new Map<InvoiceKind, SendEmailData[]>();
  for (const e of entries) {
    const list = byKind.get(e.kind) ?? [];
    list.push(e.data);
    byKind.set(e.kind, list);
  }
  const out: Array<{ kind: InvoiceKind; parameter: SendEmailParameter }> = [];
  for (const [kind, list] of byKind) {
    const flags = kindFlags(kind);
    for (const part of chunk(list, max)) {
      out.push({ kind, parameter: { SendEmailDatas: part, IsInvoiceCode: flags.withCode, IsInvoiceCalculatingMachine: flags.cashRegister } });
    }
  }
  return out;
}

/** Splits an address list on `;` or `,`, trims, drops empties, joins with `;` (the service's separator). */
export function normaliseEmailList(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .join(';');
}

/** Runs `worker` over `items` with at most `concurrency` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, worker: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await worker(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, run));
  return results;
}
