import { codeField, getField, unwrapData } from '../../../common/envelope';
import { InvoiceTemplateSchema, SendEmailStatus, type DownloadDataType, type InvoiceTemplate } from '../../../common/model';

/** One Download item with its content decoded by type. */
export interface DownloadItem {
  transactionId: string;
  /** Pdf/All: the decoded bytes (PDF, or the zip); Xml/Html: the text; null when none came. */
  content: Uint8Array | string | null;
  /** The item's ErrorCode; null when empty (no error). */
  errorCode: string | null;
  /** When a deployment answers an item with a viewer link instead of content. */
  link: string | null;
}

export type DownloadResult =
  | { kind: 'items'; items: DownloadItem[]; envelopeSuccess: boolean | undefined }
  /** Some deployments answer Pdf with one viewer link instead of a list (docs/service.md#download). */
  | { kind: 'link'; url: string };

export interface SendEmailItemResult {
  transactionId: string;
  refId: string | null;
  refDetailId: string | null;
  /** SendEmailStatus 0…4, or null when missing/unreadable. */
  status: SendEmailStatus | null;
  errorCode: string | null;
  /** Status 3 (sent) or 4 (requested) — or 1 (sending) — and no ErrorCode. */
  ok: boolean;
  /** The item exactly as received (unknown fields kept). */
  raw: Record<string, unknown>;
}

export interface SendEmailOutcome {
  items: SendEmailItemResult[];
  /** The envelope's raw success flag: may be false while every item is fine (docs/service.md#send-email--sendemail). */
  envelopeSuccess: boolean | undefined;
  /** A call-level code that came along with per-item results, if any. */
  callErrorCode: string | null;
  callErrorDescription: string | null;
}

export class NormaliseError extends Error {}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() === '' ? null : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

const URL_RE = /^https?:\/\/\S+$/i;

function decodeBase64(s: string): Uint8Array {
  const comma = s.startsWith('data:') ? s.indexOf(',') : -1;
  const body = comma >= 0 ? s.slice(comma + 1) : s;
  const buf = Buffer.from(body, 'base64');
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

/**
 * The TransactionID of result #i: its own, or — when the request held exactly one invoice and the
 * item names none (a published sample does this) — that invoice's.
 */
function itemId(el: Record<string, unknown>, requested: readonly string[] | undefined): string | null {
  return text(getField(el, 'TransactionID')) ?? (requested?.length === 1 ? requested[0]! : null);
}

/** Turns Download's `data` (already unwrapped by the envelope reader) into items or the link form. */
export function normaliseDownload(data: unknown, type: DownloadDataType, envelopeSuccess: boolean | undefined, requested?: readonly string[]): DownloadResult {
  if (typeof data === 'string') {
    const s = data.trim();
    if (URL_RE.test(s)) return { kind: 'link', url: s };
    throw new NormaliseError(`Download data is a string that is neither a list nor a link (${JSON.stringify(s.slice(0, 40))})`);
  }
  let list: unknown[];
  if (Array.isArray(data)) list = data;
  else if (isObject(data) && getField(data, 'TransactionID') !== undefined) list = [data];
  else if (data === null || data === undefined) throw new NormaliseError('Download answered without data');
  else throw new NormaliseError(`Download data is ${typeof data}, not a list of results`);

  const items: DownloadItem[] = list.map((raw, i) => {
    const el = unwrapData(raw);
    if (!isObject(el)) throw new NormaliseError(`Download result #${i + 1} is not an object`);
    const id = itemId(el, requested);
    if (id === null) throw new NormaliseError(`Download result #${i + 1} has no TransactionID`);
    const errorCode = codeField(el, 'ErrorCode');
    const rawContent = getField(el, 'data');
    let content: Uint8Array | string | null = null;
    let link: string | null = null;
    if (typeof rawContent === 'string' && rawContent !== '') {
      if ((type === 'Pdf' || type === 'All') && URL_RE.test(rawContent.trim())) link = rawContent.trim();
      else content = type === 'Pdf' || type === 'All' ? decodeBase64(rawContent) : rawContent;
    }
    return { transactionId: id, content, errorCode, link };
  });
  return { kind: 'items', items, envelopeSuccess };
}

function toStatus(v: unknown): SendEmailStatus | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 4 ? (n as SendEmailStatus) : null;
}

/**
 * sendemail's `data`: a list of SendEmailResult (case-insensitive field names). `requested` are the
 * request's TransactionIDs: an item without one is matched only when there was exactly one.
 */
export function normaliseSendEmailItems(data: unknown, requested?: readonly string[]): SendEmailItemResult[] {
  let list: unknown[];
  if (Array.isArray(data)) list = data;
  else if (isObject(data) && getField(data, 'TransactionID') !== undefined) list = [data];
  else if (data === null || data === undefined || data === '') list = [];
  else throw new NormaliseError(`sendemail data is ${typeof data}, not a list of results`);
  return list.map((raw, i) => {
    const el = unwrapData(raw);
    if (!isObject(el)) throw new NormaliseError(`sendemail result #${i + 1} is not an object`);
    const id = itemId(el, requested);
    if (id === null) throw new NormaliseError(`sendemail result #${i + 1} has no TransactionID`);
    const status = toStatus(getField(el, 'SendEmailStatus'));
    const errorCode = codeField(el, 'ErrorCode');
    const ok = errorCode === null && (status === SendEmailStatus.Sent || status === SendEmailStatus.Requested || status === SendEmailStatus.Sending);
    return {
      transactionId: id,
      refId: text(getField(el, 'RefID')),
      refDetailId: text(getField(el, 'RefDetailID')),
      status,
      errorCode,
      ok,
      raw: el,
    };
  });
}

/**
 * `success: true` with no data at all (`data: ""`, the integration document's own example): the
 * service took the request and will send — each invoice reads as SendEmailStatus 4, "requested".
 */
export function acceptedWithoutItems(requested: readonly string[]): SendEmailItemResult[] {
  return requested.map((transactionId) => ({
    transactionId,
    refId: null,
    refDetailId: null,
    status: SendEmailStatus.Requested,
    errorCode: null,
    ok: true,
    raw: {},
  }));
}

/** templates' `data`: a list of InvoiceTemplateData; unknown fields pass through untouched. */
export function normaliseTemplates(data: unknown): InvoiceTemplate[] {
  if (data === null || data === undefined || data === '') return [];
  const list = Array.isArray(data) ? data : isObject(data) ? [data] : null;
  if (!list) throw new NormaliseError(`templates data is ${typeof data}, not a list`);
  return list.map((raw, i) => {
    const parsed = InvoiceTemplateSchema.safeParse(unwrapData(raw));
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new NormaliseError(`template #${i + 1} is not readable (${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'})`);
    }
    return parsed.data;
  });
}

/** The token operation's `data`: the token string, or an object carrying it. */
export function normaliseToken(data: unknown): string {
  if (typeof data === 'string' && data.trim()) return data.trim();
  if (isObject(data)) {
    for (const name of ['token', 'access_token', 'accessToken', 'Token']) {
      const v = getField(data, name);
      if (typeof v === 'string' && v.trim()) return v.trim();
    }
  }
  throw new NormaliseError('the token operation answered without a token');
}

/** A JWT's `exp` as an ISO time, or null when the token is not a JWT with an expiry. */
export function jwtExpiry(token: string): string | null {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (isObject(payload) && typeof payload.exp === 'number' && Number.isFinite(payload.exp)) return new Date(payload.exp * 1000).toISOString();
  } catch {
    return null;
  }
  return null;
}
