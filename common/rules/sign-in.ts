import type { AuthStatus } from '../calls/auth';

/**
 * Whether there is a sign-in to end: a token is held (even an expired or paused one). The
 * built-in Sandbox signs itself in, so there is nothing to sign out of.
 */
export function canSignOut(status: Pick<AuthStatus, 'state' | 'method'> | undefined): boolean {
  return status !== undefined && status.state !== 'signedOut' && status.method !== 'sandbox';
}
