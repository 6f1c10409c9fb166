import { dialog, shell, type BrowserWindow } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import type { DialogsPort } from '../services/downloads/service';

/**
 * The desktop host's answers to `downloads.chooseFolder` / `downloads.openFolder`: the native
 * folder dialog (parented to the main window) and the file manager. Only absolute paths of
 * existing folders are opened; nothing here runs a file.
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
    async openFolder(folder) {
      if (!path.isAbsolute(folder)) return false;
      try {
        if (!(await fs.promises.stat(folder)).isDirectory()) return false;
      } catch {
        return false;
      }
      return (await shell.openPath(folder)) === '';
    },
  };
}
