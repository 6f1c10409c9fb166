import { net, protocol } from 'electron';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_HOST, APP_SCHEME, SECURITY_HEADERS } from '../security-policy';
import { PREVIEW_SCHEME_PRIVILEGES } from './preview-window';

/** Must run before `app.ready`: app:// behaves like a secure, standard origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    // preview://, served only on the preview window's own partition (preview-window.ts).
    PREVIEW_SCHEME_PRIVILEGES,
  ]);
}

/** Serves the built renderer from `rendererDir` at app://einvoice/, with our CSP on every response. */
export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = path.resolve(root, `.${relative}`);
    if (file !== root && !file.startsWith(root + path.sep)) return new Response('Not found', { status: 404 });
    const upstream = await net.fetch(pathToFileURL(file).toString()).catch(() => undefined);
    if (!upstream || !upstream.ok) return new Response('Not found', { status: 404 });
    const headers = new Headers(upstream.headers);
    for (const [key, value] of Object.entries(SECURITY_HEADERS)) headers.set(key, value);
    return new Response(upstream.body, { status: 200, headers });
  });
}
