/** What an operation or admin endpoint answers, before the HTTP plumbing applies casing and faults. */
export interface Reply {
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

/** Placeholder for data that is spliced in pre-serialised (see Reply.rawData). */
export const RAW_DATA = '\u0001sandbox-raw-data\u0001';
export const RAW_DATA_JSON = JSON.stringify(RAW_DATA);

export function envelope(
  success: boolean,
  data: unknown,
  errorCode: string | null = null,
  description: string | null = null,
  errors: unknown[] = [],
): Record<string, unknown> {
  return { success, errorCode, descriptionErrorCode: description, errors, data, customData: '' };
}

export const DESCRIPTIONS: Record<string, string> = {
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
  InvalidSignType: 'Hình thức ký không hợp lệ',
  InvalidInvoiceData: 'Dữ liệu hóa đơn không hợp lệ',
  InvoiceTemplateNotExist: 'Mẫu hóa đơn/ký hiệu không tồn tại',
  InvalidCertByRegistration: 'Chứng thư số không có trong tờ khai đăng ký',
  DuplicateInvoiceRefID: 'Hóa đơn với RefID này đã được phát hành',
  InvoiceNumberNotCotinuous: 'Số hóa đơn không liên tục, vui lòng phát hành lần lượt theo ký hiệu',
  InvalidInvoiceDate: 'Ngày hóa đơn nhỏ hơn ngày của hóa đơn đã phát hành trước đó',
  TaxReductionDateInValid: 'Thuế suất giảm không áp dụng cho ngày hóa đơn',
};

export function fail(code: string, status = 200, errors: unknown[] = []): Reply {
  return { status, envelope: envelope(false, null, code, DESCRIPTIONS[code] ?? code, errors) };
}

export function pascal(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k.charAt(0).toUpperCase() + k.slice(1)] = v;
  return out;
}

/** A query flag as ASP.NET binds it: absent or empty = false, `true`/`false` in any case, else 'bad'. */
export function parseBool(v: string | undefined): boolean | 'bad' {
  if (v === undefined || v === '') return false;
  const l = v.toLowerCase();
  if (l === 'true') return true;
  if (l === 'false') return false;
  return 'bad';
}

/** A query parameter by case-insensitive name. */
export function qget(query: URLSearchParams, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [k, v] of query) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Transaction IDs the service accepts; anything else is InvalidTransactionID. */
export const TRANSACTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
