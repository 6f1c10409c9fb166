import { finished } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { isRetryableFailure } from '../../../common/rules/network';
import { ApiError, apiErrors } from './errors';
import { redact, type ApiLogger } from './redact';

/**
 * The HTTP half of the service client: one exchange over an undici dispatcher (timeouts,
 * transport failures classified into ApiError kinds, redacted logging) and the retry loop for
 * operations that are safe to repeat. The client (client.ts) knows the operations and answers.
 */

export interface RetryPolicy {
  /** Extra attempts after the first (default 3). */
  retries: number;
  /** First backoff delay (default 300 ms); doubles each time, with jitter. */
  baseDelayMs: number;
  /** Cap of one backoff delay (default 5 s); a Retry-After beyond the budget ends the retries. */
  maxDelayMs: number;
  /** Budget for all attempts and waits of one call (default 60 s). */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 300, maxDelayMs: 5_000, maxTotalMs: 60_000 };

export type TokenSource = string | (() => string | null | undefined | Promise<string | null | undefined>);

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout for this call. */
  timeoutMs?: number;
  /** Overrides the retry policy for this call; `false` = one attempt only. */
  retry?: Partial<RetryPolicy> | false;
}

export type Operation =
  | 'preview'
  | 'download'
  | 'sendemail'
  | 'templates'
  | 'token'
  | 'fetch'
  | 'probe'
  | 'issue'
  | 'status'
  | 'certificates'
  | 'paging'
  | 'publishview'
  | 'voucherpaper';

export interface HttpRequest {
  operation: Operation;
  method: 'GET' | 'POST';
  url: URL;
  body?: string;
  /** Add `Authorization: Bearer …`. */
  auth: boolean;
  headers?: Record<string, string>;
  /** Read the body as bytes (fetchBytes) instead of text. */
  bytes?: boolean;
  /** sendemail and issue: never retried; anything after the request may have left is `unknown_outcome`. */
  unsafe?: boolean;
}

/**
 * The most the client reads of one answer, by operation: an endless or runaway answer fails that
 * call (that batch, that email) with a clear message instead of filling the memory. Download and
 * link answers carry up to 50 invoices' files; the others are short envelopes.
 */
export const ANSWER_LIMITS: Readonly<Record<Operation, number>> = {
  download: 128 * 1024 * 1024,
  fetch: 128 * 1024 * 1024,
  preview: 16 * 1024 * 1024,
  sendemail: 16 * 1024 * 1024,
  templates: 16 * 1024 * 1024,
  issue: 16 * 1024 * 1024,
  status: 16 * 1024 * 1024,
  certificates: 1024 * 1024,
  paging: 16 * 1024 * 1024,
  publishview: 1024 * 1024,
  voucherpaper: 128 * 1024 * 1024,
  token: 1024 * 1024,
  probe: 1024 * 1024,
};

class AnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`answer larger than ${limit} bytes`);
  }
}

/**
 * Reads a body up to `limit` bytes; past it the stream is destroyed (the connection dropped).
 * Read by events rather than `for await`: one promise per answer, not one per chunk. The chunks
 * stay outside the JS heap until the whole body is there (decoding each as it comes would leave
 * large strings in the old generation whenever a collection ran while an answer was arriving).
 */
function readCapped(body: Dispatcher.ResponseData['body'], limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        body.off('data', onData);
        body.destroy();
        reject(new AnswerTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    body.on('data', onData);
    // Settles on the end, an error, or a close before the end (premature close: an error too).
    finished(body, (error) => (error ? reject(error) : resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total))));
  });
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  bytes: Uint8Array | null;
}

/** Error codes that mean the connection never got established: nothing was sent. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_HAS_EXPIRED',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

function errorCodeOf(error: unknown): string {
  let e: unknown = error;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_ABORTED') return code;
    const nested = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(nested) && nested.length > 0) {
      e = nested[0];
      continue;
    }
    const cause = (e as { cause?: unknown }).cause;
    if (cause === undefined) return typeof code === 'string' ? code : '';
    e = cause;
  }
  return '';
}

export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** `Retry-After` as milliseconds: delta seconds or an HTTP date; undefined when absent/unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const t = v.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const date = Date.parse(t);
  if (Number.isFinite(date)) return Math.max(0, date - nowMs);
  return undefined;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function header(headers: HttpResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function looksHtml(res: HttpResponse): boolean {
  const ct = header(res.headers, 'content-type') ?? '';
  return /text\/html/i.test(ct) || /^\s*<(!doctype|html)/i.test(res.text);
}

export interface TransportOptions {
  /** Host named in a failure that happened outside an exchange. */
  host: string;
  token?: TokenSource;
  /** Sent with every request (e.g. CompanyTaxCode). */
  headers: Record<string, string>;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  connectTimeoutMs?: number;
  retry?: Partial<RetryPolicy> | false;
  log?: ApiLogger;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Lowers (or raises) {@link ANSWER_LIMITS} per operation. */
  answerLimits?: Partial<Record<Operation, number>>;
}

export class HttpTransport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly log: ApiLogger | undefined;
  private readonly fixedHeaders: Record<string, string>;
  private lastToken: string | undefined;

  constructor(private readonly options: TransportOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.retry = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? defaultSleep;
    this.log = options.log;
    this.fixedHeaders = options.headers;
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.dispatcher = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 16,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      });
      this.ownsDispatcher = true;
    }
  }

  /** Closes the default dispatcher (an injected one is left to its owner). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async resolveToken(): Promise<string> {
    const source = this.options.token;
    const token = typeof source === 'function' ? await source() : source;
    if (!token || !token.trim()) {
      throw apiErrors.config({
        en: 'No access token is configured: sign in, paste a token, or set EINVOICE_TOKEN.',
        vi: 'Chưa có mã truy cập (token): hãy đăng nhập, dán token hoặc đặt biến EINVOICE_TOKEN.',
      });
    }
    this.lastToken = token.trim();
    return this.lastToken;
  }

  /** One attempt: sends, reads the whole body, classifies transport failures. */
  async http(req: HttpRequest, opts: CallOptions, secrets: string[] = []): Promise<HttpResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...this.fixedHeaders, ...req.headers };
    if (req.bytes) headers.accept = 'application/pdf, */*';
    if (req.auth) headers.authorization = `Bearer ${await this.resolveToken()}`;
    if (opts.signal?.aborted) throw apiErrors.cancelled({ operation: req.operation });

    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const timer = new AbortController();
    const handle = setTimeout(() => timer.abort(), timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timer.signal]) : timer.signal;
    const started = performance.now();
    const host = req.url.host;
    let status = 0;
    try {
      const res = await this.dispatcher.request({
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        method: req.method,
        headers,
        body: req.body,
        signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      status = res.statusCode;
      const responseHeaders = res.headers as HttpResponse['headers'];
      const limit = this.options.answerLimits?.[req.operation] ?? ANSWER_LIMITS[req.operation];
      const announced = Number(header(responseHeaders, 'content-length'));
      if (Number.isFinite(announced) && announced > limit) {
        res.body.destroy();
        throw new AnswerTooLarge(limit);
      }
      const raw = await readCapped(res.body, limit);
      let text = '';
      let bytes: Uint8Array | null = null;
      if (req.bytes && status >= 200 && status < 300) bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
      else text = raw.toString('utf8');
      if (this.log)
        this.logLine(
          'info',
          `${req.operation} ${req.method} ${req.url.pathname}${req.url.search} → HTTP ${status} in ${Math.round(performance.now() - started)} ms`,
          secrets,
        );
      return { status, headers: responseHeaders, text, bytes };
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        if (this.log)
          this.logLine('warn', `${req.operation} ${req.method} ${req.url.pathname}: answer larger than ${error.limit} bytes, reading stopped`, secrets);
        const details = { operation: req.operation, httpStatus: status || undefined };
        if (req.unsafe) throw apiErrors.unknownOutcome(`the answer was larger than ${megabytes(error.limit)} MB and was not read`, details);
        throw apiErrors.tooLarge(megabytes(error.limit), details);
      }
      const code = errorCodeOf(error);
      const detail = code || messageOf(error);
      const details = { operation: req.operation, cause: error, httpStatus: status || undefined };
      if (this.log)
        this.logLine(
          'warn',
          `${req.operation} ${req.method} ${req.url.pathname} failed after ${Math.round(performance.now() - started)} ms: ${detail}`,
          secrets,
        );
      const connectFailure = CONNECT_CODES.has(code);
      if (connectFailure) return Promise.reject(apiErrors.offline(host, detail, details));
      if (req.unsafe) {
        const why = opts.signal?.aborted
          ? 'cancelled while waiting for the answer'
          : timer.signal.aborted || TIMEOUT_CODES.has(code)
            ? `no answer within ${Math.ceil(timeoutMs / 1000)} s`
            : detail;
        throw apiErrors.unknownOutcome(why, details);
      }
      if (opts.signal?.aborted) throw apiErrors.cancelled(details);
      if (timer.signal.aborted || TIMEOUT_CODES.has(code)) throw apiErrors.timeout(timeoutMs, details);
      throw apiErrors.network(host, detail, details);
    } finally {
      clearTimeout(handle);
    }
  }

  logLine(level: 'info' | 'warn' | 'error', message: string, secrets: string[]): void {
    this.log?.(level, redact(message, [this.lastToken, ...secrets]));
  }

  /** Runs `fn`, retrying transient failures of idempotent operations with backoff + jitter. */
  async withRetry<T>(operation: Operation, opts: CallOptions, idempotent: boolean, fn: () => Promise<T>): Promise<T> {
    const policy: RetryPolicy = opts.retry === false ? { ...this.retry, retries: 0 } : { ...this.retry, ...opts.retry };
    const retries = idempotent ? policy.retries : 0;
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn();
      } catch (raw) {
        const error = raw instanceof ApiError ? raw : apiErrors.network(this.options.host, messageOf(raw), { operation, cause: raw });
        error.attempts = attempt;
        if (attempt > retries || !isRetryable(error)) throw error;
        const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + this.random() * 0.5);
        const delay = error.retryAfterMs !== undefined ? Math.max(error.retryAfterMs, 0) : backoff;
        if (Date.now() - started + delay > policy.maxTotalMs) throw error;
        if (this.log)
          this.logLine(
            'warn',
            `${operation}: ${error.kind}${error.httpStatus ? ` (HTTP ${error.httpStatus})` : ''}, retry ${attempt}/${retries} in ${Math.round(delay)} ms`,
            [],
          );
        try {
          await this.sleep(delay, opts.signal);
        } catch {
          throw apiErrors.cancelled({ operation, attempts: attempt });
        }
        if (opts.signal?.aborted) throw apiErrors.cancelled({ operation, attempts: attempt });
      }
    }
  }
}

function megabytes(bytes: number): string {
  return String(Math.round((bytes / 1048576) * 10) / 10);
}

function isRetryable(error: ApiError): boolean {
  return isRetryableFailure(error.kind, error.httpStatus);
}
