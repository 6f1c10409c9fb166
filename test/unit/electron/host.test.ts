import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../support/temp-dir';

/**
 * The Electron runtime cannot run here, so this is the one place it is faked, and thinly: the
 * fake only records what our host code asks of it. Everything asserted is our own policy.
 */
const electron = vi.hoisted(() => {
  const windows: Array<{ options: Record<string, unknown>; contents: FakeContents }> = [];
  interface FakeContents {
    id: number;
    handlers: Map<string, (...args: unknown[]) => unknown>;
    openHandler?: (details: { url: string }) => { action: string };
    setWindowOpenHandler(fn: (details: { url: string }) => { action: string }): void;
    on(event: string, fn: (...args: unknown[]) => unknown): void;
  }
  const makeContents = (id: number): FakeContents => ({
    id,
    handlers: new Map(),
    setWindowOpenHandler(fn) {
      this.openHandler = fn;
    },
    on(event, fn) {
      this.handlers.set(event, fn);
    },
  });
  const session = {
    permissionRequest: undefined as undefined | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
    permissionCheck: undefined as undefined | ((...args: unknown[]) => boolean),
  };
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  return {
    windows,
    session,
    protocolHandlers,
    opened: [] as string[],
    module: {
      app: { isPackaged: true },
      BrowserWindow: class {
        webContents: FakeContents;
        constructor(options: Record<string, unknown>) {
          this.webContents = makeContents(windows.length + 1);
          windows.push({ options, contents: this.webContents });
        }
        once() {}
        async loadURL() {}
      },
      session: {
        defaultSession: {
          setPermissionRequestHandler: (fn: typeof session.permissionRequest) => (session.permissionRequest = fn),
          setPermissionCheckHandler: (fn: typeof session.permissionCheck) => (session.permissionCheck = fn),
        },
      },
      shell: { openExternal: async (url: string) => void electron.opened.push(url) },
      protocol: {
        handle: (scheme: string, fn: (request: Request) => Promise<Response>) => void protocolHandlers.set(scheme, fn),
        registerSchemesAsPrivileged: () => {},
      },
      net: {
        // Stands in for Electron's net.fetch on file:// URLs only.
        fetch: async (url: string) => {
          const file = new URL(url);
          const { readFile } = await import('node:fs/promises');
          try {
            return new Response(await readFile(file), { status: 200, headers: { 'content-type': 'text/html' } });
          } catch {
            return new Response('missing', { status: 404 });
          }
        },
      },
    },
  };
});
vi.mock('electron', () => electron.module);

const { createMainWindow, denyAllPermissions, lockDown } = await import('../../../main/electron/windows');
const { serveRenderer } = await import('../../../main/electron/protocol');
const { CONTENT_SECURITY_POLICY } = await import('../../../main/security-policy');

beforeEach(() => {
  electron.windows.length = 0;
  electron.opened.length = 0;
});

describe('main window', () => {
  it('is created with context isolation, the sandbox, no Node, and our preload only', async () => {
    await createMainWindow('/app/out/preload/index.cjs', 'eInvoice Desk');
    const prefs = electron.windows[0]!.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      devTools: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('denies every new window and hands only plain https links to the system browser', () => {
    const contents = new electron.module.BrowserWindow({}).webContents;
    lockDown(contents as never);
    for (const url of [
      'https://example.vn/help',
      'http://example.vn',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'https://user:pw@example.vn',
      'smb://server/share',
    ]) {
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(electron.opened).toEqual(['https://example.vn/help']);
  });

  it('blocks navigation and redirects away from app://einvoice', () => {
    const contents = new electron.module.BrowserWindow({}).webContents;
    lockDown(contents as never);
    for (const event of ['will-navigate', 'will-redirect']) {
      const handler = contents.handlers.get(event)!;
      for (const [url, blocked] of [
        ['https://evil.example/', true],
        ['file:///C:/Windows/', true],
        ['app://other/index.html', true],
        ['app://einvoice/index.html', false],
      ] as const) {
        const preventDefault = vi.fn();
        handler({ preventDefault }, url);
        expect(preventDefault.mock.calls.length, `${event} ${url}`).toBe(blocked ? 1 : 0);
      }
    }
    const preventDefault = vi.fn();
    contents.handlers.get('will-attach-webview')!({ preventDefault });
    expect(preventDefault).toHaveBeenCalledOnce();
  });

  it('denies every permission request and check', () => {
    denyAllPermissions();
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      const callback = vi.fn();
      electron.session.permissionRequest!({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(electron.session.permissionCheck!()).toBe(false);
  });
});

describe('app:// protocol', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());
  const renderer = path.join(temp.dir, 'renderer');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(temp.dir, 'secret.txt'), 'outside');
  serveRenderer(renderer);
  const handle = (url: string) => electron.protocolHandlers.get('app')!(new Request(url));

  it('serves the renderer with the strict CSP on every response', async () => {
    const response = await handle('app://einvoice/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>app</title>');
  });

  it('never serves a file outside the renderer folder or another host', async () => {
    for (const url of [
      'app://einvoice/../secret.txt',
      'app://einvoice/%2e%2e/secret.txt',
      'app://einvoice/..%2fsecret.txt',
      'app://other/index.html',
      'app://einvoice/missing.js',
    ]) {
      const response = await handle(url);
      expect(response.status, url).toBe(404);
    }
  });
});
