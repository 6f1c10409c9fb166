import type { Catalogue, TemplateEntry } from './data';
import type { InvoiceKind } from '../../common/model/kind';
import type { FaultConfig, FaultInjector, FaultKind, FaultOp } from './faults';
import type { IssueLedger } from './ledger';
import type { LinkStore } from './links';
import type { SandboxQuirks } from './quirks';
import type { InvoiceRenderer } from './render';
import type { TokenCheck, TokenIssuer } from './tokens';

export interface SandboxRequestLog {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  /** Lower-case header names; the Authorization value is replaced by "[redacted]". */
  headers: Record<string, string>;
  bodySize: number;
  op: FaultOp | 'other';
  auth: TokenCheck;
  /** HTTP status sent, or 0 when the connection was reset / left hanging. */
  status: number;
  fault?: FaultKind;
}

export interface SandboxEmail {
  seq: number;
  at: string;
  TransactionID: string;
  kind: InvoiceKind;
  receiverName: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string;
  subject: string;
  status: 3 | 4;
}

/** The state one running sandbox shares between its operations, admin endpoints and HTTP plumbing. */
export interface SandboxContext {
  readonly seed: number;
  readonly now: () => Date;
  /** Lifetime of preview and viewer links. */
  readonly linkTtlMs: number;
  /** Lifetime of tokens from the token operation (undefined: the issuer's default). */
  readonly tokenTtlMs: number | undefined;
  readonly initialQuirks: SandboxQuirks;
  readonly initialFaults: FaultConfig;
  quirks: SandboxQuirks;
  readonly injector: FaultInjector;
  readonly tokens: TokenIssuer;
  readonly cat: Catalogue;
  readonly templates: readonly TemplateEntry[];
  /** Invoices issued through the API, series holds, the certificate. */
  readonly issuing: IssueLedger;
  readonly renderer: InvoiceRenderer;
  readonly links: LinkStore;
  readonly emails: SandboxEmail[];
  /** How often each TransactionID was emailed (seeds a fresh RefDetailID per send). */
  readonly emailCounts: Map<string, number>;
  log: SandboxRequestLog[];
  /** What paging answered since the last reset: requests and invoices served. */
  served: { pagingRequests: number; pagingItems: number };
  /** `http://127.0.0.1:<port>` once listening, '' before. */
  origin: string;
}

/** SendEmailStatus a good item gets: the quirk, or 4 for IDs ending in a digit and 3 otherwise. */
export function emailStatusFor(ctx: SandboxContext, id: string): 3 | 4 {
  if (ctx.quirks.emailStatus !== 'auto') return ctx.quirks.emailStatus;
  return /[0-9]$/.test(id) ? 4 : 3;
}

/** The envelope's `data` as the current quirk encodes it (JSON-in-string once, twice, or as is). */
export function encodeData(ctx: SandboxContext, value: unknown): unknown {
  if (ctx.quirks.dataEncoding === 'object') return value;
  const once = JSON.stringify(value);
  return ctx.quirks.dataEncoding === 'double' ? JSON.stringify(once) : once;
}
