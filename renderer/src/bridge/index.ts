import { createBridge, type Bridge, type HostApi } from '../../../common/ipc/bridge';
import { createHttpHost, takeBrowserHostSecret } from './http-host';

declare global {
  interface Window {
    einvoice?: HostApi;
  }
}

/** Electron's preload provides window.einvoice; in the browser host the contract goes over HTTP. */
function connect(): Bridge {
  if (window.einvoice) return createBridge(window.einvoice);
  const secret = takeBrowserHostSecret(window.location, window.sessionStorage, window.history);
  return createBridge(createHttpHost(secret ?? ''));
}

export const bridge: Bridge = connect();
