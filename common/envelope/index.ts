export {
  readEnvelope,
  readEnvelopeText,
  unwrapData,
  getField,
  hasField,
  firstErrorCode,
  readCode,
  codeField,
  MAX_UNWRAP_DEPTH,
  type Envelope,
  type EnvelopeResult,
} from './envelope';
export { describeErrorCode, isAuthCode, AUTH_CODES, type CodeMessage, type DescribedCode, type ErrorCodeCategory } from './error-codes';
