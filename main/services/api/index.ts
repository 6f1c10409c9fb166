export {
  ApiClient,
  DEFAULT_RETRY,
  parseRetryAfter,
  type ApiClientOptions,
  type CallOptions,
  type DownloadOptions,
  type IssueOptions,
  type StatusOptions,
  type FetchedBytes,
  type RetryPolicy,
  type TemplatesQuery,
  type TokenCredentials,
  type TokenResult,
  type TokenSource,
} from './client';
export { ApiError, apiErrors, isApiError, API_ERROR_KINDS, TRANSIENT_KINDS, type ApiErrorKind, type ApiErrorDetails } from './errors';
export { redact, type ApiLogger } from './redact';
export { parseServiceUrl, defaultTokenUrl } from './base-url';
export { isLoopbackHost } from '../../../common/rules/network';
export { chunk, mapLimit, normaliseEmailList, MAX_DOWNLOAD_BATCH } from './batching';
export { jwtExpiry, type DownloadItem, type DownloadResult, type SendEmailItemResult, type SendEmailOutcome } from './normalise';
export { describeErrorCode, isAuthCode, type DescribedCode } from '../../../common/envelope';
export {
  ClientFactory,
  clients,
  CLIENT_PURPOSES,
  type ClientPurpose,
  type ClientTarget,
  type SessionTarget,
  type ClientExtras,
  type ClientDefaults,
} from './clients';
export { toWireEmailParameter } from './wire';
export type { Certificate, IssueOutcome, PublishItem, StatusItem } from './issuing';
export { pageAll, MAX_PAGING_TAKE, type PagingQuery, type PagingPage, type IssuedListItem, type OriginalReference, type PaperCopyItem } from './issued';
