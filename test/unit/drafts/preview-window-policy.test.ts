import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { KeptPreview, PreviewService } from '../../../main/services/preview/preview';
import { PREVIEW_PARTITION, isAllowedNavigation, previewIdFromUrl, previewUrl, previewWebPreferences } from '../../../main/services/preview/window-policy';

/**
 * Electron cannot run here: a thin fake where each partition is one session (an EventEmitter, as in
 * Electron) and every window's webContents shares its partition's session. It only records.
 */
const electron = vi.hoisted(() => {
  // vi.hoisted runs before the imports; EventEmitter is only used later, when a window is opened.
  const sessions = new Map<string, EventEmitter>();
  const fromPartition = (partition: string): EventEmitter => {
    let ses = sessions.get(partition);
    if (!ses) {
      ses = Object.assign(new EventEmitter(), {
        setPermissionRequestHandler: () => {},
        setPermissionCheckHandler: () => {},
        protocol: { handle: () => {} },
      });
      sessions.set(partition, ses);
    }
    return ses;
  };
  const windows: Array<{ options: { webPreferences: { partition: string } }; loaded: string[] }> = [];
  class BrowserWindow {
    readonly loaded: string[] = [];
    readonly webContents: EventEmitter & { session: EventEmitter };
    constructor(readonly options: { webPreferences: { partition: string } }) {
      this.webContents = Object.assign(new EventEmitter(), { session: fromPartition(options.webPreferences.partition), setWindowOpenHandler: () => {} });
      windows.push(this);
    }
    setMenu() {}
    async loadURL(url: string) {
      this.loaded.push(url);
    }
  }
  return { sessions, windows, module: { BrowserWindow, Menu: { buildFromTemplate: () => ({}) }, dialog: {}, session: { fromPartition } } };
});
vi.mock('electron', () => electron.module);

describe('the preview window', () => {
  it('does not pile up will-download listeners: five previews, one listener on the preview session, and it refuses downloads', async () => {
    const { openPreviewWindow } = await import('../../../main/electron/preview-window');
    const service = { get: () => null } as unknown as PreviewService;
    for (let i = 0; i < 5; i++) {
      await openPreviewWindow(service, { id: `p${i}`, kind: 'pdf', draftId: `d${i}` } as unknown as KeptPreview);
    }
    expect(electron.windows).toHaveLength(5);
    expect(electron.windows.every((w) => w.options.webPreferences.partition === PREVIEW_PARTITION)).toBe(true);
    const ses = electron.sessions.get(PREVIEW_PARTITION)!;
    expect(ses.listenerCount('will-download')).toBe(1);
    // The one listener still refuses a download started from any preview.
    const event = { preventDefault: vi.fn() };
    ses.emit('will-download', event, {}, electron.windows[4]);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
  });
});

describe('preview window policy', () => {
  it('is sandboxed, has no preload and its own persistent partition', () => {
    const p = previewWebPreferences();
    expect(p).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(p).not.toHaveProperty('preload');
    expect(PREVIEW_PARTITION).toMatch(/^persist:/);
    expect(p.partition).toBe(PREVIEW_PARTITION);
  });

  it('round-trips preview ids through preview:// URLs and refuses anything else', () => {
    const url = previewUrl('3f2a/..?x');
    expect(url.startsWith('preview://kept/')).toBe(true);
    expect(previewIdFromUrl(url)).toBe('3f2a/..?x');
    expect(previewIdFromUrl('preview://other/abc.pdf')).toBeNull();
    expect(previewIdFromUrl('app://einvoice/index.html')).toBeNull();
    expect(previewIdFromUrl('not a url')).toBeNull();
  });

  it('locks navigation to the starting origin', () => {
    const kept = previewUrl('a');
    expect(isAllowedNavigation(kept, previewUrl('a'))).toBe(true);
    expect(isAllowedNavigation(kept, 'https://evil.example/')).toBe(false);
    expect(isAllowedNavigation(kept, 'app://einvoice/index.html')).toBe(false);
    const page = 'https://testapi.meinvoice.vn/preview/abc';
    expect(isAllowedNavigation(page, 'https://testapi.meinvoice.vn/preview/abc?page=2')).toBe(true);
    expect(isAllowedNavigation(page, 'https://other.meinvoice.vn/')).toBe(false);
    expect(isAllowedNavigation(page, 'file:///etc/passwd')).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:4000/preview/x.pdf', 'http://127.0.0.1:4000/preview/y.pdf')).toBe(true);
    expect(isAllowedNavigation('http://127.0.0.1:4000/p', 'http://127.0.0.1:4001/p')).toBe(false);
  });
});
