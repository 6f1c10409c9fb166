export {
  AuthService,
  AuthGate,
  type AuthServiceDeps,
  type Endpoint,
  type ResolveEndpoint,
  type RequestToken,
  type TokenRequest,
  type SignedInSession,
} from './auth';
export { jwtExpiry, expiryInfo, EXPIRY_WARNING_DAYS } from './jwt';
