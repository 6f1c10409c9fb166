import type { Sandbox } from '../../../main/sandbox';

export type Env = Record<string, unknown>;

export function headers(token: string | null): Record<string, string> {
  const h: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token !== null) h.Authorization = `Bearer ${token}`;
  return h;
}

export async function call(
  sb: Sandbox,
  method: 'GET' | 'POST',
  op: string,
  opts: { query?: string; body?: unknown; token?: string | null } = {},
): Promise<{ status: number; env: Env; text: string; res: Response }> {
  const res = await fetch(`${sb.baseUrl}/${op}${opts.query ? `?${opts.query}` : ''}`, {
    method,
    headers: headers(opts.token === undefined ? sb.devToken : opts.token),
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let env: Env = {};
  try {
    env = JSON.parse(text) as Env;
  } catch {
    /* not JSON */
  }
  return { status: res.status, env, text, res };
}

/** Decodes data however it is wrapped (object, JSON-in-string, JSON-in-string twice). */
export function unwrap(data: unknown): unknown {
  let v = data;
  for (let i = 0; i < 3 && typeof v === 'string'; i++) {
    try {
      v = JSON.parse(v);
    } catch {
      break;
    }
  }
  return v;
}

export type DownloadItem = { TransactionID: string; data?: string | null; Data?: string | null; ErrorCode: string };

export async function download(sb: Sandbox, ids: unknown[], query: string, token?: string): Promise<DownloadItem[]> {
  const { env, status } = await call(sb, 'POST', 'Download', { query, body: ids, token });
  if (status !== 200 || env.success !== true) throw new Error(`download failed: ${status} ${JSON.stringify(env)}`);
  return unwrap(env.data) as DownloadItem[];
}
