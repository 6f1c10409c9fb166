/**
 * Plain Vietnamese/English messages for the error codes the service is known to send
 * (docs/service.md#error-codes), at call level or per item (Download's, sendemail's and the
 * issue answer's `ErrorCode`). Unknown codes are shown verbatim. Pure: the renderer can use it too.
 */

export interface CodeMessage {
  en: string;
  vi: string;
}

/**
 * busy: the series or the service was busy, the same request can go again; service: the service's
 * own failure (signing service down); signing: the certificate or sign type; registration: the
 * company's e-invoice registration (declaration) with the tax authority.
 */
export type ErrorCodeCategory = 'auth' | 'data' | 'item' | 'licence' | 'limit' | 'busy' | 'service' | 'signing' | 'registration' | 'unknown';

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
    en: 'No invoice of the chosen kind has this lookup code: check the kind (with tax-authority code, without code, from a cash register) and the code.',
    vi: 'Không có hóa đơn nào thuộc loại đã chọn mang mã tra cứu này: hãy kiểm tra loại hóa đơn (có mã của cơ quan thuế, không có mã, máy tính tiền) và mã tra cứu.',
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
  // Issuing (docs/service.md, "Error codes").
  InvalidRequestBody: {
    category: 'data',
    en: 'The service could not read the request.',
    vi: 'Hệ thống không đọc được dữ liệu gửi lên.',
  },
  InvoiceNumberNotCotinuous: {
    category: 'busy',
    en: 'Another invoice of this series was being issued at the same moment, so the numbers would not follow each other. Try again in a moment.',
    vi: 'Đang có hóa đơn khác cùng ký hiệu được phát hành cùng lúc nên số hóa đơn không liên tục. Hãy thử lại sau giây lát.',
  },
  InvoiceDuplicated: {
    category: 'busy',
    en: 'The service received this invoice twice at once. Try again in a moment.',
    vi: 'Hệ thống nhận trùng hóa đơn này cùng lúc. Hãy thử lại sau giây lát.',
  },
  InvalidInvoiceData: {
    category: 'data',
    en: 'The invoice data is not valid for issuing.',
    vi: 'Dữ liệu hóa đơn không hợp lệ để phát hành.',
  },
  InvoiceTemplateNotExist: {
    category: 'data',
    en: 'The invoice series does not exist at the service or is not in use.',
    vi: 'Ký hiệu hóa đơn không tồn tại trên hệ thống hoặc chưa được sử dụng.',
  },
  CreateInvoiceDataError: {
    category: 'data',
    en: 'The service could not create the invoice from the data sent.',
    vi: 'Hệ thống không tạo được hóa đơn từ dữ liệu đã gửi.',
  },
  InvalidInvoiceDate: {
    category: 'data',
    en: 'The invoice date is earlier than the date of the last invoice issued on this series.',
    vi: 'Ngày hóa đơn sớm hơn ngày của hóa đơn đã phát hành gần nhất trong ký hiệu này.',
  },
  TaxReductionDateInValid: {
    category: 'data',
    en: 'A reduced VAT rate (8%) is used outside the dates it applies.',
    vi: 'Thuế suất giảm (8%) được dùng ngoài thời gian áp dụng.',
  },
  ExistsInvoiceNextYear: {
    category: 'data',
    en: 'This series already has invoices dated next year; an invoice of this year cannot follow them.',
    vi: 'Ký hiệu này đã có hóa đơn của năm sau; không phát hành tiếp được hóa đơn của năm nay.',
  },
  DeclarationNotExist: {
    category: 'registration',
    en: 'The company has no e-invoice registration (declaration) with the tax authority.',
    vi: 'Công ty chưa có tờ khai đăng ký sử dụng hóa đơn điện tử với cơ quan thuế.',
  },
  InvalidDeclaration: {
    category: 'registration',
    en: 'The e-invoice registration (declaration) is not valid.',
    vi: 'Tờ khai đăng ký sử dụng hóa đơn điện tử không hợp lệ.',
  },
  ExistDeclarationNotReceive: {
    category: 'registration',
    en: 'A registration (declaration) is still waiting for the tax authority to accept it.',
    vi: 'Có tờ khai đăng ký đang chờ cơ quan thuế chấp nhận.',
  },
  InvoiceTemplateNotValidInDeclaration: {
    category: 'registration',
    en: 'This invoice series is not in the accepted registration (declaration).',
    vi: 'Ký hiệu hóa đơn này không có trong tờ khai đăng ký đã được chấp nhận.',
  },
  CallSignServiceFail: {
    category: 'service',
    en: 'The signing service could not be reached. Try again in a moment.',
    vi: 'Không gọi được dịch vụ ký số. Hãy thử lại sau giây lát.',
  },
  SignEsignHSMError: {
    category: 'service',
    en: 'The HSM signing service reported an error while signing.',
    vi: 'Dịch vụ ký số HSM báo lỗi khi ký.',
  },
  SignSoftDream78Exception: {
    category: 'service',
    en: 'The signing service failed while signing the invoice.',
    vi: 'Dịch vụ ký số gặp lỗi khi ký hóa đơn.',
  },
  Exception: {
    category: 'service',
    en: 'The e-invoice service ran into an internal error. Try again later.',
    vi: 'Hệ thống hóa đơn gặp lỗi nội bộ. Hãy thử lại sau.',
  },
  InvalidCertByRegistration: {
    category: 'signing',
    en: "The digital certificate is not in the company's registration with the tax authority.",
    vi: 'Chứng thư số không có trong tờ khai đăng ký với cơ quan thuế.',
  },
  CertRevocation: {
    category: 'signing',
    en: 'The digital certificate has been revoked.',
    vi: 'Chứng thư số đã bị thu hồi.',
  },
  SigningTimeNotInRegistration: {
    category: 'signing',
    en: 'The signing time is outside the validity of the registered certificate.',
    vi: 'Thời điểm ký nằm ngoài thời hạn của chứng thư số đã đăng ký.',
  },
  HasRegistrationStopUseCert: {
    category: 'signing',
    en: 'The company has registered to stop using this certificate.',
    vi: 'Công ty đã đăng ký ngừng sử dụng chứng thư số này.',
  },
  InvalidSignType: {
    category: 'signing',
    en: 'The service does not accept this way of signing; choose another in Settings.',
    vi: 'Hệ thống không chấp nhận hình thức ký này; hãy chọn hình thức khác trong Cài đặt.',
  },
  InvoiceCannotReplace: {
    category: 'item',
    en: 'This invoice cannot be replaced.',
    vi: 'Hóa đơn này không thể thay thế.',
  },
  InvoiceCannotAdjust: {
    category: 'item',
    en: 'This invoice cannot be adjusted.',
    vi: 'Hóa đơn này không thể điều chỉnh.',
  },
  HasAdjustmentInvoice: {
    category: 'item',
    en: 'This invoice already has an adjustment invoice.',
    vi: 'Hóa đơn này đã có hóa đơn điều chỉnh.',
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
