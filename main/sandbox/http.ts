import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SANDBOX_BASE_PATH, SANDBOX_TOKEN_PATH, handleAdmin } from './admin';
import type { SandboxContext, SandboxRequestLog } from './context';
import type { FaultKind, FaultOp } from './faults';
import type { SeriesHold } from './ledger';
import { opCertificates } from './operations/certificates';
import { opDownload } from './operations/download';
import { opIssue } from './operations/issue';
import { opPaging, opPublishView, opVoucherPaper } from './operations/issued';
import { opPreview } from './operations/preview';
import { opSendEmail } from './operations/sendemail';
import { opStatus } from './operations/status';
import { opTemplates } from './operations/templates';
import { opToken } from './operations/token';
import { RAW_DATA_JSON, envelope, fail, pascal, type Reply } from './reply';
import { SANDBOX_CREDENTIALS } from './tokens';

const MAX_BODY = 20 * 1024 * 1024;

const MAINTENANCE_HTML = `<!DOCTYPE html>
<html lang="vi"><head><meta charset="utf-8"><title>Hệ thống đang bảo trì</title></head>
<body style="font-family:sans-serif;text-align:center;padding:60px">
<h1>Hệ thống đang bảo trì</h1>
<p>Hệ thống hóa đơn điện tử đang được nâng cấp. Quý khách vui lòng quay lại sau ít phút.</p>
<p>The e-invoice service is under maintenance. Please try again in a few minutes.</p>
</body></html>
`;
const ERROR_500_HTML = `<!DOCTYPE html>
<html><head><title>500 - Internal server error.</title></head>
<body><h1>Server Error</h1><h2>500 - Internal server error.</h2>
<p>There is a problem with the resource you are looking for, and it cannot be displayed.</p></body></html>
`;

const METHODS: Record<FaultOp, string> = {
  token: 'POST',
  preview: 'POST',
  download: 'POST',
  sendemail: 'POST',
  templates: 'GET',
  link: 'GET',
  issue: 'POST',
  status: 'POST',
  certificates: 'GET',
  paging: 'POST',
  publishview: 'POST',
  voucherpaper: 'POST',
};

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** Which operation a request addresses (paths are case-insensitive, like ASP.NET). */
function opFor(method: string, lower: string): FaultOp | undefined {
  if (lower === SANDBOX_TOKEN_PATH && method === 'POST') return 'token';
  if (lower === SANDBOX_BASE_PATH) return 'issue';
  if (lower.startsWith(SANDBOX_BASE_PATH + '/')) {
    const name = lower.slice(SANDBOX_BASE_PATH.length + 1);
    if (name === 'unpublishview') return 'preview';
    if (name === 'download') return 'download';
    if (name === 'sendemail') return 'sendemail';
    if (name === 'templates') return 'templates';
    if (name === 'status') return 'status';
    if (name === 'get-certificates') return 'certificates';
    if (name === 'paging') return 'paging';
    if (name === 'publishview') return 'publishview';
    if (name === 'voucher-paper') return 'voucherpaper';
  }
  if (method === 'GET' && /^\/(preview|viewer)\//.test(lower)) return 'link';
  return undefined;
}

/** Writes a reply: casing quirk, pre-serialised data spliced in, and the body-breaking faults. */
function send(
  ctx: SandboxContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  reply: Reply,
  fault: FaultKind | undefined,
  entry?: SandboxRequestLog,
): void {
  let body: Uint8Array | string;
  let contentType = reply.contentType ?? 'application/json; charset=utf-8';
  if (reply.envelope) {
    let env = reply.envelope;
    if (fault === 'wrongTypes') env = { success: 'true', errorCode: 0, descriptionErrorCode: false, errors: 'none', data: 12345, customData: [] };
    if (fault === 'emptyData') env = envelope(true, null);
    body = JSON.stringify(ctx.quirks.casing === 'pascal' ? pascal(env) : env);
    if (reply.rawData && env === reply.envelope) {
      const at = body.indexOf(RAW_DATA_JSON);
      const pieces = [body.slice(0, at), ...reply.rawData, body.slice(at + RAW_DATA_JSON.length)];
      body = Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
    }
  } else if (fault === 'wrongTypes' || fault === 'emptyData') {
    body = fault === 'emptyData' ? '' : JSON.stringify({ success: true, data: 12345 });
    if (fault === 'wrongTypes') contentType = 'application/json; charset=utf-8';
  } else body = reply.body ?? '';
  let buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (fault === 'malformed') {
    const cut = Math.max(1, Math.floor(buf.length * 0.6));
    buf = Buffer.concat([buf.subarray(0, cut), Buffer.from('\u0000<!-- broken')]);
  }
  if (entry) entry.status = reply.status;
  const headers: Record<string, string | number> = { 'Content-Type': contentType, 'Content-Length': buf.length, ...reply.headers };
  if (fault === 'truncated') {
    headers['Content-Length'] = buf.length + Math.max(16, Math.floor(buf.length / 2));
    res.writeHead(reply.status, headers);
    res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => {
      setTimeout(() => req.socket.destroy(), 5);
    });
    return;
  }
  res.writeHead(reply.status, headers);
  res.end(buf);
}

interface ServerState {
  port: number;
  /** Numbers the request log; not reset by the admin reset. */
  seq: number;
}

async function handle(ctx: SandboxContext, server: ServerState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const { port } = server;
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const path = url.pathname;
  const lower = path.toLowerCase().replace(/\/+$/, '');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) {
      res.writeHead(413, { 'Content-Type': 'text/plain' }).end('Payload Too Large');
      req.destroy();
      return;
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  let bodyOk = true;
  if (raw.trim()) {
    try {
      body = JSON.parse(raw);
    } catch {
      bodyOk = false;
    }
  }

  // Loopback only, and no DNS rebinding: the Host must name this loopback address.
  const host = (req.headers.host ?? '').toLowerCase();
  if (!(host === `127.0.0.1:${port}` || host === `localhost:${port}`)) {
    send(ctx, req, res, { status: 403, body: 'Forbidden host', contentType: 'text/plain; charset=utf-8' }, undefined);
    return;
  }
  if (lower.startsWith('/__sandbox')) {
    // A web page cannot send application/json cross-origin without a (refused) preflight.
    if (method === 'POST' && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
      send(ctx, req, res, { status: 415, body: JSON.stringify({ error: 'admin POSTs need Content-Type: application/json' }) }, undefined);
      return;
    }
    const reply = handleAdmin(ctx, method, lower === '/__sandbox' ? '/__sandbox' : path, url.searchParams, bodyOk ? body : raw);
    send(ctx, req, res, reply.deferred ? await reply.deferred : reply, undefined);
    return;
  }

  const op = opFor(method, lower);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k] = k === 'authorization' ? '[redacted]' : Array.isArray(v) ? v.join(', ') : (v ?? '');
  const auth = op && op !== 'token' && op !== 'link' ? ctx.tokens.check(req.headers.authorization) : 'none';
  const entry: SandboxRequestLog = {
    seq: ++server.seq,
    at: ctx.now().toISOString(),
    method,
    path,
    query: Object.fromEntries(url.searchParams),
    headers,
    bodySize: size,
    op: op ?? 'other',
    auth,
    status: 0,
  };
  ctx.log.push(entry);
  if (ctx.log.length > 20_000) ctx.log.splice(0, ctx.log.length - 20_000);

  if (!op) {
    send(ctx, req, res, { status: 404, body: JSON.stringify({ message: 'Not Found' }) }, undefined, entry);
    return;
  }
  if (method !== METHODS[op]) {
    send(ctx, req, res, { status: 405, body: JSON.stringify({ message: 'Method Not Allowed' }), headers: { Allow: METHODS[op] } }, undefined, entry);
    return;
  }
  // An issue request holds its series from here until its reply is written (or the socket closes).
  let hold: SeriesHold | undefined;
  if (op === 'issue' && bodyOk) {
    const claimed = ctx.issuing.enter(body);
    hold = claimed;
    res.on('close', () => claimed.release());
  }
  const decision = ctx.injector.decide(op);
  entry.fault = decision.kind;
  const delay = (): Promise<void> => (decision.delayMs > 0 ? new Promise((r) => setTimeout(r, decision.delayMs)) : Promise.resolve());

  if (ctx.quirks.maintenance && op !== 'link') {
    await delay();
    send(ctx, req, res, { status: 503, body: MAINTENANCE_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
    return;
  }
  switch (decision.kind) {
    case 'status429':
      await delay();
      send(ctx, req, res, { ...fail('TooManyRequests', 429), headers: { 'Retry-After': String(decision.retryAfterS) } }, undefined, entry);
      return;
    case 'status500':
      await delay();
      send(ctx, req, res, { status: 500, body: ERROR_500_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
      return;
    case 'status503':
      await delay();
      send(ctx, req, res, { status: 503, body: MAINTENANCE_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
      return;
    case 'error':
      await delay();
      send(ctx, req, res, fail('UnknownError', 500), undefined, entry);
      return;
    default:
      break;
  }

  let reply: Reply;
  if (op === 'link') reply = ctx.links.serve(lower);
  else if (!bodyOk) reply = fail('InvalidRequestBody', 400);
  else if (op === 'token') reply = opToken(ctx, body);
  else if (auth === 'invalid' || auth === 'none' || auth === 'expired') {
    reply = fail(auth === 'expired' ? 'TokenExpiredCode' : 'InvalidTokenCode', ctx.quirks.authHttp401 ? 401 : 200);
    if (ctx.quirks.authHttp401) reply.headers = { 'WWW-Authenticate': `Bearer error="invalid_token"` };
  } else if (ctx.quirks.requireCompanyTaxCode && req.headers.companytaxcode !== SANDBOX_CREDENTIALS.taxcode) reply = fail('InvalidTaxCode');
  else if (ctx.quirks.callError) reply = fail(ctx.quirks.callError);
  else if (op === 'templates') reply = opTemplates(ctx, url.searchParams);
  else if (op === 'download') reply = await opDownload(ctx, url.searchParams, body);
  else if (op === 'sendemail') reply = opSendEmail(ctx, body);
  else if (op === 'issue') reply = await opIssue(ctx, body, hold);
  else if (op === 'status') reply = opStatus(ctx, url.searchParams, body);
  else if (op === 'certificates') reply = opCertificates(ctx);
  else if (op === 'paging') reply = opPaging(ctx, url.searchParams, body);
  else if (op === 'publishview') reply = await opPublishView(ctx, body, header(req.headers.companytaxcode));
  else if (op === 'voucherpaper') reply = await opVoucherPaper(ctx, url.searchParams, body);
  else reply = await opPreview(ctx, body);

  await delay();
  if (decision.kind === 'reset') {
    req.socket.destroy();
    return;
  }
  if (decision.kind === 'hang') return;
  if (decision.kind === 'late500') {
    send(ctx, req, res, { status: 500, body: ERROR_500_HTML, contentType: 'text/html; charset=utf-8' }, undefined, entry);
    return;
  }
  send(ctx, req, res, reply, decision.kind, entry);
}

interface SandboxServer {
  /** Listens on 127.0.0.1 (the configured port, or a free one the first time) and sets `ctx.origin`. */
  listen(): Promise<void>;
  /** Stops listening and drops open connections. */
  stop(): Promise<void>;
  readonly listening: boolean;
}

export function createSandboxServer(ctx: SandboxContext, port: number): SandboxServer {
  const state: ServerState = { port, seq: 0 };
  const sockets = new Set<Socket>();
  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    handle(ctx, state, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(envelope(false, null, 'UnknownError', error instanceof Error ? error.message : String(error))));
      } else res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  let listening = false;

  return {
    listen: () =>
      new Promise((resolve, reject) => {
        const onError = (e: Error): void => reject(e);
        server.once('error', onError);
        server.listen(state.port, '127.0.0.1', () => {
          server.off('error', onError);
          state.port = (server.address() as AddressInfo).port;
          ctx.origin = `http://127.0.0.1:${state.port}`;
          listening = true;
          resolve();
        });
      }),
    stop: () =>
      new Promise((resolve) => {
        if (!listening) return resolve();
        listening = false;
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      }),
    get listening() {
      return listening;
    },
  };
}
