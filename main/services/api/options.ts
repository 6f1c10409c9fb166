import type { Dispatcher } from 'undici';
import type { DownloadDataType, InvoiceKind } from '../../../common/model';
import type { SignType } from '../../../common/model/issuing';
import type { ApiLogger } from './redact';
import type { CallOptions, Operation, RetryPolicy, TokenSource } from './transport';

/** What an {@link ApiClient} is built with and what its operations take. */

export interface ApiClientOptions {
  /** `{base_url}`, e.g. `https://testapi.meinvoice.vn/api/integration/invoice`; https unless loopback. */
  baseUrl: string;
  /** The access token, or a function returning it (e.g. from the keychain) before each call. */
  token?: TokenSource;
  /** The token operation's URL; default `{base_url}` with `/invoice` replaced by `/auth/token`. */
  tokenUrl?: string;
  /** Sent as the `CompanyTaxCode` header (token operation and the four operations) when set; some deployments expect it. */
  companyTaxCode?: string;
  /** HTTP dispatcher (keep-alive pool). Default: an own undici Agent, closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Per-attempt timeout covering connect, headers and body (default 30 s). */
  timeoutMs?: number;
  /** Connect timeout of the default dispatcher (default 10 s). */
  connectTimeoutMs?: number;
  /** Retry policy of the idempotent operations; `false` = one attempt only. */
  retry?: Partial<RetryPolicy> | false;
  /** Largest Download batch this client sends (default and maximum 50). */
  maxBatch?: number;
  /** Receives one redacted line per attempt (and per retry decision). */
  log?: ApiLogger;
  /** Injected for tests: jitter source (0…1) and the wait between retries. */
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The most read of one answer, per operation (default {@link ANSWER_LIMITS}). */
  answerLimits?: Partial<Record<Operation, number>>;
}

export interface DownloadOptions extends CallOptions {
  /** Default `Pdf` (docs/service.md#download). */
  type?: DownloadDataType;
  /** Which kind the IDs are (default {@link DEFAULT_INVOICE_KIND}); sent as the query flags. */
  kind?: InvoiceKind;
}

export interface IssueOptions extends CallOptions {
  signType: SignType;
  /** Required for sign types 2 and 3: one of `certificates()`. */
  certificateSN?: string | null;
}

export interface StatusOptions extends CallOptions {
  by: 'transactionId' | 'refId';
  kind?: InvoiceKind;
}

export interface TemplatesQuery {
  withCode?: boolean;
  ticket?: boolean;
  /** Omitted → the service's default (the current year). */
  year?: number;
}

export interface TokenCredentials {
  appid: string;
  taxcode: string;
  username: string;
  password: string;
}

export interface TokenResult {
  token: string;
  /** From the JWT's `exp` when the token is a JWT; otherwise null (documented lifetime: 14 days). */
  expiresAt: string | null;
}

export interface FetchedBytes {
  bytes: Uint8Array;
  contentType: string | null;
}

/** An issuing form already serialised (the issue queue keeps them as JSON text): sent as it is. */
export interface SerialisedInvoice {
  RefID: string;
  json: string;
}
