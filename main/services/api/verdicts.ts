import { firstErrorCode, isAuthCode, readEnvelopeText, type EnvelopeResult } from '../../../common/envelope';
import { type ApiError, apiErrors } from './errors';
import { NormaliseError } from './normalise';
import { looksHtml, parseRetryAfter, type HttpResponse, type Operation } from './transport';

/** How an answer of the service becomes an ApiError: HTTP status, envelope refusal, unreadable data. */

/** Throws the right ApiError for a non-2xx status; returns for 2xx. */
export function checkStatus(operation: Operation, res: HttpResponse, unsafe = false): void {
  const status = res.status;
  if (status >= 200 && status < 300) return;
  const env = res.bytes ? null : readEnvelopeText(res.text);
  const code = env && env.kind !== 'malformed' ? (env.envelope.errorCode ?? firstErrorCode(env.envelope.errors)) : null;
  const description = env && env.kind !== 'malformed' ? env.envelope.description : null;
  const details = { operation, httpStatus: status };
  if (status === 401 || status === 403 || isAuthCode(code)) throw apiErrors.auth({ ...details, serviceCode: code });
  if (status === 429) throw apiErrors.rateLimited(parseRetryAfter(res.headers['retry-after']), details);
  if (status >= 500) {
    // After an unsafe request left, only the service's own 503 envelope proves it did not act;
    // a bare 5xx or a gateway's page may come after the service sent the email.
    // An issue is stricter still: any 5xx after it left is asked about, never assumed not done.
    if (unsafe && (operation === 'issue' || !(status === 503 && env?.kind === 'error'))) throw apiErrors.unknownOutcome(`HTTP ${status}`, details);
    throw apiErrors.unavailable(status, status === 503 && looksHtml(res), { ...details, retryAfterMs: parseRetryAfter(res.headers['retry-after']) });
  }
  if (status === 404 && !code) throw apiErrors.unavailable(404, false, details);
  throw apiErrors.rejected(code, description ?? (code ? null : `HTTP ${status}`), {
    ...details,
    serviceErrors: env && env.kind !== 'malformed' ? env.envelope.errors : [],
  });
}

export function normalised<T>(operation: Operation, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof NormaliseError) throw apiErrors.malformed(error.message, { operation });
    throw error;
  }
}

export function envelopeError(operation: Operation, env: Extract<EnvelopeResult, { kind: 'error' }>, tokenOp = false): ApiError {
  const code = env.code ?? firstErrorCode(env.errors);
  const details = { operation, serviceCode: code, serviceDescription: env.description, serviceErrors: env.errors };
  if (isAuthCode(code)) return apiErrors.auth(details);
  if (tokenOp && !code) return apiErrors.auth(details);
  return apiErrors.rejected(code, env.description, details);
}
