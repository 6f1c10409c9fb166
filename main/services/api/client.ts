import { isAuthCode, readEnvelopeText, type EnvelopeResult } from '../../../common/envelope';
import { DEFAULT_INVOICE_KIND, downloadFlags, type InvoiceData, type InvoiceKind, type InvoiceTemplate, type SendEmailParameter } from '../../../common/model';
import { CERTIFICATE_SIGN_TYPES, SIGN_TYPES, type IssuingInvoiceData } from '../../../common/model/issuing';
import { defaultTokenUrl, parseServiceUrl } from './base-url';
import { MAX_DOWNLOAD_BATCH } from './batching';
import { isEmptyAnswer, pickLink, toWireEmailParameter } from './wire';
import { normaliseCertificates, normalisePublishItems, normaliseStatus, type Certificate, type IssueOutcome, type StatusItem } from './issuing';
import { MAX_PAGING_TAKE, normalisePaging, normaliseVoucherPaper, type PagingPage, type PagingQuery, type PaperCopyItem } from './issued';
import { isUnreachableKind } from '../../../common/rules/network';
import { ApiError, apiErrors } from './errors';
import { checkStatus, envelopeError, normalised } from './verdicts';
import {
  acceptedWithoutItems,
  jwtExpiry,
  normaliseDownload,
  normaliseSendEmailItems,
  normaliseTemplates,
  normaliseToken,
  type DownloadResult,
  type SendEmailOutcome,
} from './normalise';
import { header, HttpTransport, messageOf, type CallOptions, type HttpRequest } from './transport';

export { DEFAULT_RETRY, parseRetryAfter, type CallOptions, type RetryPolicy, type TokenSource } from './transport';
export type * from './options';
import type {
  ApiClientOptions,
  DownloadOptions,
  FetchedBytes,
  IssueOptions,
  SerialisedInvoice,
  StatusOptions,
  TemplatesQuery,
  TokenCredentials,
  TokenResult,
} from './options';

type ReadEnvelope = Exclude<EnvelopeResult, { kind: 'malformed' }>;

/**
 * The e-invoice service client: the four operations of docs/service.md plus the optional token
 * operation, over one injected undici dispatcher. Every answer goes through the envelope reader;
 * every failure becomes an {@link ApiError} with a kind the UI can act on.
 */
export class ApiClient {
  readonly baseUrl: URL;
  readonly tokenUrl: URL;
  readonly maxBatch: number;
  private readonly basePath: string;
  private readonly transport: HttpTransport;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = parseServiceUrl(options.baseUrl);
    this.tokenUrl = options.tokenUrl ? parseServiceUrl(options.tokenUrl, { en: 'token address', vi: 'địa chỉ lấy token' }) : defaultTokenUrl(this.baseUrl);
    this.basePath = this.baseUrl.pathname.replace(/\/+$/, '');
    const maxBatch = options.maxBatch ?? MAX_DOWNLOAD_BATCH;
    if (!Number.isInteger(maxBatch) || maxBatch < 1 || maxBatch > MAX_DOWNLOAD_BATCH) {
      throw apiErrors.config({
        en: `The Download batch size must be between 1 and ${MAX_DOWNLOAD_BATCH} (got ${maxBatch}).`,
        vi: `Số hóa đơn mỗi lần tải phải từ 1 đến ${MAX_DOWNLOAD_BATCH} (đang là ${maxBatch}).`,
      });
    }
    this.maxBatch = maxBatch;
    this.transport = new HttpTransport({
      host: this.baseUrl.host,
      headers: options.companyTaxCode ? { CompanyTaxCode: options.companyTaxCode } : {},
      ...(options.token !== undefined ? { token: options.token } : {}),
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.connectTimeoutMs !== undefined ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.retry !== undefined ? { retry: options.retry } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.random ? { random: options.random } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.answerLimits ? { answerLimits: options.answerLimits } : {}),
    });
  }

  /** Closes the default dispatcher (an injected one is left to its owner). */
  async close(): Promise<void> {
    await this.transport.close();
  }

  // ---------------------------------------------------------------- operations

  /** POST /unpublishview: renders an unissued invoice; the link lives ~30 s — fetch it at once. */
  async preview(invoice: InvoiceData, opts: CallOptions = {}): Promise<{ link: string }> {
    const body = JSON.stringify(invoice);
    return this.transport.withRetry('preview', opts, true, async () => {
      const env = await this.call({ operation: 'preview', method: 'POST', url: this.opUrl('/unpublishview'), body, auth: true }, opts);
      if (env.kind === 'error') throw envelopeError('preview', env);
      const link = pickLink(env.data);
      if (!link) throw apiErrors.malformed('the preview answer holds no link', { operation: 'preview' });
      return { link };
    });
  }

  /**
   * POST /Download with a JSON array of TransactionIDs (at most `maxBatch`; use `chunk()`).
   * Items come back with content decoded by type, or the single-link form.
   */
  async download(ids: readonly string[], opts: DownloadOptions = {}): Promise<DownloadResult> {
    const type = opts.type ?? 'Pdf';
    if (ids.length === 0) return { kind: 'items', items: [], envelopeSuccess: true };
    if (ids.length > this.maxBatch) {
      throw apiErrors.rejected('InvoiceQuantityTooLarge', `${ids.length} > ${this.maxBatch}; split with chunk()`, { operation: 'download' });
    }
    const flags = downloadFlags(opts.kind ?? DEFAULT_INVOICE_KIND);
    const query = `invoiceWithCode=${flags.invoiceWithCode}&invoiceCalcu=${flags.invoiceCalcu}&downloadDataType=${type}`;
    const body = JSON.stringify(ids);
    return this.transport.withRetry('download', opts, true, async () => {
      const env = await this.call({ operation: 'download', method: 'POST', url: this.opUrl('/Download', query), body, auth: true }, opts);
      if (env.kind === 'error' && (isAuthCode(env.code) || !Array.isArray(env.data) || env.data.length === 0)) {
        throw envelopeError('download', env);
      }
      return normalised('download', () => normaliseDownload(env.data, type, env.success, ids));
    });
  }

  /**
   * POST /sendemail. Never retried: once the request may have left, a failure is reported as
   * `unknown_outcome` for the caller to decide. One invoice kind per call (`emailFlags`).
   * Judge each item by `ok` (status + ErrorCode), not by `envelopeSuccess`.
   */
  async sendEmail(parameter: SendEmailParameter, opts: CallOptions = {}): Promise<SendEmailOutcome> {
    const body = JSON.stringify(toWireEmailParameter(parameter));
    const env = await this.transport.withRetry('sendemail', opts, false, () =>
      this.callRaw({ operation: 'sendemail', method: 'POST', url: this.opUrl('/sendemail'), body, auth: true, unsafe: true }, opts),
    );
    if (env.kind === 'malformed') throw apiErrors.unknownOutcome(`unreadable answer: ${env.reason}`, { operation: 'sendemail' });
    const requested = parameter.SendEmailDatas.map((d) => d.TransactionID);
    let items;
    try {
      items = normaliseSendEmailItems(env.data, requested);
    } catch (error) {
      if (env.kind === 'error') throw envelopeError('sendemail', env);
      throw apiErrors.unknownOutcome(`unreadable answer: ${messageOf(error)}`, { operation: 'sendemail' });
    }
    if (items.length === 0 && env.kind === 'success' && env.success === true && isEmptyAnswer(env.envelope.rawData)) {
      items = acceptedWithoutItems(requested);
    }
    if (env.kind === 'error' && (isAuthCode(env.code) || items.length === 0)) throw envelopeError('sendemail', env);
    if (items.length === 0 && parameter.SendEmailDatas.length > 0) {
      throw apiErrors.unknownOutcome('the service answered without per-invoice results', { operation: 'sendemail' });
    }
    return {
      items,
      envelopeSuccess: env.success,
      callErrorCode: env.kind === 'error' ? env.code : null,
      callErrorDescription: env.kind === 'error' ? env.description : null,
    };
  }

  /**
   * POST {base_url}: issues invoices. Never retried: once the request may have left, a failure is
   * `unknown_outcome`, to be settled by `status` by RefID. Judge each item by `ok`, whatever
   * the envelope's success says; an invoice without an item has an unknown outcome.
   */
  async issue(invoices: ReadonlyArray<IssuingInvoiceData | SerialisedInvoice>, opts: IssueOptions): Promise<IssueOutcome> {
    const signType = opts.signType as number;
    if (!(SIGN_TYPES as readonly number[]).includes(signType)) {
      throw apiErrors.config(
        signType === 1
          ? {
              en: 'Signing with a USB token needs a signing tool on this PC and is not supported: choose "HSM signature" or "Cash register" in Settings.',
              vi: 'Ký bằng USB token cần công cụ ký cài trên máy và chưa được hỗ trợ: hãy chọn "Ký HSM" hoặc "Máy tính tiền" trong Cài đặt.',
            }
          : { en: `Sign type ${signType} is not supported.`, vi: `Kiểu ký ${signType} không được hỗ trợ.` },
      );
    }
    if (invoices.length === 0) return { items: [], envelopeSuccess: true, callErrorCode: null, callErrorDescription: null, answer: {} };
    if (invoices.length > MAX_DOWNLOAD_BATCH) {
      throw apiErrors.rejected('InvoiceQuantityTooLarge', `${invoices.length} > ${MAX_DOWNLOAD_BATCH}`, { operation: 'issue' });
    }
    const cert = opts.certificateSN?.trim() || null;
    if (CERTIFICATE_SIGN_TYPES.includes(opts.signType) && !cert) {
      throw apiErrors.config({
        en: 'HSM signing needs a certificate: choose one in Settings → Issuing.',
        vi: 'Ký HSM cần chứng thư số: hãy chọn trong Cài đặt → Phát hành.',
      });
    }
    // Forms kept as JSON text (the issue queue's) go out as they are: parsed once when frozen, never again.
    const data = invoices.map((i) => ('json' in i ? i.json : JSON.stringify(i))).join(',');
    const body = `{"SignType":${signType},${cert ? `"CertificateSN":${JSON.stringify(cert)},` : ''}"InvoiceData":[${data}],"PublishInvoiceData":null}`;
    const env = await this.transport.withRetry('issue', opts, false, () =>
      this.callRaw({ operation: 'issue', method: 'POST', url: this.opUrl(''), body, auth: true, unsafe: true }, opts),
    );
    if (env.kind === 'malformed') throw apiErrors.unknownOutcome(`unreadable answer: ${env.reason}`, { operation: 'issue' });
    let items;
    try {
      items = normalisePublishItems(
        env.envelope.fields,
        invoices.map((i) => i.RefID),
      );
    } catch (error) {
      if (env.kind === 'error') throw envelopeError('issue', env);
      throw apiErrors.unknownOutcome(`unreadable answer: ${messageOf(error)}`, { operation: 'issue' });
    }
    if (env.kind === 'error' && (isAuthCode(env.code) || items.length === 0)) throw envelopeError('issue', env);
    if (items.length === 0) throw apiErrors.unknownOutcome('the service answered without per-invoice results', { operation: 'issue' });
    return {
      items,
      envelopeSuccess: env.success,
      callErrorCode: env.kind === 'error' ? env.code : null,
      callErrorDescription: env.kind === 'error' ? env.description : null,
      answer: env.envelope.fields,
    };
  }

  /** POST /status by TransactionID or RefID (at most 50); an ID the service does not know is absent. */
  async status(ids: readonly string[], opts: StatusOptions): Promise<StatusItem[]> {
    if (ids.length === 0) return [];
    if (ids.length > MAX_DOWNLOAD_BATCH) {
      throw apiErrors.rejected('InvoiceQuantityTooLarge', `${ids.length} > ${MAX_DOWNLOAD_BATCH}`, { operation: 'status' });
    }
    const flags = downloadFlags(opts.kind ?? DEFAULT_INVOICE_KIND);
    const query = `invoiceWithCode=${flags.invoiceWithCode}&invoiceCalcu=${flags.invoiceCalcu}&inputType=${opts.by === 'refId' ? 2 : 1}`;
    const body = JSON.stringify(ids);
    return this.transport.withRetry('status', opts, true, async () => {
      const env = await this.call({ operation: 'status', method: 'POST', url: this.opUrl('/status', query), body, auth: true }, opts);
      if (env.kind === 'error') throw envelopeError('status', env);
      return normalised('status', () => normaliseStatus(env.data));
    });
  }

  /** GET /get-certificates: the certificates that may sign through the API. */
  async certificates(opts: CallOptions = {}): Promise<Certificate[]> {
    return this.transport.withRetry('certificates', opts, true, async () => {
      const env = await this.call({ operation: 'certificates', method: 'GET', url: this.opUrl('/get-certificates'), auth: true }, opts);
      if (env.kind === 'error') throw envelopeError('certificates', env);
      return normalised('certificates', () => normaliseCertificates(env.data));
    });
  }

  /** POST /paging: one page (Take ≤ 100) of the issued invoices of one kind in a date range; page with `pageAll`. */
  async paging(q: PagingQuery, opts: CallOptions = {}): Promise<PagingPage> {
    if (!Number.isInteger(q.take) || q.take < 1 || q.take > MAX_PAGING_TAKE || !Number.isInteger(q.skip) || q.skip < 0) {
      throw apiErrors.config({ en: `Take must be 1–${MAX_PAGING_TAKE} and Skip ≥ 0.`, vi: `Số hóa đơn mỗi trang phải từ 1 đến ${MAX_PAGING_TAKE}.` });
    }
    const flags = downloadFlags(q.kind);
    const day = (d: string): string => d.replaceAll('-', '');
    const body = JSON.stringify({ FromDate: day(q.from), ToDate: day(q.to), Skip: q.skip, Take: q.take, ListInvTemplate: q.series ?? [] });
    const url = this.opUrl('/paging', `invoiceWithCode=${flags.invoiceWithCode}&invoiceCalcu=${flags.invoiceCalcu}`);
    return this.transport.withRetry('paging', opts, true, async () => {
      const env = await this.call({ operation: 'paging', method: 'POST', url, body, auth: true }, opts);
      if (env.kind === 'error') throw envelopeError('paging', env);
      return normalised('paging', () => normalisePaging(env.data, q.kind));
    });
  }

  /** POST /publishview: a link (alive for minutes) to the issued invoices as the service shows them, fetched at once. */
  async publishView(ids: readonly string[], opts: CallOptions & { companyTaxCode?: string | null } = {}): Promise<FetchedBytes & { link: string }> {
    if (ids.length === 0 || ids.length > MAX_DOWNLOAD_BATCH)
      throw apiErrors.config({ en: `View 1–${MAX_DOWNLOAD_BATCH} invoices at a time.`, vi: `Mỗi lần xem từ 1 đến ${MAX_DOWNLOAD_BATCH} hóa đơn.` });
    const tax = opts.companyTaxCode ?? this.options.companyTaxCode;
    const headers: Record<string, string> = tax ? { CompanyTaxCode: tax } : {};
    const link = await this.transport.withRetry('publishview', opts, true, async () => {
      const env = await this.call(
        { operation: 'publishview', method: 'POST', url: this.opUrl('/publishview'), body: JSON.stringify(ids), auth: true, headers },
        opts,
      );
      if (env.kind === 'error') throw envelopeError('publishview', env);
      const found = pickLink(env.data);
      if (!found) throw apiErrors.malformed('the view answer holds no link', { operation: 'publishview' });
      return found;
    });
    return { link, ...(await this.fetchBytes(link, opts)) };
  }

  /** POST /voucher-paper: the paper copies converted from issued invoices of one kind (at most 50), as PDF bytes. */
  async voucherPaper(ids: readonly string[], q: { converter: string; date: string; kind: InvoiceKind }, opts: CallOptions = {}): Promise<PaperCopyItem[]> {
    if (ids.length === 0) return [];
    if (ids.length > MAX_DOWNLOAD_BATCH)
      throw apiErrors.rejected('InvoiceQuantityTooLarge', `${ids.length} > ${MAX_DOWNLOAD_BATCH}`, { operation: 'voucherpaper' });
    const flags = downloadFlags(q.kind);
    const query = new URLSearchParams({
      invoiceWithCode: String(flags.invoiceWithCode),
      invoiceCalcu: String(flags.invoiceCalcu),
      Converter: q.converter,
      ConvertDate: q.date,
    });
    return this.transport.withRetry('voucherpaper', opts, true, async () => {
      const env = await this.call(
        { operation: 'voucherpaper', method: 'POST', url: this.opUrl('/voucher-paper', query.toString()), body: JSON.stringify(ids), auth: true },
        opts,
      );
      if (env.kind === 'error') throw envelopeError('voucherpaper', env);
      return normalised('voucherpaper', () => normaliseVoucherPaper(env.data, ids));
    });
  }

  /** GET /templates: the series list, unknown fields preserved. */
  async templates(query: TemplatesQuery = {}, opts: CallOptions = {}): Promise<InvoiceTemplate[]> {
    let q = `invoiceWithCode=${query.withCode === true}&ticket=${query.ticket === true}`;
    if (query.year !== undefined) {
      if (!Number.isInteger(query.year) || query.year < 2000 || query.year > 9999) {
        throw apiErrors.config({ en: `The year must be a 4-digit year (got ${query.year}).`, vi: `Năm phải có 4 chữ số (đang là ${query.year}).` });
      }
      q += `&year=${query.year}`;
    }
    return this.transport.withRetry('templates', opts, true, async () => {
      const env = await this.call({ operation: 'templates', method: 'GET', url: this.opUrl('/templates', q), auth: true }, opts);
      if (env.kind === 'error') throw envelopeError('templates', env);
      return normalised('templates', () => normaliseTemplates(env.data));
    });
  }

  /** The optional token operation: POST {appid, taxcode, username, password} to the token URL. */
  async requestToken(credentials: TokenCredentials, opts: CallOptions & { companyTaxCode?: string } = {}): Promise<TokenResult> {
    const body = JSON.stringify({ appid: credentials.appid, taxcode: credentials.taxcode, username: credentials.username, password: credentials.password });
    const companyTaxCode = opts.companyTaxCode ?? this.options.companyTaxCode;
    const headers: Record<string, string> = companyTaxCode ? { CompanyTaxCode: companyTaxCode } : {};
    return this.transport.withRetry('token', opts, true, async () => {
      const env = await this.call({ operation: 'token', method: 'POST', url: this.tokenUrl, body, auth: false, headers }, opts, [
        credentials.password,
        credentials.appid,
      ]);
      if (env.kind === 'error') throw envelopeError('token', env, true);
      const token = normalised('token', () => normaliseToken(env.data));
      return { token, expiresAt: jwtExpiry(token) };
    });
  }

  /**
   * GETs bytes from a link (the preview PDF, the Download link form) with the same timeouts and
   * retries. The token is sent only to the service's own origin.
   */
  async fetchBytes(link: string, opts: CallOptions = {}): Promise<FetchedBytes> {
    const url = parseServiceUrl(link, { en: 'link', vi: 'đường dẫn' });
    const sameOrigin = url.origin === this.baseUrl.origin;
    return this.transport.withRetry('fetch', opts, true, async () => {
      const res = await this.transport.http({ operation: 'fetch', method: 'GET', url, auth: sameOrigin, bytes: true }, opts);
      if (res.status === 404 || res.status === 410) {
        throw new ApiError(
          'rejected',
          {
            en: `The link has expired or does not exist (HTTP ${res.status}). Preview again to get a new one.`,
            vi: `Đường dẫn đã hết hạn hoặc không tồn tại (HTTP ${res.status}). Hãy xem trước lại để lấy đường dẫn mới.`,
          },
          { operation: 'fetch', httpStatus: res.status, serviceCode: 'LinkExpired' },
        );
      }
      checkStatus('fetch', res);
      const contentType = header(res.headers, 'content-type') ?? null;
      if (contentType && /json/i.test(contentType)) {
        const env = readEnvelopeText(res.text);
        if (env.kind === 'error') throw envelopeError('fetch', env);
      }
      return { bytes: res.bytes ?? new Uint8Array(), contentType };
    });
  }

  /** True when the service answers HTTP at all (any status); for the connectivity monitor. */
  async probe(signal?: AbortSignal): Promise<boolean> {
    try {
      await this.transport.http(
        { operation: 'probe', method: 'GET', url: this.opUrl('/templates', 'invoiceWithCode=false&ticket=false'), auth: false },
        { signal, timeoutMs: 5_000 },
      );
      return true;
    } catch (error) {
      return !(error instanceof ApiError) || !isUnreachableKind(error.kind);
    }
  }

  // ---------------------------------------------------------------- plumbing

  private opUrl(path: string, query?: string): URL {
    const u = new URL(this.baseUrl.origin);
    u.pathname = this.basePath + path;
    if (query) u.search = query;
    return u;
  }

  /** One HTTP exchange + status check + envelope read; a malformed answer throws `malformed`. */
  private async call(req: HttpRequest, opts: CallOptions, secrets: string[] = []): Promise<ReadEnvelope> {
    const env = await this.callRaw(req, opts, secrets);
    if (env.kind === 'malformed') throw apiErrors.malformed(env.reason, { operation: req.operation });
    return env;
  }

  /** Same, but a malformed answer is returned (sendemail turns it into `unknown_outcome`). */
  private async callRaw(req: HttpRequest, opts: CallOptions, secrets: string[] = []): Promise<EnvelopeResult> {
    const res = await this.transport.http(req, opts, secrets);
    checkStatus(req.operation, res, req.unsafe);
    return readEnvelopeText(res.text);
  }
}
