/**
 * Selectable behaviours of the real service (docs/service.md#variants-and-quirks). Defaults follow the
 * published samples where they are explicit; every other variant can be switched on.
 */
export interface SandboxQuirks {
  /** Envelope field names: lower camel (`success`, `data`, …, as in the published samples) or leading capital (`Success`, `Data`, …). */
  casing: 'camel' | 'pascal';
  /**
   * How list data (Download, sendemail, templates) is delivered: `string` = JSON encoded in a
   * string (the published samples), `object` = the JSON list itself, `double` = JSON-in-string twice.
   */
  dataEncoding: 'string' | 'object' | 'double';
  /** Per-item content field of DownloadInvoiceResult: `data` (documented), `Data`, or `mixed` (alternating). */
  itemDataField: 'data' | 'Data' | 'mixed';
  /** sendemail: envelope `success: false`, errorCode null, while the items say status 3/4 (a published sample). */
  emailEnvelopeFailure: boolean;
  /** Download with Pdf: data is one viewer link (URL of a PDF holding every requested invoice) instead of a list. */
  downloadPdfAsLink: boolean;
  /** More than maxDownloadIds IDs: envelope InvoiceQuantityTooLarge (HTTP 200) or a plain HTTP 400. */
  tooManyIds: 'envelope' | 'http400';
  maxDownloadIds: number;
  /** Every operation answers HTTP 503 with the HTML maintenance page. */
  maintenance: boolean;
  /** Auth failures (InvalidTokenCode, TokenExpiredCode) with HTTP 401 instead of 200. */
  authHttp401: boolean;
  /** sendemail status of a good item: `auto` = 4 for TransactionIDs ending in a digit, else 3. */
  emailStatus: 'auto' | 3 | 4;
  /** Some deployments also expect a `CompanyTaxCode` header: without the sandbox tax code → InvalidTaxCode. */
  requireCompanyTaxCode: boolean;
  /** When set, every operation but token and links (after auth) answers this call-level errorCode, e.g. `LicenseInfo_OutOfInvoice`. */
  callError: string | null;
  /**
   * sendemail's answer: `items` (one result per invoice), `emptyData` (`success: true`, `data: ""`,
   * the integration document's example) or `noTransactionId` (results without their TransactionID).
   */
  emailAnswer: 'items' | 'emptyData' | 'noTransactionId';
  /** How a good sendemail item says "no error" in its ErrorCode: `""`, null, 0, `"0"`, `[]` or `{}`. */
  itemNoError: 'emptyString' | 'null' | 'zero' | 'zeroString' | 'emptyList' | 'emptyObject';
  /** An invoice issued through the API is absent from status until this many ms after it was issued. */
  statusDelayMs: number;
  /** A with-code invoice's InvoiceCode is null (SendTaxStatus 1) until this many ms after it was issued. */
  invoiceCodeDelayMs: number;
  /** Extra time the issue handler holds its series before answering (makes overlaps observable without latency). */
  issueProcessingMs: number;
  /** Invoices the licence allows through the API (counted since start; null = unlimited), then LicenseInfo_OutOfInvoice. */
  licenceInvoices: number | null;
  /** The issue answer's publishInvoiceResult: a JSON `string` holding the list, or the `list` itself. */
  publishResultEncoding: 'string' | 'list';
  /** Field names of each publishInvoiceResult item: `RefID`, … (`pascal`) or `refID`, … (`camel`). */
  publishItemCasing: 'pascal' | 'camel';
}

/** The ErrorCode value of each {@link SandboxQuirks.itemNoError} choice. */
export function noErrorValue(choice: SandboxQuirks['itemNoError']): unknown {
  return { emptyString: '', null: null, zero: 0, zeroString: '0', emptyList: [], emptyObject: {} }[choice];
}

export const DEFAULT_QUIRKS: SandboxQuirks = {
  casing: 'camel',
  dataEncoding: 'string',
  itemDataField: 'data',
  emailEnvelopeFailure: false,
  downloadPdfAsLink: false,
  tooManyIds: 'envelope',
  maxDownloadIds: 50,
  maintenance: false,
  authHttp401: false,
  emailStatus: 'auto',
  requireCompanyTaxCode: false,
  callError: null,
  emailAnswer: 'items',
  itemNoError: 'emptyString',
  statusDelayMs: 0,
  invoiceCodeDelayMs: 0,
  issueProcessingMs: 0,
  licenceInvoices: null,
  publishResultEncoding: 'string',
  publishItemCasing: 'pascal',
};

const CHOICES: { [K in keyof SandboxQuirks]: readonly unknown[] | 'boolean' | 'count' | 'code' | 'ms' | 'limit' } = {
  casing: ['camel', 'pascal'],
  dataEncoding: ['string', 'object', 'double'],
  itemDataField: ['data', 'Data', 'mixed'],
  emailEnvelopeFailure: 'boolean',
  downloadPdfAsLink: 'boolean',
  tooManyIds: ['envelope', 'http400'],
  maxDownloadIds: 'count',
  maintenance: 'boolean',
  authHttp401: 'boolean',
  emailStatus: ['auto', 3, 4],
  requireCompanyTaxCode: 'boolean',
  callError: 'code',
  emailAnswer: ['items', 'emptyData', 'noTransactionId'],
  itemNoError: ['emptyString', 'null', 'zero', 'zeroString', 'emptyList', 'emptyObject'],
  statusDelayMs: 'ms',
  invoiceCodeDelayMs: 'ms',
  issueProcessingMs: 'ms',
  licenceInvoices: 'limit',
  publishResultEncoding: ['string', 'list'],
  publishItemCasing: ['pascal', 'camel'],
};

const isWhole = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;

/** Validates a partial quirks object (admin endpoint, options); throws on unknown names/values. */
export function checkQuirks(raw: unknown): Partial<SandboxQuirks> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('quirks: expected an object');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const rule = CHOICES[k as keyof SandboxQuirks];
    if (!rule) throw new Error(`quirks: unknown quirk "${k}"`);
    const ok =
      rule === 'boolean'
        ? typeof v === 'boolean'
        : rule === 'count'
          ? Number.isInteger(v) && (v as number) > 0
          : rule === 'code'
            ? v === null || (typeof v === 'string' && /^[A-Za-z0-9_]{1,80}$/.test(v))
            : rule === 'ms'
              ? isWhole(v) && (v as number) <= 3_600_000
              : rule === 'limit'
                ? v === null || isWhole(v)
                : rule.includes(v);
    if (!ok) throw new Error(`quirks: bad value for ${k}: ${JSON.stringify(v)}`);
    out[k] = v;
  }
  return out as Partial<SandboxQuirks>;
}
