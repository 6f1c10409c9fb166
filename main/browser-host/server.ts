import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { eventNames } from '../../common/contract';
import { EVENTS_ROUTE, SECRET_HEADER } from '../../common/ipc/channels';
import type { Services } from '../services/index';
import { SECURITY_HEADERS } from '../security-policy';

interface BrowserHostOptions {
  services: Services;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  port?: number;
  /** Fixed secret for tests; a random one per launch otherwise. */
  secret?: string;
  /** How long a launch code or a preview link stays usable (default 2 minutes). */
  linkTtlMs?: number;
  now?: () => number;
}

export interface BrowserHost {
  /** Base URL (http://127.0.0.1:PORT). */
  origin: string;
  /** The per-launch secret: never printed, never in a URL; a browser holds it only as an HttpOnly cookie. */
  secret: string;
  /** The first launch URL: a one-time, short-lived code the host exchanges for the secret's cookie. */
  launchUrl: string;
  /** Another launch URL with a fresh one-time code (a second browser, or the first code expired). */
  newLaunchUrl(): string;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;
const CALL_PREFIX = '/api/call/';
const PREVIEW_PREFIX = '/api/preview/';
/** A preview's one-time page: the tab's address never carries anything reusable. */
const ONCE_PREFIX = '/preview/';
/** Mints a launch URL for callers that already hold the secret (tests, a second browser). */
const LAUNCH_ROUTE = '/api/launch';
const LAUNCH_PARAM = 'launch';
const DEFAULT_LINK_TTL_MS = 2 * 60_000;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.pdf': 'application/pdf',
};

function sameSecret(given: string | null | undefined, secret: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, code: string, en: string, vi: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  res.end(JSON.stringify({ ok: false, error: { code, message: en, messageVi: vi } }));
}

/** A page a person sees in the tab (a used or expired link), in both languages. */
function refusePage(res: http.ServerResponse, status: number, vi: string, en: string): void {
  const body = `<!doctype html><html lang="vi"><meta charset="utf-8"><title>eInvoice Desk</title><p>${vi}</p><p lang="en">${en}</p></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
  res.end(body);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Random one-time codes that expire: each is taken at most once. */
class OneTimeCodes<T> {
  private readonly codes = new Map<string, { value: T; expires: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  issue(value: T): string {
    const now = this.now();
    for (const [code, entry] of this.codes) if (entry.expires <= now) this.codes.delete(code);
    const code = crypto.randomBytes(24).toString('base64url');
    this.codes.set(code, { value, expires: now + this.ttlMs });
    return code;
  }

  take(code: string | null | undefined): T | undefined {
    const entry = code ? this.codes.get(code) : undefined;
    if (!entry) return undefined;
    this.codes.delete(code!);
    return entry.expires > this.now() ? entry.value : undefined;
  }
}

/**
 * The renderer in an ordinary browser, the contract over HTTP (+ server-sent events), on
 * 127.0.0.1 only. Any web page in the same browser could otherwise call it, so every API
 * request needs the per-launch secret, and a foreign Origin or Host (DNS rebinding) is refused.
 *
 * The secret stays out of logs and history: the launch URL carries a one-time code that
 * expires, exchanged on first load for an HttpOnly, SameSite=Strict cookie holding the
 * secret (the page then drops the code from its address). A preview tab opens through a
 * one-time link of its own.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { services } = options;
  const secret = options.secret ?? crypto.randomBytes(24).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const now = options.now ?? Date.now;
  const launchCodes = new OneTimeCodes<true>(options.linkTtlMs ?? DEFAULT_LINK_TTL_MS, now);
  const previewLinks = new OneTimeCodes<string>(options.linkTtlMs ?? DEFAULT_LINK_TTL_MS, now);
  const sockets = new Set<Socket>();
  let origin = '';
  // Cookies are not kept apart by port: each launch's port names its own.
  let cookieName = '';
  const launchUrl = () => `${origin}/?${LAUNCH_PARAM}=${launchCodes.issue(true)}`;

  const server = http.createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, 'internal', 'Internal error.', 'Lỗi nội bộ.');
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const host = req.headers.host;
    if (host !== new URL(origin).host) {
      return refuse(res, 421, 'bad_host', 'This address is not served here.', 'Địa chỉ này không được phục vụ ở đây.');
    }
    const requestOrigin = req.headers.origin;
    if (requestOrigin !== undefined && requestOrigin !== origin) {
      return refuse(res, 403, 'bad_origin', 'Requests from other sites are refused.', 'Yêu cầu từ trang web khác bị từ chối.');
    }
    const url = new URL(req.url ?? '/', origin);
    const header = req.headers[SECRET_HEADER];
    const signedIn = sameSecret(Array.isArray(header) ? header[0] : header, secret) || sameSecret(cookieValue(req.headers.cookie, cookieName), secret);

    if (url.pathname.startsWith('/api/')) {
      if (!signedIn) {
        return refuse(res, 401, 'bad_secret', 'This browser tab is not signed in to the app.', 'Thẻ trình duyệt này chưa được ứng dụng cho phép.');
      }
      if (url.pathname === EVENTS_ROUTE && req.method === 'GET') return streamEvents(req, res);
      if (url.pathname === LAUNCH_ROUTE && req.method === 'POST') return sendJson(res, { url: launchUrl() });
      if (url.pathname.startsWith(PREVIEW_PREFIX) && req.method === 'GET') {
        const id = decodeURIComponent(url.pathname.slice(PREVIEW_PREFIX.length));
        if (!services.drafting.preview.get(id))
          return refuse(res, 404, 'preview_not_found', 'That preview is no longer kept.', 'Bản xem trước này không còn được lưu.');
        res.writeHead(303, { location: `${ONCE_PREFIX}${previewLinks.issue(id)}`, 'cache-control': 'no-store', ...SECURITY_HEADERS });
        res.end();
        return;
      }
      if (url.pathname.startsWith(CALL_PREFIX) && req.method === 'POST') {
        const name = decodeURIComponent(url.pathname.slice(CALL_PREFIX.length));
        let body: unknown;
        try {
          body = await readJson(req);
        } catch (error) {
          return refuse(res, 400, 'bad_json', `The request body is not JSON: ${(error as Error).message}`, 'Nội dung yêu cầu không phải JSON.');
        }
        return sendJson(res, await services.dispatch(name, body, { host: 'browser' }));
      }
      return refuse(res, 404, 'not_found', 'No such route.', 'Không có đường dẫn này.');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method', 'Method not allowed.', 'Phương thức không được phép.');
    if (url.pathname.startsWith(ONCE_PREFIX)) {
      const id = previewLinks.take(url.pathname.slice(ONCE_PREFIX.length));
      if (id === undefined) {
        return refusePage(
          res,
          410,
          'Liên kết xem trước này đã được mở hoặc đã hết hạn. Hãy quay lại ứng dụng và bấm Xem trước (F8) lần nữa.',
          'This preview link was already opened or has expired. Go back to the app and press Preview (F8) again.',
        );
      }
      return servePreview(services, id, res);
    }
    if (url.searchParams.has(LAUNCH_PARAM)) {
      if (launchCodes.take(url.searchParams.get(LAUNCH_PARAM))) {
        res.setHeader('set-cookie', `${cookieName}=${secret}; Path=/; HttpOnly; SameSite=Strict`);
      } else if (!signedIn) {
        return refusePage(
          res,
          401,
          'Liên kết mở ứng dụng này đã được dùng hoặc đã hết hạn. Trong cửa sổ đang chạy eInvoice Desk, nhấn Enter để có liên kết mới.',
          'This link to the app was already used or has expired. In the window where eInvoice Desk is running, press Enter for a new link.',
        );
      }
    }
    return serveStatic(url.pathname, res);
  }

  function sendJson(res: http.ServerResponse, value: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
    res.end(JSON.stringify(value));
  }

  function streamEvents(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    const send = (name: string, payload: unknown) => res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    for (const name of eventNames) {
      const latest = services.bus.latest(name);
      if (latest !== undefined) send(name, latest);
    }
    const off = services.bus.onAny(send);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      off();
      clearInterval(ping);
    });
  }

  async function serveStatic(pathname: string, res: http.ServerResponse): Promise<void> {
    let relative: string;
    try {
      relative = decodeURIComponent(pathname);
    } catch {
      return refuse(res, 400, 'bad_path', 'Bad path.', 'Đường dẫn sai.');
    }
    let file = path.resolve(rendererDir, `.${relative === '/' ? '/index.html' : relative}`);
    if (file !== rendererDir && !file.startsWith(rendererDir + path.sep)) return refuse(res, 404, 'not_found', 'Not found.', 'Không tìm thấy.');
    let stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) {
      // Client-side routes fall back to the app shell.
      if (path.extname(relative)) return refuse(res, 404, 'not_found', 'Not found.', 'Không tìm thấy.');
      file = path.join(rendererDir, 'index.html');
      stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat)
        return refuse(res, 503, 'not_built', 'The screens are not built yet: run `npm run build`.', 'Giao diện chưa được build: hãy chạy `npm run build`.');
    }
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': file.endsWith('index.html') ? 'no-store' : 'max-age=3600',
      'x-frame-options': 'DENY',
      ...SECURITY_HEADERS,
    });
    fs.createReadStream(file).pipe(res);
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  cookieName = `einvoice-${port}`;

  return {
    origin,
    secret,
    launchUrl: launchUrl(),
    newLaunchUrl: launchUrl,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A kept preview as its own page: the PDF bytes, or a redirect to a page-type preview. */
function servePreview(services: Services, id: string, res: http.ServerResponse): void {
  const kept = services.drafting.preview.get(id);
  if (!kept) return refuse(res, 404, 'preview_not_found', 'That preview is no longer kept.', 'Bản xem trước này không còn được lưu.');
  if (kept.kind === 'page' && kept.link) {
    res.writeHead(302, { location: kept.link, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    res.end();
    return;
  }
  // No CSP sandbox here: Chromium's PDF viewer would refuse to run.
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': kept.bytes.length,
    'content-disposition': `inline; filename="preview-${kept.draftId}.pdf"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(Buffer.from(kept.bytes));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}
