import { AppError } from '../../../common/errors';
import { clients as defaultClients, type ApiClient, type ClientFactory, type ClientPurpose } from '../api';
import type { SignedInSession } from '../auth';

/** What the drafting services need to call the service for the active profile. */
export interface ServiceSession {
  profileId: string;
  baseUrl: string;
  tokenUrl?: string | null;
  token: string;
  /** The composition root's client factory (default: the shared table without host defaults). */
  clients?: ClientFactory;
}

/**
 * Resolves the active profile's session; throws an AppError (signed out, sandbox stopped…)
 * when there is none. `activeProfileId` works offline (for the template cache).
 */
export interface ServiceAccess {
  activeProfileId(): string;
  session(): Promise<ServiceSession>;
  /** Reports a refused sign-in (pauses background work until a new one). */
  reportAuthFailure?(profileId: string): Promise<void> | void;
}

export function clientFor(session: ServiceSession, purpose: ClientPurpose = 'templates'): ApiClient {
  return (session.clients ?? defaultClients).forSession(
    { endpoint: { baseUrl: session.baseUrl, tokenUrl: session.tokenUrl ?? null }, token: session.token },
    purpose,
  );
}

/** Interactive calls: the session right now, or a plain "sign in first" (never waits). */
export function accessFromSessions(deps: {
  profileId(): string;
  current(): Promise<SignedInSession | null>;
  reportAuthFailure(profileId: string): Promise<void> | void;
  clients?: ClientFactory;
}): ServiceAccess {
  return {
    activeProfileId: () => deps.profileId(),
    async session() {
      const s = await deps.current();
      if (!s) {
        throw new AppError('auth_signed_out', {
          en: 'This profile is not signed in (or its sign-in expired). Sign in under Settings, then try again.',
          vi: 'Cấu hình này chưa đăng nhập (hoặc phiên đăng nhập đã hết hạn). Hãy đăng nhập trong Cài đặt rồi thử lại.',
        });
      }
      return {
        profileId: s.profile.id,
        baseUrl: s.endpoint.baseUrl,
        tokenUrl: s.endpoint.tokenUrl,
        token: s.token,
        ...(deps.clients ? { clients: deps.clients } : {}),
      };
    },
    reportAuthFailure: (profileId) => deps.reportAuthFailure(profileId),
  };
}
