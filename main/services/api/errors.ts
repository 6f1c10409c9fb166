import { AppError } from '../../../common/errors';
import { describeErrorCode } from '../../../common/envelope';
import { TRANSIENT_KINDS, type NetworkFailureKind } from '../../../common/rules/network';
import type { Bilingual } from '../../../common/model';

/**
 * What a UI (or the CLI) can act on when a service call fails:
 * - `offline`: the service could not be reached at all (refused, no route, DNS); nothing was sent.
 * - `network`: the connection broke off mid-way (reset, closed early).
 * - `timeout`: no (complete) answer in time.
 * - `auth`: the credentials/token are not accepted (401/403 or an auth error code).
 * - `rate_limited`: 429; `retryAfterMs` says when to come back.
 * - `unavailable`: 5xx, the HTML maintenance page, or an address that does not serve the API.
 * - `rejected`: the service answered with a call-level error code (shown verbatim when unknown).
 * - `malformed`: an answer the app cannot read.
 * - `unknown_outcome`: a sendemail that may have reached the service; never re-sent silently.
 * - `cancelled`: the caller aborted.
 * - `config`: the connection settings themselves are wrong (e.g. http to a remote host).
 */
export type ApiErrorKind = NetworkFailureKind;

export const API_ERROR_KINDS: readonly ApiErrorKind[] = [
  'offline',
  'network',
  'timeout',
  'auth',
  'rate_limited',
  'unavailable',
  'rejected',
  'malformed',
  'unknown_outcome',
  'cancelled',
  'config',
];

export { TRANSIENT_KINDS };

export interface ApiErrorDetails {
  /** The operation: `preview`, `download`, `sendemail`, `templates`, `token`, `fetch`. */
  operation?: string;
  httpStatus?: number;
  /** The service's error code (call level), as sent. */
  serviceCode?: string | null;
  serviceDescription?: string | null;
  /** The envelope's `errors`, kept whatever their shape. */
  serviceErrors?: unknown[];
  retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  attempts?: number;
  cause?: unknown;
}

export class ApiError extends AppError {
  readonly kind: ApiErrorKind;
  readonly operation: string | undefined;
  readonly httpStatus: number | undefined;
  readonly serviceCode: string | null;
  readonly serviceDescription: string | null;
  readonly serviceErrors: unknown[];
  readonly retryAfterMs: number | undefined;
  attempts: number;

  constructor(kind: ApiErrorKind, message: Bilingual, details: ApiErrorDetails = {}) {
    super(`api.${kind}`, message, { retryable: TRANSIENT_KINDS.has(kind) && kind !== 'malformed', cause: details.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.operation = details.operation;
    this.httpStatus = details.httpStatus;
    this.serviceCode = details.serviceCode ?? null;
    this.serviceDescription = details.serviceDescription ?? null;
    this.serviceErrors = details.serviceErrors ?? [];
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts ?? 1;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function seconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/** Builders with the bilingual wording for each kind. */
export const apiErrors = {
  offline(host: string, detail: string, d: ApiErrorDetails = {}): ApiError {
    return new ApiError(
      'offline',
      {
        en: `Cannot reach the e-invoice service at ${host} (${detail}). Check the internet connection and the service address.`,
        vi: `Không kết nối được tới dịch vụ hóa đơn điện tử tại ${host} (${detail}). Hãy kiểm tra kết nối mạng và địa chỉ dịch vụ.`,
      },
      d,
    );
  },
  network(host: string, detail: string, d: ApiErrorDetails = {}): ApiError {
    return new ApiError(
      'network',
      {
        en: `The connection to ${host} broke off (${detail}). Please try again.`,
        vi: `Kết nối tới ${host} bị ngắt giữa chừng (${detail}). Vui lòng thử lại.`,
      },
      d,
    );
  },
  timeout(ms: number, d: ApiErrorDetails = {}): ApiError {
    return new ApiError(
      'timeout',
      {
        en: `The e-invoice service did not answer within ${seconds(ms)} s.`,
        vi: `Dịch vụ hóa đơn điện tử không phản hồi trong ${seconds(ms)} giây.`,
      },
      d,
    );
  },
  auth(d: ApiErrorDetails = {}): ApiError {
    const code = d.serviceCode;
    const base = code
      ? describeErrorCode(code)
      : {
          en: `The service refused the access token${d.httpStatus ? ` (HTTP ${d.httpStatus})` : ''}.`,
          vi: `Dịch vụ từ chối mã truy cập (token)${d.httpStatus ? ` (HTTP ${d.httpStatus})` : ''}.`,
        };
    return new ApiError(
      'auth',
      {
        en: `Authentication failed: ${base.en} Check the token or sign in again.`,
        vi: `Xác thực thất bại: ${base.vi} Hãy kiểm tra token hoặc đăng nhập lại.`,
      },
      d,
    );
  },
  rateLimited(retryAfterMs: number | undefined, d: ApiErrorDetails = {}): ApiError {
    const when = retryAfterMs !== undefined ? ` in ${seconds(retryAfterMs)} s` : ' in a moment';
    const whenVi = retryAfterMs !== undefined ? ` sau ${seconds(retryAfterMs)} giây` : ' sau ít phút';
    return new ApiError(
      'rate_limited',
      {
        en: `The service is busy (too many requests). Try again${when}.`,
        vi: `Dịch vụ đang quá tải (quá nhiều yêu cầu). Hãy thử lại${whenVi}.`,
      },
      { ...d, retryAfterMs },
    );
  },
  unavailable(status: number | undefined, maintenance: boolean, d: ApiErrorDetails = {}): ApiError {
    const en = maintenance
      ? `The e-invoice service is under maintenance (HTTP ${status ?? 503}). Try again later.`
      : status === 404
        ? 'The service address does not serve this operation (HTTP 404). Check the service address in the connection settings.'
        : `The e-invoice service is temporarily unavailable (HTTP ${status ?? '?'}). Try again later.`;
    const vi = maintenance
      ? `Dịch vụ hóa đơn điện tử đang bảo trì (HTTP ${status ?? 503}). Vui lòng thử lại sau.`
      : status === 404
        ? 'Địa chỉ dịch vụ không hỗ trợ thao tác này (HTTP 404). Hãy kiểm tra địa chỉ dịch vụ trong phần cấu hình kết nối.'
        : `Dịch vụ hóa đơn điện tử tạm thời không khả dụng (HTTP ${status ?? '?'}). Vui lòng thử lại sau.`;
    return new ApiError('unavailable', { en, vi }, { ...d, httpStatus: status });
  },
  rejected(code: string | null, description: string | null, d: ApiErrorDetails = {}): ApiError {
    const described = code ? describeErrorCode(code) : null;
    const desc = description && description !== code ? ` (${description})` : '';
    const en = described
      ? `${described.en}${described.known ? ` [${described.code}]` : ''}${desc}`
      : `The service rejected the request${d.httpStatus ? ` (HTTP ${d.httpStatus})` : ''}${desc}.`;
    const vi = described
      ? `${described.vi}${described.known ? ` [${described.code}]` : ''}${desc}`
      : `Dịch vụ từ chối yêu cầu${d.httpStatus ? ` (HTTP ${d.httpStatus})` : ''}${desc}.`;
    return new ApiError('rejected', { en, vi }, { ...d, serviceCode: code, serviceDescription: description });
  },
  malformed(reason: string, d: ApiErrorDetails = {}): ApiError {
    return new ApiError(
      'malformed',
      {
        en: `The service sent an answer the app cannot read: ${reason}.`,
        vi: `Dịch vụ trả về dữ liệu không đọc được: ${reason}.`,
      },
      d,
    );
  },
  /** An answer past the client's ceiling: not read, not retried (it would be as large again). */
  tooLarge(megabytes: string, d: ApiErrorDetails = {}): ApiError {
    return new ApiError(
      'rejected',
      {
        en: `The service's answer was larger than ${megabytes} MB, the most the app reads at once; it was not read. Ask for fewer invoices at a time.`,
        vi: `Câu trả lời của dịch vụ lớn hơn ${megabytes} MB, mức tối đa ứng dụng đọc một lần, nên không được đọc. Hãy yêu cầu ít hóa đơn hơn mỗi lần.`,
      },
      d,
    );
  },
  unknownOutcome(detail: string, d: ApiErrorDetails = {}): ApiError {
    if (d.operation === 'issue') {
      return new ApiError(
        'unknown_outcome',
        {
          en: `The issue request may or may not have reached the service (${detail}). It is NOT sent again: the service is asked about the invoice first.`,
          vi: `Không rõ yêu cầu phát hành đã tới hệ thống hay chưa (${detail}). Ứng dụng KHÔNG gửi lại mà hỏi hệ thống về hóa đơn này trước.`,
        },
        d,
      );
    }
    return new ApiError(
      'unknown_outcome',
      {
        en: `The email request may or may not have reached the service (${detail}). It was NOT sent again automatically: check the invoice's email status before sending again.`,
        vi: `Không rõ yêu cầu gửi email đã tới dịch vụ hay chưa (${detail}). Ứng dụng KHÔNG tự gửi lại: hãy kiểm tra trạng thái gửi email của hóa đơn trước khi gửi lại.`,
      },
      d,
    );
  },
  cancelled(d: ApiErrorDetails = {}): ApiError {
    return new ApiError('cancelled', { en: 'The request was cancelled.', vi: 'Yêu cầu đã bị hủy.' }, d);
  },
  config(message: Bilingual, d: ApiErrorDetails = {}): ApiError {
    return new ApiError('config', message, d);
  },
};
