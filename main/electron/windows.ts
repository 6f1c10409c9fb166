import { app, BrowserWindow, session, shell, type WebContents } from 'electron';
import { APP_ENTRY_URL, HARDENED_WEB_PREFERENCES, isAppUrl, isVettedExternalUrl } from '../security-policy';

/** No new windows, no navigation away, no permissions: for every webContents we create. */
export function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isVettedExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  const stayHome = (event: { preventDefault(): void }, url: string) => {
    if (!isAppUrl(url)) event.preventDefault();
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export async function createMainWindow(preloadPath: string, title: string): Promise<BrowserWindow> {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 600,
    title,
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      devTools: !app.isPackaged,
      disableBlinkFeatures: 'Auxclick',
      ...HARDENED_WEB_PREFERENCES,
    },
  });
  lockDown(win.webContents);
  win.once('ready-to-show', () => win.show());
  await win.loadURL(APP_ENTRY_URL);
  return win;
}
