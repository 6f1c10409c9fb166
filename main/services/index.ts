import fs from 'node:fs';
import path from 'node:path';
import { EventBus } from '../../common/ipc/bus';
import { createDispatch, type ContractHandlers, type Dispatch } from '../../common/ipc/dispatch';
import { appHandlers } from './app/handlers';
import { diagnosticsHandlers } from './diagnostics/handlers';
import { LogFile, type Log } from './logging/log-file';
import type { ServicesConfig } from './config';
import type { AuthService } from './auth';
import type { Connectivity } from './connectivity/connectivity';
import { createConnections } from './profiles/connections';
import { externalSandbox } from './profiles/sandbox-runner';
import { accessFromAuth, createDrafting, type Drafting } from './drafting';
import { EmailService } from './emails';
import { DownloadsService } from './downloads';
import { sessionFromGate } from './downloads/session';
import type { ProfileService } from './profiles';
import type { SecretStore } from './secrets';
import type { SettingsService } from './settings/settings';
import type { Store } from './store';
import { UpdatesService } from './updates/service';
import { WorkInProgress } from './updates/work-in-progress';

export interface Services {
  readonly config: ServicesConfig;
  /** The rotating, redacting log in dataDir/logs; `log.remember(secret)` keeps a secret out of it. */
  readonly log: LogFile;
  readonly bus: EventBus;
  readonly handlers: ContractHandlers;
  readonly dispatch: Dispatch;
  readonly connectivity: Connectivity;
  /** The database (einvoice.db); later capabilities add tables through store/migrations.ts. */
  readonly store: Store;
  readonly secrets: SecretStore;
  readonly profiles: ProfileService;
  /** Sign-in; long-running work awaits `auth.gate.ready()` and calls `auth.gate.reportAuthFailure()`. */
  readonly auth: AuthService;
  readonly settings: SettingsService;
  /** Register a probe here when your service has work an app restart would break (see updates/work-in-progress.ts). */
  readonly work: WorkInProgress;
  readonly updates: UpdatesService;
  /** Drafts, catalogues, template cache and preview (hosts use `drafting.preview` to show kept previews). */
  readonly drafting: Drafting;
  /** The email send queue (outbox + sender). */
  readonly emails: EmailService;
  /** Bulk download jobs of issued invoices. */
  readonly downloads: DownloadsService;
  close(): Promise<void>;
}

/**
 * The composition root: builds every Electron-free service from one config and joins their
 * handler maps into the one object every host (Electron, browser host, CLI) talks to.
 */
export async function createServices(config: ServicesConfig): Promise<Services> {
  await fs.promises.mkdir(config.dataDir, { recursive: true });
  const bus = new EventBus();
  // Every service logs through the rotating, redacting log file; hosts may echo to a console.
  const logFile = new LogFile({ dir: path.join(config.dataDir, 'logs'), now: config.now });
  const log: Log = (level, message) => {
    logFile.write(level, message);
    config.log?.(level, logFile.redact(message));
  };
  const closers: Array<() => Promise<void> | void> = [];
  // Built first so every service can register its work-in-progress probe with it.
  const work = new WorkInProgress();
  const updates = new UpdatesService({ bus, dataDir: config.dataDir, work, now: config.now, log });
  closers.push(() => updates.stop());

  // Database, keychain, connection profiles, sign-in, settings and the connectivity monitor.
  const connections = await createConnections({
    dataDir: config.dataDir,
    bus,
    now: config.now,
    log,
    onSecret: (secret) => logFile.remember(secret),
    // The built-in Sandbox profile runs the sandbox service in this process on 127.0.0.1.
    // EINVOICE_SANDBOX_URL (tests) points it at a sandbox running elsewhere instead.
    startSandbox: async () =>
      process.env.EINVOICE_SANDBOX_URL
        ? externalSandbox(process.env.EINVOICE_SANDBOX_URL, (await import('../sandbox/tokens')).SANDBOX_DEV_TOKEN)
        : (await import('../sandbox')).startSandbox({ port: 0 }),
  });
  closers.push(() => connections.close());
  const { connectivity, store, secrets, profiles, auth, settings } = connections;

  const drafting = createDrafting({ store, access: accessFromAuth(auth, profiles), bus, settings: () => settings.get(), now: config.now, log });
  closers.push(() => drafting.close());

  const emails = new EmailService({
    store,
    bus,
    activeProfileId: () => profiles.activeId(),
    gate: auth.gate,
    isOnline: () => connectivity.online,
    checkConnectivity: () => void connectivity.check(),
    batchSize: () => settings.get().batchSizes.email,
    work,
    log,
  });
  closers.push(() => emails.stop());

  const downloads = new DownloadsService({
    store,
    bus,
    work,
    activeProfileId: () => profiles.activeId(),
    session: sessionFromGate(auth.gate, { log }),
    reportAuthFailure: (profileId) => auth.gate.reportAuthFailure(profileId),
    ...(config.dialogs ? { dialogs: config.dialogs } : {}),
    ...(config.now ? { now: config.now } : {}),
    log,
  });
  closers.push(() => downloads.close());

  const handlers: ContractHandlers = {
    ...diagnosticsHandlers({ log: logFile, dataDir: config.dataDir, now: config.now, facts: { version: config.version, host: config.host, extra: () => ({ databaseSchema: store.version }) } }),
    ...appHandlers({ config, connectivity, connectionKind: connections.connectionKind }),
    ...connections.handlers,
    ...updates.handlers(),
    ...drafting.handlers,
    ...emails.handlers(),
    ...downloads.handlers(),
  };

  const dispatch = createDispatch(handlers, (name, error) =>
    log('error', `call ${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`),
  );
  connectivity.start();
  emails.start();
  downloads.resumeInterrupted();

  return {
    config,
    log: logFile,
    bus,
    handlers,
    dispatch,
    connectivity,
    store,
    secrets,
    profiles,
    auth,
    settings,
    work,
    updates,
    drafting,
    emails,
    downloads,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
