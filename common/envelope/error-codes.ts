/**
 * Plain Vietnamese/English messages for the error codes the service is known to send
 * (docs/service.md#error-codes), at call level or per item (Download's and sendemail's
 * `ErrorCode`). Unknown codes are shown verbatim. Pure: the renderer can use it too.
 */

export interface CodeMessage {
  en: string;
  vi: string;
}

export type ErrorCodeCategory = 'auth' | 'data' | 'item' | 'licence' | 'limit' | 'unknown';

export interface DescribedCode extends CodeMessage {
  code: string;
  category: ErrorCodeCategory;
  /** False for codes not in the table: the message then repeats the code verbatim. */
  known: boolean;
}

const TABLE: Record<string, { category: ErrorCodeCategory } & CodeMessage> = {
  InvalidAppID: {
    category: 'auth',
    en: 'The application ID (AppID) is not valid for this service.',
    vi: 'Mã ứng dụng (AppID) không hợp lệ với dịch vụ này.',
  },
  InActiveAppID: {
    category: 'auth',
    en: 'The application ID (AppID) has been deactivated.',
    vi: 'Mã ứng dụng (AppID) đã bị ngừng kích hoạt.',
  },
  UnAuthorize: {
    category: 'auth',
    en: 'The service refused the credentials: not authorised.',
    vi: 'Dịch vụ từ chối thông tin đăng nhập: không có quyền truy cập.',
  },
  TokenExpiredCode: {
    category: 'auth',
    en: 'The access token has expired; sign in again or paste a new token.',
    vi: 'Mã truy cập (token) đã hết hạn; hãy đăng nhập lại hoặc dán token mới.',
  },
  InvalidTokenCode: {
    category: 'auth',
    en: 'The access token is not valid; check it or sign in again.',
    vi: 'Mã truy cập (token) không hợp lệ; hãy kiểm tra lại hoặc đăng nhập lại.',
  },
  TaxRateInfo_VATRateName: {
    category: 'data',
    en: 'The VAT rate summary (TaxRateInfo) has a missing or invalid VAT rate name.',
    vi: 'Bảng tổng hợp thuế suất (TaxRateInfo) thiếu hoặc sai tên thuế suất.',
  },
  InvoiceQuantityTooLarge: {
    category: 'limit',
    en: 'Too many invoices in one request (at most 50).',
    vi: 'Quá nhiều hóa đơn trong một yêu cầu (tối đa 50).',
  },
  XMLTooLong: {
    category: 'limit',
    en: 'The invoice is too large for the service (XML too long).',
    vi: 'Hóa đơn quá lớn so với giới hạn của dịch vụ (XML quá dài).',
  },
  InvalidTaxCode: {
    category: 'data',
    en: 'The tax code is not valid.',
    vi: 'Mã số thuế không hợp lệ.',
  },
  DuplicateInvoiceRefID: {
    category: 'data',
    en: 'An invoice with this RefID already exists.',
    vi: 'Đã có hóa đơn mang RefID này.',
  },
  InvalidTransactionID: {
    category: 'item',
    en: 'The lookup code (TransactionID) is not valid.',
    vi: 'Mã tra cứu (TransactionID) không hợp lệ.',
  },
  InvoiceNotExist: {
    category: 'item',
    en: 'No invoice exists with this lookup code.',
    vi: 'Không tồn tại hóa đơn với mã tra cứu này.',
  },
  InvoiceDeleted: {
    category: 'item',
    en: 'The invoice has been deleted.',
    vi: 'Hóa đơn đã bị xóa.',
  },
  LicenseInfo_NotBuy: {
    category: 'licence',
    en: 'No e-invoice licence has been bought for this company.',
    vi: 'Công ty chưa mua gói hóa đơn điện tử.',
  },
  LicenseInfo_OutOfInvoice: {
    category: 'licence',
    en: 'The e-invoice licence has no invoices left.',
    vi: 'Gói hóa đơn điện tử đã hết số lượng hóa đơn.',
  },
  LicenseInfo_Expired: {
    category: 'licence',
    en: 'The e-invoice licence has expired.',
    vi: 'Gói hóa đơn điện tử đã hết hạn.',
  },
};

/** Codes that mean "your credentials are not accepted". */
export const AUTH_CODES: ReadonlySet<string> = new Set(
  Object.entries(TABLE)
    .filter(([, v]) => v.category === 'auth')
    .map(([k]) => k),
);

const lowerIndex = new Map(Object.keys(TABLE).map((k) => [k.toLowerCase(), k]));

/** True when the code (any casing) says the credentials/token are not accepted. */
export function isAuthCode(code: string | null | undefined): boolean {
  if (!code) return false;
  const key = lowerIndex.get(code.trim().toLowerCase());
  return key !== undefined && AUTH_CODES.has(key);
}

/** Code families that name the field they are about. */
const FIELD_FAMILIES: ReadonlyArray<{ pattern: RegExp; en: (field: string) => string; vi: (field: string) => string }> = [
  { pattern: /^RequireError_(.+)$/i, en: (f) => `A required field is missing: ${f}.`, vi: (f) => `Thiếu trường bắt buộc: ${f}.` },
  { pattern: /^InvoiceDetail_(.+)$/i, en: (f) => `An invoice line has a missing or invalid ${f}.`, vi: (f) => `Một dòng hàng hóa thiếu hoặc sai ${f}.` },
];

/**
 * A plain message for a service error code, in both languages. Known codes (any casing) get a
 * sentence; the families `RequireError_{Field}` and `InvoiceDetail_{Field}` name the field;
 * anything else is shown verbatim.
 */
export function describeErrorCode(code: string): DescribedCode {
  const trimmed = code.trim();
  const key = lowerIndex.get(trimmed.toLowerCase());
  if (key !== undefined) {
    const entry = TABLE[key]!;
    return { code: key, category: entry.category, en: entry.en, vi: entry.vi, known: true };
  }
  for (const family of FIELD_FAMILIES) {
    const field = family.pattern.exec(trimmed)?.[1];
    if (field !== undefined) return { code: trimmed, category: 'data', en: family.en(field), vi: family.vi(field), known: true };
  }
  return {
    code: trimmed,
    category: 'unknown',
    en: `The service answered with error code ${trimmed}.`,
    vi: `Dịch vụ trả về mã lỗi ${trimmed}.`,
    known: false,
  };
}
