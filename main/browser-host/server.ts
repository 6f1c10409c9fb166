import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { eventNames } from '../../common/contract';
import { EVENTS_ROUTE, SECRET_HEADER, SECRET_PARAM } from '../../common/ipc/channels';
import type { Services } from '../services/index';
import { SECURITY_HEADERS } from '../security-policy';

export interface BrowserHostOptions {
  services: Services;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  port?: number;
  /** Fixed secret for tests; a random one per launch otherwise. */
  secret?: string;
}

export interface BrowserHost {
  /** Base URL (http://127.0.0.1:PORT). */
  origin: string;
  secret: string;
  /** The URL a person opens: carries the secret in the fragment, which is never sent to servers. */
  launchUrl: string;
  close(): Promise<void>;
}

const MAX_BODY = 32 * 1024 * 1024;
const CALL_PREFIX = '/api/call/';
const PREVIEW_PREFIX = '/api/preview/';
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

/**
 * The renderer in an ordinary browser, the contract over HTTP (+ server-sent events), on
 * 127.0.0.1 only. Any web page in the same browser could otherwise call it, so every API
 * request needs the per-launch secret, and a foreign Origin or Host (DNS rebinding) is refused.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { services } = options;
  const secret = options.secret ?? crypto.randomBytes(24).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const sockets = new Set<Socket>();
  let origin = '';

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

    if (url.pathname.startsWith('/api/')) {
      const given = req.headers[SECRET_HEADER] ?? url.searchParams.get(SECRET_PARAM);
      if (!sameSecret(Array.isArray(given) ? given[0] : given, secret)) {
        return refuse(res, 401, 'bad_secret', 'This browser tab is not signed in to the app.', 'Thẻ trình duyệt này chưa được ứng dụng cho phép.');
      }
      if (url.pathname === EVENTS_ROUTE && req.method === 'GET') return streamEvents(req, res);
      if (url.pathname.startsWith(PREVIEW_PREFIX) && req.method === 'GET') return servePreview(services, decodeURIComponent(url.pathname.slice(PREVIEW_PREFIX.length)), res);
      if (url.pathname.startsWith(CALL_PREFIX) && req.method === 'POST') {
        const name = decodeURIComponent(url.pathname.slice(CALL_PREFIX.length));
        let body: unknown;
        try {
          body = await readJson(req);
        } catch (error) {
          return refuse(res, 400, 'bad_json', `The request body is not JSON: ${(error as Error).message}`, 'Nội dung yêu cầu không phải JSON.');
        }
        const result = await services.dispatch(name, body, { host: 'browser' });
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS });
        res.end(JSON.stringify(result));
        return;
      }
      return refuse(res, 404, 'not_found', 'No such route.', 'Không có đường dẫn này.');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'method', 'Method not allowed.', 'Phương thức không được phép.');
    return serveStatic(url.pathname, res);
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
      if (!stat) return refuse(res, 503, 'not_built', 'The screens are not built yet: run `npm run build`.', 'Giao diện chưa được build: hãy chạy `npm run build`.');
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

  return {
    origin,
    secret,
    launchUrl: `${origin}/#k=${secret}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A kept preview (issue 6) as its own page: the PDF bytes, or a redirect to a page-type preview. */
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
