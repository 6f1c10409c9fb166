import type { SandboxContext } from '../context';
import { envelope, fail, type Reply } from '../reply';
import { SANDBOX_CREDENTIALS, SANDBOX_INACTIVE_APPID } from '../tokens';
import { getCI } from '../validate';

/** POST auth/token `{appid, taxcode, username, password}` → a JWT in `data`. */
export function opToken(ctx: SandboxContext, body: unknown): Reply {
  if (body === null || typeof body !== 'object') return fail('InvalidRequestBody', 400);
  const appid = String(getCI(body, 'appid') ?? '');
  if (appid === SANDBOX_INACTIVE_APPID) return fail('InActiveAppID');
  if (appid !== SANDBOX_CREDENTIALS.appid) return fail('InvalidAppID');
  const taxcode = String(getCI(body, 'taxcode') ?? '');
  const username = String(getCI(body, 'username') ?? '');
  const password = String(getCI(body, 'password') ?? '');
  if (taxcode !== SANDBOX_CREDENTIALS.taxcode || username !== SANDBOX_CREDENTIALS.username || password !== SANDBOX_CREDENTIALS.password)
    return fail('UnAuthorize');
  return { status: 200, envelope: envelope(true, ctx.tokens.issue({ username, taxcode, ttlMs: ctx.tokenTtlMs })) };
}
