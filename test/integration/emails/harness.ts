import { EventBus } from '../../../common/ipc/bus';
import { EmailService, type EmailServiceDeps } from '../../../main/services/emails';
import { createConnections, type Connections } from '../../../main/services/profiles/connections';
import { MemorySecretStore } from '../../../main/services/secrets';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox';
import { makeTempDir } from '../../support/temp-dir';

export interface Harness {
  dir: string;
  bus: EventBus;
  sandbox: Sandbox;
  connections: Connections;
  emails: EmailService;
  close(): Promise<void>;
}

/** The real wiring of services/index.ts (database, profiles, sign-in, connectivity, email queue) around a sandbox. */
export async function startHarness(
  options: { sandbox?: SandboxOptions; emails?: Partial<EmailServiceDeps>; start?: boolean } = {},
): Promise<Harness> {
  const tmp = makeTempDir('einvoice-emails-it-');
  const sandbox = await startSandbox({ invoiceCount: 400, ...options.sandbox });
  const bus = new EventBus();
  const connections = await createConnections({
    dataDir: tmp.dir,
    bus,
    secrets: new MemorySecretStore(),
    startSandbox: async () => sandbox,
    connectivity: { onlineIntervalMs: 200, offlineMinMs: 100, offlineMaxMs: 300, probeTimeoutMs: 1000 },
  });
  const { profiles, auth, connectivity, settings, store } = connections;
  const emails = new EmailService({
    store,
    bus,
    activeProfileId: () => profiles.activeId(),
    gate: auth.gate,
    isOnline: () => connectivity.online,
    checkConnectivity: () => void connectivity.check(),
    batchSize: () => settings.get().batchSizes.email,
    backoffBaseMs: 50,
    backoffMaxMs: 500,
    sendTimeoutMs: 2_000,
    stopGraceMs: 3_000,
    ...options.emails,
  });
  if (options.start !== false) {
    connectivity.start();
    emails.start();
  }
  return {
    dir: tmp.dir,
    bus,
    sandbox,
    connections,
    emails,
    async close() {
      await emails.stop();
      await connections.close();
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
