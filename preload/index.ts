import { contextBridge, ipcRenderer } from 'electron';
import { buildHostApi } from '../common/ipc/bridge';
import { callChannel, eventChannel } from '../common/ipc/channels';

/** window.einvoice, derived from the contract: one function per call plus `on` for events. */
contextBridge.exposeInMainWorld(
  'einvoice',
  buildHostApi(
    (name, request) => ipcRenderer.invoke(callChannel(name), request),
    (event, listener) => {
      const handler = (_e: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(eventChannel(event), handler);
      return () => ipcRenderer.removeListener(eventChannel(event), handler);
    },
  ),
);
