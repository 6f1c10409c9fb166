import { useAppStore } from '../app/store';
import { bridge } from '../bridge';

/** After a profile or sign-in change, the side bar shows the new connection. */
export async function refreshAppInfo(): Promise<void> {
  try {
    useAppStore.getState().setInfo(await bridge.call('app.info', {}));
  } catch {
    // the sidebar keeps its last state
  }
}
