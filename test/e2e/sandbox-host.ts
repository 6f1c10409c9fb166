import fs from 'node:fs';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../main/sandbox';
import { launchHost, test, type HostProcess } from './fixtures';

/**
 * A fresh sandbox and a browser host whose built-in Sandbox profile points at it, for every
 * test of the file; both stopped and the data folder removed afterwards.
 */
export function sandboxWithHost(options: SandboxOptions): { readonly sandbox: Sandbox; readonly host: HostProcess } {
  const live: { sandbox?: Sandbox; host?: HostProcess } = {};
  test.beforeEach(async () => {
    live.sandbox = await startSandbox({ port: 0, ...options });
    live.host = await launchHost({ env: { EINVOICE_SANDBOX_URL: live.sandbox.origin } });
  });
  test.afterEach(async () => {
    await live.host?.stop();
    await live.sandbox?.close();
    if (live.host) fs.rmSync(live.host.dataDir, { recursive: true, force: true });
  });
  return {
    get sandbox() {
      return live.sandbox!;
    },
    get host() {
      return live.host!;
    },
  };
}
