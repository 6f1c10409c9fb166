import { createBridge, type Bridge, type HostApi } from '../../../common/ipc/bridge';
import { createHttpHost, dropLaunchCode } from './http-host';

declare global {
  interface Window {
    einvoice?: HostApi;
  }
}

/** Electron's preload provides window.einvoice; in the browser host the contract goes over HTTP. */
function connect(): Bridge {
  if (window.einvoice) return createBridge(window.einvoice);
  dropLaunchCode(window.location, window.history);
  return createBridge(createHttpHost());
}

export const bridge: Bridge = connect();
