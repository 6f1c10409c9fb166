import { dialog, shell, type BrowserWindow } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import type { DialogsPort } from '../services/downloads/service';

/** What the app's downloads are, and the only files it hands to their default application. */
const OPENABLE_FILES = new Set(['.pdf', '.xml', '.html', '.htm', '.zip']);

/** Folders that the file manager would run rather than show (macOS bundles and installers). */
const RUNNABLE_FOLDERS = new Set([
  '.app',
  '.appex',
  '.bundle',
  '.framework',
  '.plugin',
  '.pkg',
  '.mpkg',
  '.prefpane',
  '.saver',
  '.workflow',
  '.action',
  '.xpc',
  '.kext',
]);

/**
 * How a downloaded file or folder may be opened: `open` hands it to its default application;
 * `showInFolder` only selects it in the file manager, so nothing is ever executed (`.exe`,
 * `.lnk`, `.desktop`, a `.app` bundle, a file with no extension…).
 */
export function openAction(target: string, isDirectory: boolean): 'open' | 'showInFolder' {
  const ext = path.extname(target).toLowerCase();
  if (isDirectory) return RUNNABLE_FOLDERS.has(ext) ? 'showInFolder' : 'open';
  return OPENABLE_FILES.has(ext) ? 'open' : 'showInFolder';
}

/** Opens an existing absolute path as {@link openAction} allows; false when it cannot. */
async function openSafely(target: string, wantDirectory: boolean): Promise<boolean> {
  if (!path.isAbsolute(target)) return false;
  let stat: fs.Stats;
  try {
    stat = await fs.promises.lstat(target);
  } catch {
    return false;
  }
  if (stat.isDirectory() !== wantDirectory) return false;
  if (stat.isSymbolicLink() || openAction(target, stat.isDirectory()) === 'showInFolder') {
    shell.showItemInFolder(target);
    return true;
  }
  return (await shell.openPath(target)) === '';
}

/**
 * The desktop host's answers to `downloads.chooseFolder` / `downloads.openFolder`: the native
 * folder dialog (parented to the main window) and the file manager. Only absolute paths of
 * existing folders are opened, through {@link openAction}: nothing here runs a file.
 */
export function electronDialogs(window: () => BrowserWindow | undefined): DialogsPort {
  return {
    async chooseFolder(defaultPath) {
      const options: Electron.OpenDialogOptions = {
        properties: ['openDirectory', 'createDirectory', 'promptToCreate'],
        ...(defaultPath && path.isAbsolute(defaultPath) ? { defaultPath } : {}),
      };
      const parent = window();
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    openFolder: (folder) => openSafely(folder, true),
  };
}
