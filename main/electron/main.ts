import { app, type BrowserWindow } from 'electron';
import path from 'node:path';
import { eventChannel } from '../../common/ipc/channels';
import { resolveDataDir } from '../services/config';
import { createServices } from '../services/index';
import { APP_VERSION, PRODUCT_NAME } from '../services/version';
import { keepMemoryFlat } from '../memory-policy';
import { electronDialogs } from './dialogs';
import { registerContractOnIpc } from './ipc';
import { openPreviewWindow } from './preview-window';
import { startUpdater } from './updater';
import { registerAppScheme, serveRenderer } from './protocol';
import { finishWorkBeforeQuit } from './shutdown';
import { createMainWindow, denyAllPermissions } from './windows';

keepMemoryFlat();
// Chromium's own controls (the invoice date box) follow the app's locale, which Electron leaves at
// en-US on many PCs: 03/04 would then be the 4th of March. Vietnamese order, whatever Windows says.
app.commandLine.appendSwitch('lang', 'vi');
const dataDir = resolveDataDir();
app.setPath('userData', dataDir);
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  const trusted = new Set<number>();
  let mainWindow: BrowserWindow | undefined;

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => app.quit());

  await app.whenReady();
  denyAllPermissions();
  serveRenderer(path.join(__dirname, '..', 'renderer'));

  const services = await createServices({
    dataDir,
    version: APP_VERSION,
    host: 'electron',
    log: (level, message) => console[level === 'info' ? 'log' : level](message),
    // Folder dialog and file manager for the Downloads area.
    dialogs: electronDialogs(() => mainWindow),
  });
  const log = (level: 'info' | 'warn' | 'error', message: string) => services.log.write(level, message);
  // The email sender's grace period and the download pause finish before the app exits.
  finishWorkBeforeQuit(app, () => services.close(), { deadlineMs: 10_000, log });
  registerContractOnIpc(services.dispatch, trusted, (name, sender) =>
    log('warn', `refused the call ${name} from a sender that is not the app window (webContents ${sender.webContentsId}, ${sender.origin})`),
  );

  mainWindow = await createMainWindow(path.join(__dirname, '..', 'preload', 'index.cjs'), PRODUCT_NAME);
  trusted.add(mainWindow.webContents.id);
  const contents = mainWindow.webContents;
  services.bus.onAny((name, payload) => {
    if (!contents.isDestroyed()) contents.send(eventChannel(name), payload);
  });
  // Kept previews open in the embedded, sandboxed preview window.
  services.drafting.preview.setOpener((kept) => openPreviewWindow(services.drafting.preview, kept, mainWindow));
  mainWindow.on('closed', () => {
    trusted.delete(contents.id);
    mainWindow = undefined;
  });
  // Off with ELECTRON_NO_UPDATER=1 or the in-app setting; on only in installed builds (or EINVOICE_UPDATE_URL).
  startUpdater({ updates: services.updates, log: (level, message) => console[level === 'info' ? 'log' : level](message) });
}
