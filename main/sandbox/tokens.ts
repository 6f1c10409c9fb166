import crypto from 'node:crypto';

/** Fixed credentials accepted by the sandbox's token operation. */
export const SANDBOX_CREDENTIALS = {
  appid: 'sandbox-appid-0001',
  taxcode: '0109876543',
  username: 'sandbox',
  password: 'sandbox123',
} as const;

/** An application id that exists but is inactive (token operation → InActiveAppID). */
export const SANDBOX_INACTIVE_APPID = 'sandbox-appid-inactive';

/** Fixed development token: always valid, never expires. */
export const SANDBOX_DEV_TOKEN = 'einvoice-sandbox-dev-token';

/** Default lifetime of issued tokens (the documented 14 days). */
const DEFAULT_TOKEN_TTL_MS = 14 * 24 * 3600 * 1000;

const b64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

export type TokenCheck = 'dev' | 'issued' | 'expired' | 'invalid' | 'none';

/** JWT-shaped HS256 tokens signed with a key derived from the sandbox seed. */
export class TokenIssuer {
  private readonly key: Buffer;
  private counter = 0;
  constructor(
    seed: number,
    private readonly now: () => Date,
  ) {
    this.key = crypto.createHash('sha256').update(`einvoice-sandbox-key:${seed}`).digest();
  }
  issue(opts: { username?: string; taxcode?: string; ttlMs?: number } = {}): string {
    const iat = Math.floor(this.now().getTime() / 1000);
    const exp = iat + Math.floor((opts.ttlMs ?? DEFAULT_TOKEN_TTL_MS) / 1000);
    const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = b64url(
      JSON.stringify({
        iss: 'einvoice-sandbox',
        sub: opts.username ?? SANDBOX_CREDENTIALS.username,
        taxcode: opts.taxcode ?? SANDBOX_CREDENTIALS.taxcode,
        jti: `t${++this.counter}`,
        iat,
        exp,
      }),
    );
    const sig = crypto.createHmac('sha256', this.key).update(`${header}.${payload}`).digest('base64url');
    return `${header}.${payload}.${sig}`;
  }
  check(authorization: string | undefined): TokenCheck {
    if (!authorization) return 'none';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m?.[1]) return 'invalid';
    const token = m[1];
    if (token === SANDBOX_DEV_TOKEN) return 'dev';
    const parts = token.split('.');
    if (parts.length !== 3) return 'invalid';
    const [header = '', payload = '', sig = ''] = parts;
    const expected = crypto.createHmac('sha256', this.key).update(`${header}.${payload}`).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown };
      if (typeof claims.exp !== 'number') return 'invalid';
      return claims.exp * 1000 <= this.now().getTime() ? 'expired' : 'issued';
    } catch {
      return 'invalid';
    }
  }
}
