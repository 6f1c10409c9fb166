/** Reads `exp` (seconds since the epoch) from a JWT's payload without verifying it; null if absent. */
export function jwtExpiry(token: string): Date | null {
  const parts = token.trim().split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const payload = JSON.parse(Buffer.from(parts[1].replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8')) as unknown;
    if (payload && typeof payload === 'object' && 'exp' in payload) {
      const exp = Number((payload as { exp: unknown }).exp);
      if (Number.isFinite(exp) && exp > 0) return new Date(exp * 1000);
    }
  } catch {
    return null;
  }
  return null;
}

const DAY_MS = 86_400_000;
export const EXPIRY_WARNING_DAYS = 2;

/** Whole days left (rounded up; 0 when expired) and whether to warn (two days ahead). */
export function expiryInfo(expiresAt: Date | null, now: Date): { daysLeft: number | null; expiringSoon: boolean; expired: boolean } {
  if (!expiresAt) return { daysLeft: null, expiringSoon: false, expired: false };
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return { daysLeft: 0, expiringSoon: true, expired: true };
  return { daysLeft: Math.ceil(ms / DAY_MS), expiringSoon: ms <= EXPIRY_WARNING_DAYS * DAY_MS, expired: false };
}
