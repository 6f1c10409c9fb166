import { BrowserWindow, Menu, dialog, session, type Session } from 'electron';
import fs from 'node:fs/promises';
import type { KeptPreview, PreviewService } from '../services/preview/preview';
import { PREVIEW_PARTITION, PREVIEW_SCHEME, isAllowedNavigation, previewIdFromUrl, previewUrl, previewWebPreferences } from '../services/preview/window-policy';

/** The scheme entry for `protocol.registerSchemesAsPrivileged` (must be registered before ready). */
export const PREVIEW_SCHEME_PRIVILEGES = {
  scheme: PREVIEW_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: false, stream: true },
} as const;

let previewSession: Session | undefined;
/** Sessions that already refuse downloads: one listener each, however many previews are opened. */
const downloadsRefused = new WeakSet<Session>();

function refuseDownloads(ses: Session): void {
  if (downloadsRefused.has(ses)) return;
  downloadsRefused.add(ses);
  ses.on('will-download', (event) => event.preventDefault());
}

/** Serves kept preview bytes at preview://kept/<id>.pdf, on the preview partition only. */
function ensureSession(preview: PreviewService): Session {
  if (previewSession) return previewSession;
  const ses = session.fromPartition(PREVIEW_PARTITION);
  ses.setPermissionRequestHandler((_c, _p, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.protocol.handle(PREVIEW_SCHEME, (request) => {
    const id = previewIdFromUrl(request.url);
    const kept = id ? preview.get(id) : null;
    if (!kept || kept.kind !== 'pdf') return new Response('Not found', { status: 404 });
    return new Response(Buffer.from(kept.bytes), {
      status: 200,
      headers: { 'content-type': 'application/pdf', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    });
  });
  previewSession = ses;
  return ses;
}

async function saveAsPdf(win: BrowserWindow, kept: KeptPreview): Promise<void> {
  const { canceled, filePath } = await dialog.showSaveDialog(win, {
    title: 'Lưu bản xem trước / Save preview',
    defaultPath: `xem-truoc-${kept.draftId}.pdf`,
    filters: [{ name: 'PDF', extensions: ['pdf'] }],
  });
  if (canceled || !filePath) return;
  // Kept bytes when the service sent a PDF; otherwise Chromium prints the page to PDF.
  const bytes = kept.kind === 'pdf' ? Buffer.from(kept.bytes) : await win.webContents.printToPDF({ printBackground: true });
  await fs.writeFile(filePath, bytes);
}

/**
 * Opens (or reuses) the embedded preview window: a separate, sandboxed window with no preload on
 * the `persist:preview` partition; the PDF comes from our own preview:// scheme, or — when the
 * link served a page — the page itself, locked to its origin. Menu: Print, Save as PDF.
 */
export async function openPreviewWindow(preview: PreviewService, kept: KeptPreview, parent?: BrowserWindow): Promise<void> {
  ensureSession(preview);
  const start = kept.kind === 'pdf' ? previewUrl(kept.id) : kept.link!;
  const win = new BrowserWindow({
    width: 900,
    height: 1000,
    title: 'Xem trước hóa đơn / Invoice preview',
    ...(parent ? { parent } : {}),
    autoHideMenuBar: false,
    // The isolation flags are repeated literally so the static audit (and a reviewer) sees them.
    webPreferences: { ...previewWebPreferences(), contextIsolation: true, sandbox: true, nodeIntegration: false, disableBlinkFeatures: 'Auxclick' },
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(start, url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAllowedNavigation(start, url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  refuseDownloads(contents.session);
  win.setMenu(
    Menu.buildFromTemplate([
      {
        label: 'Xem trước / Preview',
        submenu: [
          { label: 'In… / Print…', accelerator: 'CmdOrCtrl+P', click: () => contents.print({ printBackground: true }) },
          { label: 'Lưu PDF… / Save as PDF…', accelerator: 'CmdOrCtrl+S', click: () => void saveAsPdf(win, kept) },
          { type: 'separator' },
          { label: 'Đóng / Close', accelerator: 'CmdOrCtrl+W', click: () => win.close() },
        ],
      },
    ]),
  );
  await win.loadURL(start);
}
