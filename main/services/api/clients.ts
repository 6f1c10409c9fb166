import type { Dispatcher } from 'undici';
import { ApiClient, type RetryPolicy, type TokenSource } from './client';
import type { ApiLogger } from './redact';

/**
 * What a client is for; decides its per-request timeout and its retries (of the operations
 * that are safe to repeat — sendemail is never repeated, whatever the purpose).
 */
export type ClientPurpose = 'probe' | 'token' | 'check' | 'templates' | 'preview' | 'download' | 'email' | 'issue' | 'register' | 'view' | 'paper' | 'command';

export interface PurposeRule {
  timeoutMs: number;
  retry: Partial<RetryPolicy>;
}

/** The one table of timeouts and retries. */
export const CLIENT_PURPOSES: Readonly<Record<ClientPurpose, PurposeRule>> = {
  /** The connectivity monitor: any answer counts; the next check comes soon anyway. */
  probe: { timeoutMs: 15_000, retry: { retries: 1, maxTotalMs: 15_000 } },
  /** The token operation while someone waits at the sign-in form. */
  token: { timeoutMs: 15_000, retry: { retries: 1, maxTotalMs: 15_000 } },
  /** Settings → "Test connection". */
  check: { timeoutMs: 15_000, retry: { retries: 1, maxTotalMs: 15_000 } },
  /** The template list behind the draft editor (a cache covers failures). */
  templates: { timeoutMs: 15_000, retry: { retries: 1, maxTotalMs: 20_000, baseDelayMs: 200 } },
  /** Preview while the cashier waits; the link is fetched at once after. */
  preview: { timeoutMs: 20_000, retry: { retries: 1, maxTotalMs: 20_000, baseDelayMs: 200 } },
  /** Bulk downloads: big answers, nobody waiting on one call. */
  download: { timeoutMs: 60_000, retry: { retries: 3, maxTotalMs: 60_000 } },
  /** The email queue: after this the outcome of a sendemail is unknown. */
  email: { timeoutMs: 30_000, retry: { retries: 3, maxTotalMs: 60_000 } },
  /** Issuing and its status lookups: issue is never retried (after the timeout its outcome is unknown); status and certificates are. */
  issue: { timeoutMs: 60_000, retry: { retries: 3, maxTotalMs: 60_000 } },
  /** Syncing the register of issued invoices: many pages (paging) and status refreshes, nobody waiting on one. */
  register: { timeoutMs: 30_000, retry: { retries: 3, maxTotalMs: 60_000 } },
  /** Opening one issued invoice (publishview, then its short-lived link at once) while someone waits. */
  view: { timeoutMs: 20_000, retry: { retries: 1, maxTotalMs: 20_000, baseDelayMs: 200 } },
  /** Paper copies converted from issued invoices: up to 50 PDFs per answer. */
  paper: { timeoutMs: 60_000, retry: { retries: 3, maxTotalMs: 60_000 } },
  /** One command-line call (`einvoice templates`). */
  command: { timeoutMs: 30_000, retry: { retries: 3, maxTotalMs: 60_000 } },
};

/** Where to talk to: a service address and, for the four operations, a token. */
export interface ClientTarget {
  baseUrl: string;
  tokenUrl?: string | null;
  token?: TokenSource;
}

/** A signed-in session (auth's SignedInSession has this shape). */
export interface SessionTarget {
  endpoint: { baseUrl: string; tokenUrl?: string | null };
  token: string;
}

export interface ClientExtras {
  /** Overrides the purpose's per-request timeout (e.g. a setting of the caller). */
  timeoutMs?: number;
  dispatcher?: Dispatcher;
  log?: ApiLogger;
}

export interface ClientDefaults {
  /** Every client's per-request timeout, whatever the purpose (the CLI's `--timeout`). */
  timeoutMs?: number;
  /** Receives every client's redacted request lines (the CLI's EINVOICE_DEBUG). */
  log?: ApiLogger;
}

/** Builds every service client of the app, the browser host and the CLI. */
export class ClientFactory {
  constructor(private readonly defaults: ClientDefaults = {}) {}

  /** A client signed in with the session's token. */
  forSession(session: SessionTarget, purpose: ClientPurpose, extras: ClientExtras = {}): ApiClient {
    return this.forTarget({ baseUrl: session.endpoint.baseUrl, tokenUrl: session.endpoint.tokenUrl ?? null, token: session.token }, purpose, extras);
  }

  /** A client for an address, with a token or without one (the probe, the token operation). */
  forTarget(target: ClientTarget, purpose: ClientPurpose, extras: ClientExtras = {}): ApiClient {
    const rule = CLIENT_PURPOSES[purpose];
    const log = extras.log ?? this.defaults.log;
    return new ApiClient({
      baseUrl: target.baseUrl,
      ...(target.tokenUrl ? { tokenUrl: target.tokenUrl } : {}),
      ...(target.token !== undefined ? { token: target.token } : {}),
      timeoutMs: this.defaults.timeoutMs ?? extras.timeoutMs ?? rule.timeoutMs,
      retry: rule.retry,
      ...(extras.dispatcher ? { dispatcher: extras.dispatcher } : {}),
      ...(log ? { log } : {}),
    });
  }
}

/** For modules not (yet) handed the composition root's factory: the same table, no defaults. */
export const clients = new ClientFactory();
