import { bridge } from '../bridge';

/**
 * Opens an issued invoice as the service shows it, the way a draft's preview is shown: Electron
 * opens the embedded preview window; the browser host answers with a one-time page to open.
 */
export async function openIssuedView(transactionId: string): Promise<void> {
  const r = await bridge.call('issued.view', { transactionId });
  if (r.path) window.open(r.path, '_blank', 'noopener');
}
