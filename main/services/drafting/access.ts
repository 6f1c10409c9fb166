import { ApiClient } from '../api';

/** What the drafting services need to call the service for the active profile. */
export interface ServiceSession {
  profileId: string;
  baseUrl: string;
  tokenUrl?: string | null;
  token: string;
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

export function clientFor(session: ServiceSession, options: { timeoutMs?: number; retries?: number } = {}): ApiClient {
  return new ApiClient({
    baseUrl: session.baseUrl,
    ...(session.tokenUrl ? { tokenUrl: session.tokenUrl } : {}),
    token: session.token,
    timeoutMs: options.timeoutMs ?? 15_000,
    retry: { retries: options.retries ?? 1, maxTotalMs: 20_000, baseDelayMs: 200 },
  });
}
