import type { EventBus } from '../../../common/ipc/bus';
import { createServices, type Services } from '../../../main/services';
import type { EmailService, EmailServiceDeps } from '../../../main/services/emails';
import { MemorySecretStore } from '../../../main/services/secrets';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox';
import { makeTempDir } from '../../support/temp-dir';

export interface Harness {
  dir: string;
  bus: EventBus;
  sandbox: Sandbox;
  connections: Services;
  emails: EmailService;
  close(): Promise<void>;
}

/** The app's own wiring (services/index.ts: database, profiles, sign-in, connectivity, email queue) around a sandbox. */
export async function startHarness(options: { sandbox?: SandboxOptions; emails?: Partial<EmailServiceDeps>; start?: boolean } = {}): Promise<Harness> {
  const tmp = makeTempDir('einvoice-emails-it-');
  const sandbox = await startSandbox({ invoiceCount: 400, ...options.sandbox });
  const services = await createServices({
    dataDir: tmp.dir,
    version: 'test',
    host: 'cli',
    background: options.start !== false,
    secrets: new MemorySecretStore(),
    startSandbox: async () => sandbox,
    connectivity: { onlineIntervalMs: 200, offlineMinMs: 100, offlineMaxMs: 300, probeTimeoutMs: 1000 },
    emails: { backoffBaseMs: 50, backoffMaxMs: 500, sendTimeoutMs: 2_000, stopGraceMs: 3_000, ...options.emails },
  });
  return {
    dir: tmp.dir,
    bus: services.bus,
    sandbox,
    connections: services,
    emails: services.emails,
    async close() {
      await services.close();
      tmp.cleanup();
    },
  };
}

export async function waitFor(predicate: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How many times the sandbox acknowledged (recorded) each TransactionID. */
export function sentCounts(sandbox: Sandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of sandbox.sentEmails()) counts.set(e.TransactionID, (counts.get(e.TransactionID) ?? 0) + 1);
  return counts;
}
