import type { InvoiceKind } from '../../../common/model';
import { chunk, type StatusItem } from '../api';
import { adoptFromStatus } from './judge';
import type { IssueRunnerDeps, RunnerSession } from './runner';

const DEFAULT_LOOKUPS = [2_000, 5_000, 10_000, 20_000, 30_000, 60_000];

export interface LookupContext<S extends RunnerSession> {
  deps: IssueRunnerDeps<S>;
  signal: AbortSignal;
  now: () => number;
}

/**
 * Asks the service, by RefID, about invoices whose outcome is unknown: found → issued (adopted);
 * still absent after the settle window and three lookups → known not issued, queued again with
 * the same RefID (were it issued after all, the service answers DuplicateInvoiceRefID and the
 * invoice is adopted).
 */
export async function settleUnknown<S extends RunnerSession>(
  ctx: LookupContext<S>,
  session: S,
  profileId: string,
  options: { all?: boolean; ids?: readonly number[] } = {},
): Promise<{ ok: true } | { ok: false; error: unknown }> {
  const { queue } = ctx.deps;
  const due = queue.unknownDue(profileId, options);
  const window = ctx.deps.settleWindowMs ?? 10 * 60_000;
  const delays = ctx.deps.lookupDelaysMs ?? DEFAULT_LOOKUPS;
  const byKind = new Map<InvoiceKind, typeof due>();
  for (const u of due) byKind.set(u.kind, [...(byKind.get(u.kind) ?? []), u]);
  for (const [kind, list] of byKind) {
    for (const part of chunk(list, 50)) {
      let items: StatusItem[];
      try {
        items = await ctx.deps.status(
          session,
          part.map((u) => u.refId),
          kind,
          ctx.signal,
        );
      } catch (error) {
        return { ok: false, error };
      }
      const byRef = new Map(items.filter((i) => i.refId).map((i) => [i.refId!, i]));
      const issued: number[] = [];
      for (const u of part) {
        const found = adoptFromStatus(byRef.get(u.refId));
        if (found !== null && found !== 'pending') {
          if (queue.resolve(u.id, found, u)) issued.push(u.id);
        } else if (found === null && !u.serviceHas && ctx.now() - Date.parse(u.unknownSince) >= window && u.lookups + 1 >= 3) {
          queue.resolve(
            u.id,
            {
              state: 'queued',
              delayMs: 0,
              message: {
                en: `The service has no invoice with this RefID after ${u.lookups + 1} checks: it was not issued and goes out again.`,
                vi: `Sau ${u.lookups + 1} lần kiểm tra hệ thống không có hóa đơn với RefID này: hóa đơn chưa được phát hành và sẽ được gửi lại.`,
              },
            },
            u,
          );
        } else queue.lookedUp(u.id, delays[Math.min(u.lookups, delays.length - 1)]!, u);
      }
      if (issued.length > 0) ctx.deps.onIssued?.(issued);
      ctx.deps.onChange?.();
    }
  }
  return { ok: true };
}

/** The tax authority's code of with-code invoices, which the service delivers after issuing. */
export async function refreshCodes<S extends RunnerSession>(ctx: LookupContext<S>, session: S, profileId: string): Promise<void> {
  const { queue } = ctx.deps;
  const found: number[] = [];
  for (const part of chunk(queue.codesWaiting(profileId, 200), 50)) {
    let items: StatusItem[];
    try {
      items = await ctx.deps.statusByTransaction(
        session,
        part.map((w) => w.transactionId),
        ctx.signal,
      );
    } catch {
      return; // asked again at the next check
    }
    const byTx = new Map(items.map((i) => [i.transactionId, i.invoiceCode]));
    for (const w of part) {
      const code = byTx.get(w.transactionId);
      if (code) {
        queue.setInvoiceCode(w.id, code);
        found.push(w.id);
      }
    }
  }
  if (found.length > 0) ctx.deps.onChange?.();
}
