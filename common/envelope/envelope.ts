/**
 * The response-envelope reader (docs/service.md#the-envelope).
 *
 * Every operation answers `{success, errorCode, descriptionErrorCode, errors, data, customData}`,
 * but deployments spell the names with a leading capital too (`Success`, `Data`, …), and `data`
 * may be an object, a list, a plain string, or JSON encoded inside a string (sometimes several
 * times). This module reads all of them without ever throwing and says what it found.
 *
 * Pure TypeScript: used by main (the service client) and by anything else that reads a stored
 * response.
 */

/** The envelope's fields, with names matched case-insensitively and `data` unwrapped. */
export interface Envelope {
  /** The raw success flag as sent; `undefined` when absent or not a boolean. */
  success: boolean | undefined;
  /** The call-level error code; `null` when absent, null or empty. */
  errorCode: string | null;
  /** `descriptionErrorCode`; `null` when absent or empty. */
  description: string | null;
  /** `errors`, kept whatever the element shape; `[]` when absent or null. */
  errors: unknown[];
  /** `data` after unwrapping JSON-in-string layers; `null` when absent. */
  data: unknown;
  /** `data` exactly as it arrived (before unwrapping). */
  rawData: unknown;
  /** `customData` as sent (`null` when absent). */
  customData: unknown;
  /** Every top-level field of the response as received, original names. */
  fields: Record<string, unknown>;
}

export type EnvelopeResult =
  | {
      kind: 'success';
      /** The raw flag: may be `false` (sendemail does this with good items): judge per item. */
      success: boolean | undefined;
      data: unknown;
      envelope: Envelope;
    }
  | {
      kind: 'error';
      success: boolean | undefined;
      /** The call-level error code, or `null` when the service said `success:false` without one. */
      code: string | null;
      description: string | null;
      errors: unknown[];
      /** `data` is kept: a failing call may still carry per-item results. */
      data: unknown;
      envelope: Envelope;
    }
  | { kind: 'malformed'; reason: string };

const KNOWN_FIELDS = ['success', 'errorcode', 'descriptionerrorcode', 'errors', 'data', 'customdata'] as const;

/** How many JSON-in-string layers are peeled off at most (the service nests two in practice). */
export const MAX_UNWRAP_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Case-insensitive field lookup. When a name appears in several spellings (`data` and `Data`),
 * the first one holding a non-null value wins.
 */
export function getField(obj: Record<string, unknown>, name: string): unknown {
  const wanted = name.toLowerCase();
  let found: unknown = undefined;
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = obj[key];
    if (value !== null && value !== undefined) return value;
    if (found === undefined) found = value;
  }
  return found;
}

/** True when `obj` has a field of that name in any casing. */
export function hasField(obj: Record<string, unknown>, name: string): boolean {
  const wanted = name.toLowerCase();
  return Object.keys(obj).some((k) => k.toLowerCase() === wanted);
}

/**
 * Peels JSON-in-string layers: a string that parses as JSON holding an object, a list or another
 * string is replaced by what it holds, up to {@link MAX_UNWRAP_DEPTH} times. A string that does not
 * parse (or parses to a bare number/boolean/null) stays exactly as it was: a link stays a link,
 * `"{not json"` stays a string, `"123"` stays `"123"`.
 */
export function unwrapData(value: unknown, maxDepth: number = MAX_UNWRAP_DEPTH): unknown {
  let current = value;
  for (let depth = 0; depth < maxDepth && typeof current === 'string'; depth++) {
    const text = current.trim();
    const first = text.charAt(0);
    if (first !== '{' && first !== '[' && first !== '"') return current;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return current;
    }
    if (parsed === null || typeof parsed === 'number' || typeof parsed === 'boolean') return current;
    current = parsed;
  }
  return current;
}

/**
 * An error-code value as services spell it. "No error" comes as null, `""`, `0`, `"0"`, `false`,
 * `[]` or `{}`; a list gives its first code, an object its `code`/`errorCode` field, a
 * JSON-in-string layer is peeled. Anything else is a code (an unreadable object as its JSON).
 */
export function readCode(value: unknown): string | null {
  if (value === null || value === undefined || value === false || value === 0) return null;
  if (typeof value === 'string') {
    const t = value.trim();
    if (t === '' || t === '0') return null;
    const inner = unwrapData(t);
    return typeof inner === 'string' ? t : readCode(inner);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    for (const element of value) {
      const code = readCode(element);
      if (code !== null) return code;
    }
    return null;
  }
  if (isPlainObject(value)) {
    if (Object.keys(value).length === 0) return null;
    for (const name of ['errorCode', 'code', 'key']) {
      if (hasField(value, name)) return codeField(value, name);
    }
  }
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

/**
 * A code field in any casing: the first spelling that holds a real code wins, so `ErrorCode: []`
 * beside `errorCode: ""` is no error and `errorCode: ""` beside `ErrorCode: "InvalidEmail"` does
 * not hide the code.
 */
export function codeField(obj: Record<string, unknown>, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(obj)) {
    if (key.toLowerCase() !== wanted) continue;
    const code = readCode(obj[key]);
    if (code !== null) return code;
  }
  return null;
}

function asOptionalString(value: unknown): string | null {
  // `0`/`false` are how some stacks say "no code"; a real code is text.
  if (value === null || value === undefined || value === 0 || value === false) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}

function asSuccessFlag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const t = value.trim().toLowerCase();
    if (t === 'true') return true;
    if (t === 'false') return false;
  }
  if (typeof value === 'number') return value !== 0;
  return undefined;
}

function asErrorList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  const unwrapped = unwrapData(value);
  if (Array.isArray(unwrapped)) return unwrapped;
  if (typeof unwrapped === 'string' && unwrapped.trim() === '') return [];
  return [unwrapped];
}

function isEmptyData(data: unknown): boolean {
  if (data === null || data === undefined) return true;
  if (typeof data === 'string') return data.trim() === '';
  if (Array.isArray(data)) return data.length === 0;
  return false;
}

/**
 * Reads a parsed JSON value as an envelope.
 *
 * - `malformed` when the value is not an object or has none of the envelope's fields.
 * - `error` when there is a call-level error code, or `success` is false and either `errors` is
 *   non-empty or there is no data at all.
 * - `success` otherwise, with the raw flag kept: the sendemail quirk (`success:false`, no code,
 *   no errors, good items) reads as `success` with `success === false`, and callers judge each
 *   item by its own status and code.
 *
 * Never throws, whatever the input.
 */
export function readEnvelope(value: unknown): EnvelopeResult {
  try {
    return readEnvelopeUnsafe(value);
  } catch (error) {
    return { kind: 'malformed', reason: `unreadable response (${error instanceof Error ? error.message : String(error)})` };
  }
}

function readEnvelopeUnsafe(value: unknown): EnvelopeResult {
  if (!isPlainObject(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
    return { kind: 'malformed', reason: `the response is ${what}, not an envelope object` };
  }
  if (!KNOWN_FIELDS.some((f) => hasField(value, f))) {
    const keys = Object.keys(value).slice(0, 8).join(', ');
    return { kind: 'malformed', reason: `the response has none of the envelope fields (found: ${keys || 'nothing'})` };
  }
  const rawData = getField(value, 'data');
  const envelope: Envelope = {
    success: asSuccessFlag(getField(value, 'success')),
    errorCode: codeField(value, 'errorCode'),
    description: asOptionalString(getField(value, 'descriptionErrorCode')),
    errors: asErrorList(getField(value, 'errors')),
    data: rawData === undefined ? null : unwrapData(rawData),
    rawData: rawData === undefined ? null : rawData,
    customData: getField(value, 'customData') ?? null,
    fields: value,
  };
  const failed = envelope.errorCode !== null || (envelope.success === false && (envelope.errors.length > 0 || isEmptyData(envelope.data)));
  if (failed) {
    return {
      kind: 'error',
      success: envelope.success,
      code: envelope.errorCode,
      description: envelope.description,
      errors: envelope.errors,
      data: envelope.data,
      envelope,
    };
  }
  return { kind: 'success', success: envelope.success, data: envelope.data, envelope };
}

/** Parses response text and reads it; a body that is not JSON is `malformed` with a short excerpt. */
export function readEnvelopeText(text: string): EnvelopeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const trimmed = text.trim();
    const excerpt = trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed;
    const looksHtml = /^<(!doctype|html)/i.test(trimmed);
    const why = trimmed === '' ? 'the response body is empty' : looksHtml ? 'the response is an HTML page, not JSON' : 'the response is not valid JSON';
    return {
      kind: 'malformed',
      reason: `${why}${trimmed === '' ? '' : ` (${error instanceof Error ? error.message : 'parse error'}; starts with ${JSON.stringify(excerpt)})`}`,
    };
  }
  return readEnvelope(parsed);
}

/**
 * The first non-empty code an envelope's `errors` list carries (`[{code:'X'}]`, `['X']`, …), for
 * services that put the code only there.
 */
export function firstErrorCode(errors: unknown[]): string | null {
  for (const e of errors) {
    if (typeof e === 'string' && e.trim()) return e.trim();
    if (isPlainObject(e)) {
      for (const name of ['errorCode', 'code', 'ErrorCode', 'key']) {
        const v = getField(e, name);
        if (typeof v === 'string' && v.trim()) return v.trim();
      }
    }
  }
  return null;
}
