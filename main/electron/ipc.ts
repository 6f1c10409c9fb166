import { ipcMain as electronIpcMain, type IpcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { callNames } from '../../common/contract';
import { callChannel } from '../../common/ipc/channels';
import type { Dispatch } from '../../common/ipc/dispatch';
import { isAppUrl } from '../security-policy';

/** The part of an IPC event the sender check reads (after VS Code's ipcMain validation). */
export interface SenderInfo {
  sender: Pick<WebContents, 'id'>;
  senderFrame: { url: string; parent: unknown } | null;
}

const REFUSED = {
  ok: false as const,
  error: {
    code: 'forbidden_sender',
    message: 'This request did not come from the app window and was refused.',
    messageVi: 'Yêu cầu này không đến từ cửa sổ ứng dụng nên đã bị từ chối.',
  },
};

/**
 * Accepts only the main frame of one of our own windows showing our own origin: a sub-frame,
 * another window (e.g. the preview) or a foreign page never reaches a service.
 */
export function isTrustedSender(event: SenderInfo, trustedWebContentsIds: ReadonlySet<number>): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent !== null) return false;
  if (!trustedWebContentsIds.has(event.sender.id)) return false;
  return isAppUrl(frame.url);
}

/** Told about every refused call: which call, from which webContents and page origin. */
export type RefusedSenderLog = (name: string, sender: { webContentsId: number; origin: string }) => void;

function originOf(url: string | undefined): string {
  if (!url) return '(no frame)';
  try {
    return new URL(url).origin;
  } catch {
    return '(unreadable address)';
  }
}

/**
 * Registers every contract call on IPC through one wrapper: sender check, schema parse, plain
 * errors. Tests pass a fake `ipcMain`; the host calls `registerContractOnIpc`.
 */
export function registerContract(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatch: Dispatch,
  trustedWebContentsIds: ReadonlySet<number>,
  onRefused?: RefusedSenderLog,
): () => void {
  for (const name of callNames) {
    ipcMain.handle(callChannel(name), async (event: IpcMainInvokeEvent, request: unknown) => {
      if (!isTrustedSender(event as unknown as SenderInfo, trustedWebContentsIds)) {
        const info = event as unknown as SenderInfo;
        onRefused?.(name, { webContentsId: info.sender.id, origin: originOf(info.senderFrame?.url) });
        return REFUSED;
      }
      return dispatch(name, request, { host: 'electron' });
    });
  }
  return () => {
    for (const name of callNames) ipcMain.removeHandler(callChannel(name));
  };
}

/** The one place the app touches Electron's `ipcMain` (lint-enforced). */
export function registerContractOnIpc(dispatch: Dispatch, trustedWebContentsIds: ReadonlySet<number>, onRefused?: RefusedSenderLog): () => void {
  return registerContract(electronIpcMain, dispatch, trustedWebContentsIds, onRefused);
}
