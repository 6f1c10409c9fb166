import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  INVOICE_KINDS,
  buildCatalogue,
  buildTemplates,
  flagsForKind,
  kindForFlags,
  vietnamDate,
  type Catalogue,
  type InvoiceKind,
  type SandboxInvoice,
  type TemplateEntry,
} from './data';
import { FaultInjector, formatFaultSpec, normaliseFaults, type FaultConfig, type FaultKind, type FaultOp } from './faults';
import { createRng, uuid } from './prng';
import { DEFAULT_QUIRKS, checkQuirks, type SandboxQuirks } from './quirks';
import { DOWNLOAD_DATA_TYPES, InvoiceRenderer, isBinary, mergePdfs, type DownloadDataType } from './render';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN, SANDBOX_INACTIVE_APPID, TokenIssuer, type TokenCheck } from './tokens';
import { getCI, validateInvoiceData } from './validate';

export { parseFaultSpec, formatFaultSpec, normaliseFaults, FAULT_OPS } from './faults';
export type { FaultConfig, FaultOp, OpFaults, FaultKind } from './faults';
export { DEFAULT_QUIRKS } from './quirks';
export type { SandboxQuirks } from './quirks';
export { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN, SANDBOX_INACTIVE_APPID } from './tokens';
export { INVOICE_KINDS, flagsForKind, kindForFlags } from './data';
export type { InvoiceKind, SandboxInvoice, SandboxTemplate } from './data';
export type { DownloadDataType } from './render';
export { sampleInvoiceData } from './validate';

/** Path of the four operations below the origin, and of the token operation. */
export const SANDBOX_BASE_PATH = '/api/integration/invoice';
export const SANDBOX_TOKEN_PATH = '/api/integration/auth/token';

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
  /** Bound of the rendered-bytes cache (default 256 MB). */
  cacheMb?: number;
  /** Folder holding DejaVuSans.ttf (default: assets/fonts, found upwards; or $EINVOICE_FONT_DIR). */
  fontDir?: string;
}

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

export interface SandboxCatalogue {
  /** Live issued invoices of one kind (by name or by flags), in issue order. */
  list(kind: InvoiceKind | { withCode: boolean; calc: boolean }): readonly string[];
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
  /** Clears logs, emails, links; restores the start-up quirks and faults. */
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

const MAX_BODY = 20 * 1024 * 1024;
const TRANSACTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
const EMAIL = /^[^\s@;,<>()"]+@[^\s@;,<>()"]+\.[^\s@;,<>()".]{2,}$/;

const MAINTENANCE_HTML = `<!DOCTYPE html>
<html lang="vi"><head><meta charset="utf-8"><title>Hệ thống đang bảo trì</title></head>
<body style="font-family:sans-serif;text-align:center;padding:60px">
<h1>Hệ thống đang bảo trì</h1>
<p>Hệ thống hóa đơn điện tử đang được nâng cấp. Quý khách vui lòng quay lại sau ít phút.</p>
<p>The e-invoice service is under maintenance. Please try again in a few minutes.</p>
</body></html>
`;
const ERROR_500_HTML = `<!DOCTYPE html>
<html><head><title>500 - Internal server error.</title></head>
<body><h1>Server Error</h1><h2>500 - Internal server error.</h2>
<p>There is a problem with the resource you are looking for, and it cannot be displayed.</p></body></html>
`;

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** JSON envelope (casing applied at send time) … */
  envelope?: Record<string, unknown>;
  /** Pre-serialised JSON of the envelope's data (the envelope then holds RAW_DATA in its place). */
  rawData?: (string | Buffer)[];
  /** … or raw bytes/text. */
  body?: string | Uint8Array;
  /** Admin only: the real reply, once some work is done. */
  deferred?: Promise<Reply>;
  contentType?: string;
}

interface Link {
  bytes: Uint8Array;
  expiresAt: number;
}

/** Placeholder for data that is spliced in pre-serialised (see Reply.rawData). */
const RAW_DATA = '\u0001sandbox-raw-data\u0001';
const RAW_DATA_JSON = JSON.stringify(RAW_DATA);

function envelope(success: boolean, data: unknown, errorCode: string | null = null, description: string | null = null, errors: unknown[] = []): Record<string, unknown> {
  return { success, errorCode, descriptionErrorCode: description, errors, data, customData: '' };
}

const DESCRIPTIONS: Record<string, string> = {
  InvalidTokenCode: 'Token không hợp lệ',
  TokenExpiredCode: 'Token đã hết hạn',
  InvalidAppID: 'AppID không hợp lệ',
  InActiveAppID: 'AppID đã ngừng hoạt động',
  UnAuthorize: 'Thông tin đăng nhập không đúng',
  InvoiceQuantityTooLarge: 'Số lượng hóa đơn vượt quá giới hạn cho phép (tối đa 50)',
  InvalidRequestBody: 'Dữ liệu gửi lên không hợp lệ',
  InvalidDownloadDataType: 'Kiểu dữ liệu tải về không hợp lệ',
  InvoiceNotExist: 'Hóa đơn không tồn tại',
  UnknownError: 'Có lỗi xảy ra',
  TooManyRequests: 'Quá nhiều yêu cầu, vui lòng thử lại sau',
  InvalidTaxCode: 'Mã số thuế không hợp lệ',
  LicenseInfo_NotBuy: 'Chưa mua giấy phép sử dụng',
  LicenseInfo_OutOfInvoice: 'Đã hết số lượng hóa đơn trong gói',
  LicenseInfo_Expired: 'Giấy phép sử dụng đã hết hạn',
};

function fail(code: string, status = 200, errors: unknown[] = []): Reply {
  return { status, envelope: envelope(false, null, code, DESCRIPTIONS[code] ?? code, errors) };
}

function pascal(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k.charAt(0).toUpperCase() + k.slice(1)] = v;
  return out;
}

function parseBool(v: string | undefined): boolean | 'bad' {
  if (v === undefined || v === '') return false;
  const l = v.toLowerCase();
  if (l === 'true') return true;
  if (l === 'false') return false;
  return 'bad';
}

function splitAddresses(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(';')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** Starts the sandbox service on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 1;
  const now = options.now ?? (() => new Date());
  const ttl = options.previewLinkTtlMs ?? 30_000;
  const initialQuirks: SandboxQuirks = { ...DEFAULT_QUIRKS, ...checkQuirks(options.quirks ?? {}) };
  const initialFaults = normaliseFaults(options.faults ?? {});
  let quirks: SandboxQuirks = { ...initialQuirks };
  const injector = new FaultInjector(seed, initialFaults);
  const tokens = new TokenIssuer(seed, now);
  const startDate = now();
  const currentYear = vietnamDate(startDate).year;
  const cat: Catalogue = buildCatalogue(seed, options.invoiceCount ?? 5000, startDate);
  const templates = buildTemplates(seed, currentYear);
  const envPad = Number(process.env.EINVOICE_SANDBOX_PDF_KB ?? '');
  const renderer = new InvoiceRenderer({ fontDir: options.fontDir, padKb: options.pdfPadKb ?? (Number.isFinite(envPad) && envPad > 0 ? envPad : 0), cacheMb: options.cacheMb });
  const links = new Map<string, Link>();
  const linkRng = createRng(`links:${seed}`);
  let linkSeq = 0;
  const emails: SandboxEmail[] = [];
  const emailCounts = new Map<string, number>();
  let log: SandboxRequestLog[] = [];
  let seq = 0;
  let origin = '';
  let port = options.port ?? 0;
  const sockets = new Set<Socket>();

  const emailStatusFor = (id: string): 3 | 4 => {
    if (quirks.emailStatus !== 'auto') return quirks.emailStatus;
    return /[0-9]$/.test(id) ? 4 : 3;
  };

  const encodeData = (value: unknown): unknown => {
    if (quirks.dataEncoding === 'object') return value;
    const once = JSON.stringify(value);
    return quirks.dataEncoding === 'double' ? JSON.stringify(once) : once;
  };

  const addLink = (kind: 'preview' | 'viewer', bytes: Uint8Array): string => {
    const t = now().getTime();
    for (const [k, l] of links) if (l.expiresAt + ttl * 10 + 60_000 < t) links.delete(k);
    const key = `${(++linkSeq).toString(36)}${Math.floor(linkRng() * 2 ** 32).toString(36)}`;
    links.set(key, { bytes, expiresAt: t + ttl });
    return `${origin}/${kind}/${key}.pdf`;
  };

  // -------------------------------------------------------------------------------------------
  // Operations

  const opToken = (body: unknown): Reply => {
    if (body === null || typeof body !== 'object') return fail('InvalidRequestBody', 400);
    const appid = String(getCI(body, 'appid') ?? '');
    if (appid === SANDBOX_INACTIVE_APPID) return fail('InActiveAppID');
    if (appid !== SANDBOX_CREDENTIALS.appid) return fail('InvalidAppID');
    const taxcode = String(getCI(body, 'taxcode') ?? '');
    const username = String(getCI(body, 'username') ?? '');
    const password = String(getCI(body, 'password') ?? '');
    if (taxcode !== SANDBOX_CREDENTIALS.taxcode || username !== SANDBOX_CREDENTIALS.username || password !== SANDBOX_CREDENTIALS.password) return fail('UnAuthorize');
    return { status: 200, envelope: envelope(true, tokens.issue({ username, taxcode, ttlMs: options.tokenTtlMs })) };
  };

  const opTemplates = (query: URLSearchParams): Reply => {
    const withCode = parseBool(qget(query, 'invoiceWithCode'));
    const ticket = parseBool(qget(query, 'ticket'));
    const yearRaw = qget(query, 'year');
    const year = yearRaw === undefined || yearRaw === '' ? vietnamDate(now()).year : Number(yearRaw);
    if (withCode === 'bad' || ticket === 'bad' || !Number.isInteger(year)) return fail('InvalidRequestBody', 400);
    const list = templates.filter((t) => t.year === year && t.withCode === withCode && t.ticket === ticket).map((t) => t.template);
    return { status: 200, envelope: envelope(true, encodeData(list)) };
  };

  const opDownload = async (query: URLSearchParams, body: unknown): Promise<Reply> => {
    const withCode = parseBool(qget(query, 'invoiceWithCode'));
    const calc = parseBool(qget(query, 'invoiceCalcu'));
    if (withCode === 'bad' || calc === 'bad') return fail('InvalidRequestBody', 400);
    const typeRaw = qget(query, 'downloadDataType') || 'Pdf';
    const type = DOWNLOAD_DATA_TYPES.find((t) => t.toLowerCase() === typeRaw.toLowerCase());
    if (!type) return fail('InvalidDownloadDataType');
    if (!Array.isArray(body)) return fail('InvalidRequestBody', 400);
    if (body.length > quirks.maxDownloadIds) {
      if (quirks.tooManyIds === 'http400') return { status: 400, body: `Bad Request: at most ${quirks.maxDownloadIds} TransactionIDs per request`, contentType: 'text/plain; charset=utf-8' };
      return fail('InvoiceQuantityTooLarge');
    }
    const kind = kindForFlags(withCode, calc);
    const items = body.map((raw: unknown) => {
      if (typeof raw !== 'string' || !TRANSACTION_ID.test(raw)) return { id: typeof raw === 'string' ? raw : JSON.stringify(raw), code: 'InvalidTransactionID' };
      const inv = cat.kindOf(raw) === kind ? cat.get(raw) : undefined;
      if (!inv) return { id: raw, code: 'InvoiceNotExist' };
      if (inv.deleted) return { id: raw, code: 'InvoiceDeleted' };
      return { id: raw, code: '', inv };
    });
    if (type === 'Pdf' && quirks.downloadPdfAsLink) {
      const good = items.filter((i) => i.inv);
      if (good.length === 0) return fail('InvoiceNotExist');
      const pdfs = await Promise.all(good.map((i) => renderer.render(i.inv as SandboxInvoice, 'Pdf')));
      const bytes = pdfs.length === 1 && pdfs[0] ? pdfs[0] : await mergePdfs(pdfs);
      return { status: 200, envelope: envelope(true, addLink('viewer', bytes)) };
    }
    // The list is assembled from pieces: structural JSON (escaped once per JSON-in-string
    // level) around the cached base64 bytes, which need no escaping at any level. Same bytes
    // as JSON.stringify would give, without re-encoding megabytes per request.
    const level = quirks.dataEncoding === 'object' ? 0 : quirks.dataEncoding === 'string' ? 1 : 2;
    const esc = (text: string): string => {
      let out = text;
      for (let i = 0; i < level; i++) out = JSON.stringify(out).slice(1, -1);
      return out;
    };
    const parts: (string | Buffer)[] = [];
    const open = level === 2 ? '"' + JSON.stringify('"').slice(1, -1) : level === 1 ? '"' : '';
    const close = level === 2 ? JSON.stringify('"').slice(1, -1) + '"' : level === 1 ? '"' : '';
    let pending = open + esc('[');
    const wires = await Promise.all(items.map((item) => (item.inv ? renderer.wire(item.inv, type) : Promise.resolve(null))));
    items.forEach((item, index) => {
      const field = quirks.itemDataField === 'mixed' ? (index % 2 === 0 ? 'data' : 'Data') : quirks.itemDataField;
      const wire = wires[index];
      pending += esc(`${index > 0 ? ',' : ''}{"TransactionID":${JSON.stringify(item.id)},"${field}":`);
      if (!wire) pending += esc('null');
      else if (isBinary(type)) {
        pending += esc('"');
        parts.push(pending, wire);
        pending = esc('"');
      } else pending += esc(JSON.stringify(wire.toString('utf8')));
      pending += esc(`,"ErrorCode":${JSON.stringify(item.code)}}`);
    });
    parts.push(pending + esc(']') + close);
    return { status: 200, envelope: envelope(true, RAW_DATA), rawData: parts };
  };

  const opSendEmail = (body: unknown): Reply => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('InvalidRequestBody', 400);
    const datas = getCI(body, 'SendEmailDatas');
    if (!Array.isArray(datas) || datas.length === 0) return fail('RequireError_SendEmailDatas');
    const isCode = getCI(body, 'IsInvoiceCode') === true;
    const isCalc = getCI(body, 'IsInvoiceCalculatingMachine') === true;
    const kind = kindForFlags(isCode, isCalc);
    const results = datas.map((entry: unknown) => {
      const id = String(getCI(entry, 'TransactionID') ?? '');
      const inv = cat.get(id);
      const count = (emailCounts.get(id) ?? 0) + 1;
      emailCounts.set(id, count);
      const base = {
        TransactionID: id,
        RefID: inv?.RefID ?? '',
        RefDetailID: uuid(createRng(`refdetail:${seed}:${id}:${count}`)),
      };
      if (!TRANSACTION_ID.test(id)) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvalidTransactionID' };
      if (!inv || inv.kind !== kind) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvoiceNotExist' };
      if (inv.deleted) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvoiceDeleted' };
      const to = splitAddresses(getCI(entry, 'ReceiverEmail'));
      const cc = splitAddresses(getCI(entry, 'CCEmail'));
      const bcc = splitAddresses(getCI(entry, 'BCCEmail'));
      const reply = String(getCI(entry, 'ReplyEmail') ?? '').trim();
      if (to.length === 0) return { ...base, SendEmailStatus: 2, ErrorCode: 'RequireError_ReceiverEmail' };
      if (![...to, ...cc, ...bcc].every((a) => EMAIL.test(a)) || (reply && !EMAIL.test(reply))) return { ...base, SendEmailStatus: 2, ErrorCode: 'InvalidEmail' };
      const status = emailStatusFor(id);
      emails.push({
        seq: emails.length + 1,
        at: now().toISOString(),
        TransactionID: id,
        kind,
        receiverName: String(getCI(entry, 'ReceiverName') ?? ''),
        to,
        cc,
        bcc,
        replyTo: reply,
        subject: `Hóa đơn điện tử số ${inv.InvNo ?? ''} ký hiệu ${inv.InvSeries} của ${inv.BuyerLegalName || inv.BuyerFullName}`,
        status,
      });
      return { ...base, SendEmailStatus: status, ErrorCode: '' };
    });
    return { status: 200, envelope: envelope(!quirks.emailEnvelopeFailure, encodeData(results)) };
  };

  const opPreview = async (body: unknown): Promise<Reply> => {
    const { errors, invoice } = validateInvoiceData(body);
    if (!invoice) {
      const first = errors[0] ?? 'InvalidRequestBody';
      return { status: 200, envelope: envelope(false, null, first, DESCRIPTIONS[first] ?? first, errors) };
    }
    const bytes = await renderer.renderPreview(invoice);
    return { status: 200, envelope: envelope(true, addLink('preview', bytes)) };
  };

  const serveLink = (path: string): Reply => {
    const m = /^\/(preview|viewer)\/([a-z0-9]+)\.pdf$/i.exec(path);
    const link = m?.[2] ? links.get(m[2]) : undefined;
    if (!link) return { status: 404, body: 'Not Found', contentType: 'text/plain; charset=utf-8' };
    if (link.expiresAt <= now().getTime()) return { status: 410, body: 'Liên kết đã hết hạn (link expired)', contentType: 'text/plain; charset=utf-8' };
    return { status: 200, body: link.bytes, contentType: 'application/pdf', headers: { 'Cache-Control': 'no-store' } };
  };

  const warm = async (ids: readonly string[], type: DownloadDataType = 'Pdf'): Promise<void> => {
    for (const id of ids) {
      const inv = cat.get(id);
      if (inv && !inv.deleted) await renderer.wire(inv, type);
    }
  };

  // -------------------------------------------------------------------------------------------
  // Admin

  const state = (): Record<string, unknown> => ({
    origin,
    baseUrl: origin + SANDBOX_BASE_PATH,
    tokenUrl: origin + SANDBOX_TOKEN_PATH,
    devToken: SANDBOX_DEV_TOKEN,
    credentials: SANDBOX_CREDENTIALS,
    seed,
    invoiceCount: cat.size,
    invoices: Object.fromEntries(INVOICE_KINDS.map((k) => [k, { count: cat.list(k).length, deleted: cat.deletedIds(k).length, flags: flagsForKind(k) }])),
    previewLinkTtlMs: ttl,
    quirks,
    faults: injector.current,
    faultSpec: formatFaultSpec(injector.current),
    emails: emails.length,
    requests: log.length,
  });

  const resetAll = (): void => {
    quirks = { ...initialQuirks };
    injector.set(initialFaults);
    emails.length = 0;
    emailCounts.clear();
    log = [];
    links.clear();
  };

  const admin = (method: string, path: string, query: URLSearchParams, body: unknown): Reply => {
    const sub = path.slice('/__sandbox'.length).replace(/\/+$/, '') || '/';
    const json = (data: unknown, status = 200): Reply => ({ status, body: JSON.stringify(data), contentType: 'application/json; charset=utf-8' });
    try {
      if (method === 'GET' && (sub === '/' || sub === '/state')) return json(state());
      if (method === 'POST' && sub === '/quirks') {
        quirks = body && typeof body === 'object' && (body as { reset?: unknown }).reset === true ? { ...initialQuirks } : { ...quirks, ...checkQuirks(body) };
        return json(quirks);
      }
      if (method === 'POST' && sub === '/faults') {
        const spec = body && typeof body === 'object' && 'spec' in body ? (body as { spec: unknown }).spec : body;
        injector.set(normaliseFaults(spec));
        return json({ faults: injector.current, faultSpec: formatFaultSpec(injector.current) });
      }
      if (method === 'GET' && sub === '/emails') return json(emails);
      if (method === 'GET' && sub === '/requests') {
        const op = query.get('op');
        return json(op ? log.filter((r) => r.op === op) : log);
      }
      if (method === 'GET' && sub === '/invoices') {
        const kind = (query.get('kind') ?? 'withCode') as InvoiceKind;
        if (!INVOICE_KINDS.includes(kind)) return json({ error: `kind must be one of ${INVOICE_KINDS.join(', ')}` }, 400);
        const limit = Number(query.get('limit') ?? '100');
        const offset = Number(query.get('offset') ?? '0');
        return json({ kind, flags: flagsForKind(kind), total: cat.list(kind).length, ids: cat.list(kind).slice(offset, offset + limit), deleted: cat.deletedIds(kind) });
      }
      if (method === 'POST' && sub === '/reset') {
        resetAll();
        return json(state());
      }
      if (method === 'POST' && sub === '/warm') {
        // Pre-render invoices so a benchmark measures the client, not the renderer.
        const b = (body && typeof body === 'object' ? body : {}) as { kind?: unknown; type?: unknown; limit?: unknown; ids?: unknown };
        const type = DOWNLOAD_DATA_TYPES.find((t) => t.toLowerCase() === String(b.type ?? 'Pdf').toLowerCase()) ?? 'Pdf';
        const ids = Array.isArray(b.ids)
          ? b.ids.map(String)
          : (INVOICE_KINDS.includes(b.kind as InvoiceKind) ? [b.kind as InvoiceKind] : INVOICE_KINDS).flatMap((k) => cat.list(k).slice(0, Number(b.limit ?? 1000)));
        return { status: 202, body: '', deferred: warm(ids, type).then(() => json({ warmed: ids.length, type })) } as Reply;
      }
      if (method === 'POST' && sub === '/token') {
        const ttlMs = body && typeof body === 'object' ? Number((body as { ttlMs?: unknown }).ttlMs) : NaN;
        return json({ token: tokens.issue(Number.isFinite(ttlMs) ? { ttlMs } : {}) });
      }
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 400);
    }
    return json({ error: 'unknown admin endpoint' }, 404);
  };

  // -------------------------------------------------------------------------------------------
  // HTTP plumbing

  const send = (req: http.IncomingMessage, res: http.ServerResponse, reply: Reply, fault: FaultKind | undefined, entry?: SandboxRequestLog): void => {
    let body: Uint8Array | string;
    let contentType = reply.contentType ?? 'application/json; charset=utf-8';
    if (reply.envelope) {
      let env = reply.envelope;
      if (fault === 'wrongTypes') env = { success: 'true', errorCode: 0, descriptionErrorCode: false, errors: 'none', data: 12345, customData: [] };
      if (fault === 'emptyData') env = envelope(true, null);
      body = JSON.stringify(quirks.casing === 'pascal' ? pascal(env) : env);
      if (reply.rawData && env === reply.envelope) {
        const at = body.indexOf(RAW_DATA_JSON);
        const pieces = [body.slice(0, at), ...reply.rawData, body.slice(at + RAW_DATA_JSON.length)];
        body = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
      }
    } else if (fault === 'wrongTypes' || fault === 'emptyData') {
      body = fault === 'emptyData' ? '' : JSON.stringify({ success: true, data: 12345 });
      if (fault === 'wrongTypes') contentType = 'application/json; charset=utf-8';
    } else body = reply.body ?? '';
    let buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    if (fault === 'malformed') {
      const cut = Math.max(1, Math.floor(buf.length * 0.6));
      buf = Buffer.concat([buf.subarray(0, cut), Buffer.from('\u0000<!-- broken')]);
    }
    if (entry) entry.status = reply.status;
    const headers: Record<string, string | number> = { 'Content-Type': contentType, 'Content-Length': buf.length, ...reply.headers };
    if (fault === 'truncated') {
      headers['Content-Length'] = buf.length + Math.max(16, Math.floor(buf.length / 2));
      res.writeHead(reply.status, headers);
      res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => {
        setTimeout(() => req.socket.destroy(), 5);
      });
      return;
    }
    res.writeHead(reply.status, headers);
    res.end(buf);
  };

  const opFor = (method: string, lower: string): FaultOp | undefined => {
    if (lower === SANDBOX_TOKEN_PATH && method === 'POST') return 'token';
    if (lower.startsWith(SANDBOX_BASE_PATH + '/')) {
      const name = lower.slice(SANDBOX_BASE_PATH.length + 1);
      if (name === 'unpublishview') return 'preview';
      if (name === 'download') return 'download';
      if (name === 'sendemail') return 'sendemail';
      if (name === 'templates') return 'templates';
    }
    if (method === 'GET' && /^\/(preview|viewer)\//.test(lower)) return 'link';
    return undefined;
  };
  const METHODS: Record<FaultOp, string> = { token: 'POST', preview: 'POST', download: 'POST', sendemail: 'POST', templates: 'GET', link: 'GET' };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    const lower = path.toLowerCase().replace(/\/+$/, '');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'Content-Type': 'text/plain' }).end('Payload Too Large');
        req.destroy();
        return;
      }
      chunks.push(chunk);
    }
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    let bodyOk = true;
    if (raw.trim()) {
      try {
        body = JSON.parse(raw);
      } catch {
        bodyOk = false;
      }
    }

    // Loopback only, and no DNS rebinding: the Host must name this loopback address.
    const host = (req.headers.host ?? '').toLowerCase();
    if (!(host === `127.0.0.1:${port}` || host === `localhost:${port}`)) {
      send(req, res, { status: 403, body: 'Forbidden host', contentType: 'text/plain; charset=utf-8' }, undefined);
      return;
    }
    if (lower.startsWith('/__sandbox')) {
      // A web page cannot send application/json cross-origin without a (refused) preflight.
      if (method === 'POST' && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
        send(req, res, { status: 415, body: JSON.stringify({ error: 'admin POSTs need Content-Type: application/json' }) }, undefined);
        return;
      }
      const reply = admin(method, lower === '/__sandbox' ? '/__sandbox' : path, url.searchParams, bodyOk ? body : raw);
      send(req, res, reply.deferred ? await reply.deferred : reply, undefined);
      return;
    }

    const op = opFor(method, lower);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = k === 'authorization' ? '[redacted]' : Array.isArray(v) ? v.join(', ') : (v ?? '');
    const auth = op && op !== 'token' && op !== 'link' ? tokens.check(req.headers.authorization) : 'none';
    const entry: SandboxRequestLog = {
      seq: ++seq,
      at: now().toISOString(),
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers,
      bodySize: size,
      op: op ?? 'other',
      auth,
      status: 0,
    };
    log.push(entry);
    if (log.length > 20_000) log.splice(0, log.length - 20_000);

    if (!op) {
      send(req, res, { status: 404, body: JSON.stringify({ message: 'Not Found' }) }, undefined, entry);
      return;
    }
    if (method !== METHODS[op]) {
      send(req, res, { status: 405, body: JSON.stringify({ message: 'Method Not Allowed' }), headers: { Allow: METHODS[op] } }, undefined, entry);
      return;
    }
    const decision = injector.decide(op);
    entry.fault = decision.kind;
    const delay = (): Promise<void> => (decision.delayMs > 0 ? new Promise((r) => setTimeout(r, decision.delayMs)) : Promise.resolve());

    if (quirks.maintenance && op !== 'link') {
      await delay();
      send(req, res, { status: 503, body: MAINTENANCE_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
      return;
    }
    switch (decision.kind) {
      case 'status429':
        await delay();
        send(req, res, { ...fail('TooManyRequests', 429), headers: { 'Retry-After': String(decision.retryAfterS) } }, undefined, entry);
        return;
      case 'status500':
        await delay();
        send(req, res, { status: 500, body: ERROR_500_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
        return;
      case 'status503':
        await delay();
        send(req, res, { status: 503, body: MAINTENANCE_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
        return;
      case 'error':
        await delay();
        send(req, res, fail('UnknownError', 500), undefined, entry);
        return;
      default:
        break;
    }

    let reply: Reply;
    if (op === 'link') reply = serveLink(lower);
    else if (!bodyOk) reply = fail('InvalidRequestBody', 400);
    else if (op === 'token') reply = opToken(body);
    else if (auth === 'invalid' || auth === 'none' || auth === 'expired') {
      reply = fail(auth === 'expired' ? 'TokenExpiredCode' : 'InvalidTokenCode', quirks.authHttp401 ? 401 : 200);
      if (quirks.authHttp401) reply.headers = { 'WWW-Authenticate': `Bearer error="invalid_token"` };
    } else if (quirks.requireCompanyTaxCode && req.headers.companytaxcode !== SANDBOX_CREDENTIALS.taxcode) reply = fail('InvalidTaxCode');
    else if (quirks.callError) reply = fail(quirks.callError);
    else if (op === 'templates') reply = opTemplates(url.searchParams);
    else if (op === 'download') reply = await opDownload(url.searchParams, body);
    else if (op === 'sendemail') reply = opSendEmail(body);
    else reply = await opPreview(body);

    await delay();
    if (decision.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'hang') return;
    send(req, res, reply, decision.kind, entry);
  };

  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(envelope(false, null, 'UnknownError', error instanceof Error ? error.message : String(error))));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  let listening = false;

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const onError = (e: Error): void => reject(e);
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        port = (server.address() as AddressInfo).port;
        origin = `http://127.0.0.1:${port}`;
        listening = true;
        resolve();
      });
    });

  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
    });

  await listen();

  const catalogue: SandboxCatalogue = {
    list: (kind) => cat.list(typeof kind === 'string' ? kind : kindForFlags(kind.withCode, kind.calc)),
    deletedIds: (kind) => cat.deletedIds(kind),
    get: (id) => cat.get(id),
    kindOf: (id) => cat.kindOf(id),
    flagsFor: flagsForKind,
    expected: (id, type) => {
      const inv = cat.get(id);
      if (!inv || inv.deleted) return Promise.reject(new Error(`no live invoice ${id}`));
      return renderer.render(inv, type);
    },
    expectedEmailStatus: emailStatusFor,
    templates: () => templates,
    get size() {
      return cat.size;
    },
  };

  return {
    get origin() {
      return origin;
    },
    get baseUrl() {
      return origin + SANDBOX_BASE_PATH;
    },
    get tokenUrl() {
      return origin + SANDBOX_TOKEN_PATH;
    },
    devToken: SANDBOX_DEV_TOKEN,
    credentials: SANDBOX_CREDENTIALS,
    seed,
    catalogue,
    quirks: () => ({ ...quirks }),
    setQuirks: (q) => {
      quirks = { ...quirks, ...checkQuirks(q) };
    },
    faults: () => injector.current,
    setFaults: (f) => injector.set(normaliseFaults(f)),
    sentEmails: () => emails.map((e) => ({ ...e })),
    requests: (filter) => (filter?.op ? log.filter((r) => r.op === filter.op) : [...log]),
    reset: resetAll,
    issueToken: (opts) => tokens.issue(opts),
    warm,
    stats: () => ({ cacheHits: renderer.cache.hits, cacheMisses: renderer.cache.misses, cachedItems: renderer.cache.size, cachedBytes: renderer.cache.totalBytes, renderMs: renderer.renderMs }),
    stop,
    start: async () => {
      if (!listening) await listen();
    },
    get listening() {
      return listening;
    },
    close: async () => {
      await stop();
      renderer.cache.clear();
      links.clear();
    },
  };
}

function qget(query: URLSearchParams, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of query) if (k.toLowerCase() === lower) return v;
  return undefined;
}

