import { SANDBOX_BASE_PATH, SANDBOX_TOKEN_PATH, resetSandbox, warmSandbox } from './admin';
import type { SandboxContext, SandboxEmail, SandboxRequestLog } from './context';
import { emailStatusFor } from './context';
import { buildCatalogue, buildTemplates, vietnamDate, type SandboxInvoice, type TemplateEntry } from './data';
import { downloadFlags, type InvoiceKind } from '../../common/model/kind';
import { FaultInjector, normaliseFaults, type FaultConfig, type FaultOp } from './faults';
import { createSandboxServer } from './http';
import { IssueLedger, type SandboxCertificate, type SandboxIssueAttempt, type SandboxIssued } from './ledger';
import { LinkStore } from './links';
import { DEFAULT_QUIRKS, checkQuirks, type SandboxQuirks } from './quirks';
import { InvoiceRenderer, type DownloadDataType } from './render';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN, TokenIssuer } from './tokens';

export { parseFaultSpec, formatFaultSpec, normaliseFaults, FAULT_OPS, FAULT_KINDS } from './faults';
export type { FaultConfig, FaultOp, OpFaults, FaultKind } from './faults';
export { DEFAULT_QUIRKS } from './quirks';
export type { SandboxQuirks } from './quirks';
export { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN, SANDBOX_INACTIVE_APPID } from './tokens';
export type { SandboxInvoice, SandboxTemplate } from './data';
export type { DownloadDataType } from './render';
export { SANDBOX_BASE_PATH, SANDBOX_TOKEN_PATH } from './admin';
export type { SandboxEmail, SandboxRequestLog } from './context';
export type { SandboxCertificate, SandboxIssueAttempt, SandboxIssued } from './ledger';

export interface SandboxOptions {
  /** 0 (default) = a free port. The host is always 127.0.0.1. */
  port?: number;
  /** Seed of every generated datum and of fault injection (default 1). */
  seed?: number;
  /** Issued invoices in the catalogue (default 5000). */
  invoiceCount?: number;
  /** Lifetime of preview and viewer links (default 30 000 ms). */
  previewLinkTtlMs?: number;
  /** Lifetime of tokens issued by the token operation (default 14 days). */
  tokenTtlMs?: number;
  quirks?: Partial<SandboxQuirks>;
  /** Fault config object or compact spec string (see parseFaultSpec). */
  faults?: FaultConfig | string;
  /** Clock (token expiry, link expiry, "this year"). Default: the wall clock. */
  now?: () => Date;
  /** Grow every issued PDF to about this many KB (default $EINVOICE_SANDBOX_PDF_KB, else 0 = natural size, ~50 KB). */
  pdfPadKb?: number;
  /** Every catalogue invoice with one line: short, quickly generated documents (benchmarks of 100 000 downloads). */
  briefInvoices?: boolean;
  /** Bound of the rendered-bytes cache (default 512 MB). */
  cacheMb?: number;
  /** Folder holding DejaVuSans.ttf (default: assets/fonts, found upwards; or $EINVOICE_FONT_DIR). */
  fontDir?: string;
}

interface SandboxCatalogue {
  /** Live issued invoices of one kind, in issue order. */
  list(kind: InvoiceKind): readonly string[];
  /** Invoices that were deleted (Download answers InvoiceDeleted). */
  deletedIds(kind: InvoiceKind): readonly string[];
  get(transactionId: string): SandboxInvoice | undefined;
  kindOf(transactionId: string): InvoiceKind | undefined;
  flagsFor(kind: InvoiceKind): { invoiceWithCode: boolean; invoiceCalcu: boolean };
  /** The exact file bytes Download delivers (decoded: PDF/zip bytes, UTF-8 XML/HTML). */
  expected(transactionId: string, type: DownloadDataType): Promise<Uint8Array>;
  /** SendEmailStatus a good item of this id gets under the current quirks. */
  expectedEmailStatus(transactionId: string): 3 | 4;
  templates(): readonly TemplateEntry[];
  readonly size: number;
}

export interface Sandbox {
  readonly origin: string;
  readonly baseUrl: string;
  readonly tokenUrl: string;
  readonly devToken: string;
  readonly credentials: typeof SANDBOX_CREDENTIALS;
  readonly seed: number;
  readonly catalogue: SandboxCatalogue;
  quirks(): SandboxQuirks;
  /** Merges into the current quirks. */
  setQuirks(q: Partial<SandboxQuirks>): void;
  faults(): FaultConfig;
  /** Replaces the faults (object or spec string); restarts the per-operation PRNGs. */
  setFaults(f: FaultConfig | string): void;
  sentEmails(): SandboxEmail[];
  requests(filter?: { op?: FaultOp }): SandboxRequestLog[];
  /** What paging answered since the last reset: requests that got a page, and invoices in them. */
  pagingServed(): { requests: number; items: number };
  /** Every invoice issued through the API, in issue order (they are in the catalogue too). */
  issued(): SandboxIssued[];
  /** Per RefID: issue requests that carried it (since the last reset) and times it was recorded (0 or 1). */
  issueAttempts(refId?: string): SandboxIssueAttempt[];
  /** Items refused with InvoiceNumberNotCotinuous because another request held their series (since the last reset). */
  overlaps(): number;
  /** The one certificate get-certificates lists (its CertificateSN issues with SignType 2 and 3). */
  certificate(): SandboxCertificate;
  /**
   * Clears logs (requests, emails, issue attempts, overlaps) and links; restores the start-up
   * quirks and faults. Issued invoices and per-series numbering stay.
   */
  reset(): void;
  /** Issues a token directly (tests: `issueToken({ ttlMs: -1000 })` gives an expired one). */
  issueToken(opts?: { ttlMs?: number }): string;
  /** Pre-renders invoices into the bytes cache (benchmarks: measure the client, not the renderer). */
  warm(ids: readonly string[], type?: DownloadDataType): Promise<void>;
  /** Rendering statistics of the bytes cache. */
  stats(): { cacheHits: number; cacheMisses: number; cachedItems: number; cachedBytes: number; renderMs: number };
  /** Stops listening and drops open connections; state is kept. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  readonly listening: boolean;
  close(): Promise<void>;
}

/** Starts the sandbox service on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1;
  const now = options.now ?? (() => new Date());
  const linkTtlMs = options.previewLinkTtlMs ?? 30_000;
  const initialQuirks: SandboxQuirks = { ...DEFAULT_QUIRKS, ...checkQuirks(options.quirks ?? {}) };
  const initialFaults = normaliseFaults(options.faults ?? {});
  const startDate = now();
  const cat = buildCatalogue(seed, options.invoiceCount ?? 5000, startDate, options.briefInvoices ?? false);
  const templates = buildTemplates(seed, vietnamDate(startDate).year);
  const envPad = Number(process.env.EINVOICE_SANDBOX_PDF_KB ?? '');
  const ctx: SandboxContext = {
    seed,
    now,
    linkTtlMs,
    tokenTtlMs: options.tokenTtlMs,
    initialQuirks,
    initialFaults,
    quirks: { ...initialQuirks },
    injector: new FaultInjector(seed, initialFaults),
    tokens: new TokenIssuer(seed, now),
    cat,
    templates,
    issuing: new IssueLedger(seed, cat, templates, startDate),
    renderer: new InvoiceRenderer({
      fontDir: options.fontDir,
      padKb: options.pdfPadKb ?? (Number.isFinite(envPad) && envPad > 0 ? envPad : 0),
      cacheMb: options.cacheMb,
    }),
    links: new LinkStore(seed, linkTtlMs, now, () => ctx.origin),
    emails: [],
    emailCounts: new Map(),
    log: [],
    served: { pagingRequests: 0, pagingItems: 0 },
    origin: '',
  };
  const { renderer, issuing } = ctx;
  const server = createSandboxServer(ctx, options.port ?? 0);
  await server.listen();

  const catalogue: SandboxCatalogue = {
    list: (kind) => cat.list(kind),
    deletedIds: (kind) => cat.deletedIds(kind),
    get: (id) => cat.get(id),
    kindOf: (id) => cat.kindOf(id),
    flagsFor: downloadFlags,
    expected: (id, type) => {
      const inv = cat.get(id);
      if (!inv || inv.deleted) return Promise.reject(new Error(`no live invoice ${id}`));
      return renderer.render(inv, type);
    },
    expectedEmailStatus: (id) => emailStatusFor(ctx, id),
    templates: () => ctx.templates,
    get size() {
      return cat.size;
    },
  };

  return {
    get origin() {
      return ctx.origin;
    },
    get baseUrl() {
      return ctx.origin + SANDBOX_BASE_PATH;
    },
    get tokenUrl() {
      return ctx.origin + SANDBOX_TOKEN_PATH;
    },
    devToken: SANDBOX_DEV_TOKEN,
    credentials: SANDBOX_CREDENTIALS,
    seed,
    catalogue,
    quirks: () => ({ ...ctx.quirks }),
    setQuirks: (q) => {
      ctx.quirks = { ...ctx.quirks, ...checkQuirks(q) };
    },
    faults: () => ctx.injector.current,
    setFaults: (f) => ctx.injector.set(normaliseFaults(f)),
    sentEmails: () => ctx.emails.map((e) => ({ ...e })),
    requests: (filter) => (filter?.op ? ctx.log.filter((r) => r.op === filter.op) : [...ctx.log]),
    pagingServed: () => ({ requests: ctx.served.pagingRequests, items: ctx.served.pagingItems }),
    issued: () => issuing.issued(),
    issueAttempts: (refId) => issuing.attempts(refId),
    overlaps: () => issuing.overlaps,
    certificate: () => ({ ...issuing.certificate }),
    reset: () => resetSandbox(ctx),
    issueToken: (opts) => ctx.tokens.issue(opts),
    warm: (ids, type) => warmSandbox(ctx, ids, type),
    stats: () => ({
      cacheHits: renderer.cache.hits,
      cacheMisses: renderer.cache.misses,
      cachedItems: renderer.cache.size,
      cachedBytes: renderer.cache.totalBytes,
      renderMs: renderer.renderMs,
    }),
    stop: () => server.stop(),
    start: async () => {
      if (!server.listening) await server.listen();
    },
    get listening() {
      return server.listening;
    },
    close: async () => {
      await server.stop();
      renderer.cache.clear();
      ctx.links.clear();
    },
  };
}
