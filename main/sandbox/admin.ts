import type { SandboxContext } from './context';
import { INVOICE_KINDS, downloadFlags, type InvoiceKind } from '../../common/model/kind';
import { formatFaultSpec, normaliseFaults } from './faults';
import { checkQuirks } from './quirks';
import { DOWNLOAD_DATA_TYPES, type DownloadDataType } from './render';
import type { Reply } from './reply';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN } from './tokens';

/** Path of the four operations below the origin, and of the token operation. */
export const SANDBOX_BASE_PATH = '/api/integration/invoice';
export const SANDBOX_TOKEN_PATH = '/api/integration/auth/token';

/** What `GET /__sandbox/state` answers. */
function sandboxState(ctx: SandboxContext): Record<string, unknown> {
  const { origin, cat, injector } = ctx;
  return {
    origin,
    baseUrl: origin + SANDBOX_BASE_PATH,
    tokenUrl: origin + SANDBOX_TOKEN_PATH,
    devToken: SANDBOX_DEV_TOKEN,
    credentials: SANDBOX_CREDENTIALS,
    seed: ctx.seed,
    invoiceCount: cat.size,
    invoices: Object.fromEntries(INVOICE_KINDS.map((k) => [k, { count: cat.list(k).length, deleted: cat.deletedIds(k).length, flags: downloadFlags(k) }])),
    previewLinkTtlMs: ctx.linkTtlMs,
    quirks: ctx.quirks,
    faults: injector.current,
    faultSpec: formatFaultSpec(injector.current),
    emails: ctx.emails.length,
    requests: ctx.log.length,
    issued: ctx.issuing.count,
    overlaps: ctx.issuing.overlaps,
    certificateSN: ctx.issuing.certificate.CertificateSN,
  };
}

/**
 * Clears logs (requests, emails, issue attempts, the overlap count) and links; restores the
 * start-up quirks and faults. Issued invoices and their numbering stay: the catalogue is state.
 */
export function resetSandbox(ctx: SandboxContext): void {
  ctx.issuing.clearLogs();
  ctx.quirks = { ...ctx.initialQuirks };
  ctx.injector.set(ctx.initialFaults);
  ctx.emails.length = 0;
  ctx.emailCounts.clear();
  ctx.log = [];
  ctx.served = { pagingRequests: 0, pagingItems: 0 };
  ctx.links.clear();
}

/** Pre-renders invoices into the bytes cache, so a benchmark measures the client, not the renderer. */
export async function warmSandbox(ctx: SandboxContext, ids: readonly string[], type: DownloadDataType = 'Pdf'): Promise<void> {
  for (const id of ids) {
    const inv = ctx.cat.get(id);
    if (inv && !inv.deleted) await ctx.renderer.wire(inv, type);
  }
}

/** The unauthenticated `/__sandbox/*` endpoints that tests, benchmarks and `einvoice sandbox` drive. */
export function handleAdmin(ctx: SandboxContext, method: string, path: string, query: URLSearchParams, body: unknown): Reply {
  const { cat } = ctx;
  const sub = path.slice('/__sandbox'.length).replace(/\/+$/, '') || '/';
  const json = (data: unknown, status = 200): Reply => ({ status, body: JSON.stringify(data), contentType: 'application/json; charset=utf-8' });
  try {
    if (method === 'GET' && (sub === '/' || sub === '/state')) return json(sandboxState(ctx));
    if (method === 'POST' && sub === '/quirks') {
      ctx.quirks =
        body && typeof body === 'object' && (body as { reset?: unknown }).reset === true ? { ...ctx.initialQuirks } : { ...ctx.quirks, ...checkQuirks(body) };
      return json(ctx.quirks);
    }
    if (method === 'POST' && sub === '/faults') {
      const spec = body && typeof body === 'object' && 'spec' in body ? (body as { spec: unknown }).spec : body;
      ctx.injector.set(normaliseFaults(spec));
      return json({ faults: ctx.injector.current, faultSpec: formatFaultSpec(ctx.injector.current) });
    }
    if (method === 'GET' && sub === '/emails') return json(ctx.emails);
    if (method === 'GET' && sub === '/issued')
      return json({ issued: ctx.issuing.issued(), overlaps: ctx.issuing.overlaps, attempts: ctx.issuing.attempts(query.get('refId') ?? undefined) });
    if (method === 'GET' && sub === '/requests') {
      const op = query.get('op');
      return json(op ? ctx.log.filter((r) => r.op === op) : ctx.log);
    }
    if (method === 'GET' && sub === '/invoices') {
      const kind = (query.get('kind') ?? 'withCode') as InvoiceKind;
      if (!INVOICE_KINDS.includes(kind)) return json({ error: `kind must be one of ${INVOICE_KINDS.join(', ')}` }, 400);
      const limit = Number(query.get('limit') ?? '100');
      const offset = Number(query.get('offset') ?? '0');
      return json({
        kind,
        flags: downloadFlags(kind),
        total: cat.list(kind).length,
        ids: cat.list(kind).slice(offset, offset + limit),
        deleted: cat.deletedIds(kind),
      });
    }
    if (method === 'POST' && sub === '/reset') {
      resetSandbox(ctx);
      return json(sandboxState(ctx));
    }
    if (method === 'POST' && sub === '/warm') {
      const b = (body && typeof body === 'object' ? body : {}) as { kind?: unknown; type?: unknown; limit?: unknown; ids?: unknown };
      const type = DOWNLOAD_DATA_TYPES.find((t) => t.toLowerCase() === String(b.type ?? 'Pdf').toLowerCase()) ?? 'Pdf';
      const ids = Array.isArray(b.ids)
        ? b.ids.map(String)
        : (INVOICE_KINDS.includes(b.kind as InvoiceKind) ? [b.kind as InvoiceKind] : INVOICE_KINDS).flatMap((k) =>
            cat.list(k).slice(0, Number(b.limit ?? 1000)),
          );
      return { status: 202, body: '', deferred: warmSandbox(ctx, ids, type).then(() => json({ warmed: ids.length, type })) };
    }
    if (method === 'POST' && sub === '/token') {
      const ttlMs = body && typeof body === 'object' ? Number((body as { ttlMs?: unknown }).ttlMs) : NaN;
      return json({ token: ctx.tokens.issue(Number.isFinite(ttlMs) ? { ttlMs } : {}) });
    }
  } catch (error) {
    return json({ error: error instanceof Error ? error.message : String(error) }, 400);
  }
  return json({ error: 'unknown admin endpoint' }, 404);
}
