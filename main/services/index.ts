import fs from 'node:fs';
import path from 'node:path';
import { EventBus } from '../../common/ipc/bus';
import { createDispatch, type ContractHandlers, type Dispatch } from '../../common/ipc/dispatch';
import { ClientFactory } from './api';
import { appHandlers } from './app/handlers';
import { AuthService, type ResolveEndpoint } from './auth';
import { authHandlers } from './auth/handlers';
import { tokenRequester } from './auth/token';
import { activeWorkSession, type WorkSession } from './auth/work-session';
import type { ServicesConfig } from './config';
import { Connectivity } from './connectivity/connectivity';
import { serviceProbe } from './connectivity/probe';
import { diagnosticsHandlers } from './diagnostics/handlers';
import { accessFromSessions, createDrafting, type Drafting } from './drafting';
import { DownloadsService } from './downloads';
import { sessionFromGate } from './downloads/session';
import { EmailService } from './emails';
import { CsvReader } from './emails/csv-reader';
import { IssuingService } from './issuing';
import { issuingFollowUps } from './issuing/ports';
import { LogFile, type Log } from './logging/log-file';
import { RegisterService } from './register';
import { ProfileService } from './profiles';
import { endpointResolver } from './profiles/endpoints';
import { profileHandlers } from './profiles/handlers';
import { externalSandbox, SandboxRunner } from './profiles/sandbox-runner';
import { createSecretStore, keychainServiceFor, type SecretStore } from './secrets';
import { rememberingSecrets } from './secrets/remembering';
import { settingsHandlers } from './settings/handlers';
import { SettingsService } from './settings/settings';
import { openDatabase, type Store } from './store';
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
  readonly issuing: IssuingService;
  /** The register of issued invoices (list, sync by date, view, paper copy, corrections). */
  readonly register: RegisterService;
  /** Builds every service client (timeouts and retries by purpose). */
  readonly clients: ClientFactory;
  /** Whose work and which sign-in (the active profile in the app; the CLI may choose another). */
  readonly session: WorkSession;
  /** The built-in sandbox service of the Sandbox profile. */
  readonly sandbox: SandboxRunner;
  /** Where a profile's service is. */
  readonly resolveEndpoint: ResolveEndpoint;
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
  const clients = new ClientFactory(config.clients);
  const store = openDatabase(config.dataDir);
  closers.push(() => store.close());
  const keychain =
    config.secrets ?? (await createSecretStore({ service: keychainServiceFor(config.dataDir), disableKeychain: process.env.EINVOICE_KEYCHAIN === 'off', log }));
  const secrets = rememberingSecrets(keychain, (secret) => logFile.remember(secret));
  const profiles = new ProfileService(store, config.now);
  const settings = new SettingsService(store, bus);
  // The built-in Sandbox profile runs the sandbox service in this process on 127.0.0.1.
  // EINVOICE_SANDBOX_URL (tests) points it at a sandbox running elsewhere instead.
  const sandbox = new SandboxRunner(
    config.startSandbox ??
      (async () =>
        process.env.EINVOICE_SANDBOX_URL
          ? externalSandbox(process.env.EINVOICE_SANDBOX_URL, (await import('../sandbox/tokens')).SANDBOX_DEV_TOKEN)
          : (await import('../sandbox')).startSandbox({ port: 0 })),
  );
  closers.push(() => sandbox.close());
  const resolveEndpoint = endpointResolver(sandbox);
  const auth = new AuthService({
    store,
    secrets,
    profiles,
    resolveEndpoint,
    requestToken: tokenRequester(clients),
    bus,
    ...(config.now ? { now: config.now } : {}),
    log,
  });
  const probe = serviceProbe({ active: () => profiles.active(), resolveEndpoint, clients });
  closers.push(() => probe.close());
  const connectivity = new Connectivity({ bus, probe: (signal) => probe.probe(signal), ...(config.now ? { now: config.now } : {}), ...config.connectivity });
  closers.push(() => connectivity.stop());
  profiles.onActiveChange(() => {
    auth.wake();
    void connectivity.check();
    void auth.status().then(
      (status) => bus.emit('auth.changed', status),
      () => {},
    );
  });
  let session: WorkSession;
  try {
    session = (config.workSession ?? activeWorkSession)({ auth, profiles, resolveEndpoint });
  } catch (error) {
    for (const close of closers.reverse()) await close();
    throw error;
  }

  const access = accessFromSessions({
    profileId: session.profileId,
    current: session.current,
    reportAuthFailure: (id) => session.gate.reportAuthFailure(id),
    clients,
  });
  const drafting = createDrafting({ store, access, bus, settings: () => settings.get(), now: config.now, log });
  closers.push(() => drafting.close());

  const register = new RegisterService({
    store,
    bus,
    drafts: drafting.drafts,
    activeProfileId: session.profileId,
    gate: session.gate,
    clients,
    dataDir: config.dataDir,
    viewer: { show: (bytes, contentType, name) => drafting.preview.open(drafting.preview.keepView(bytes, contentType, name)) },
    ...(config.now ? { now: config.now } : {}),
    log,
  });

  // CSV imports are read and checked on a thread of their own: the built email-csv.cjs beside the host's bundle.
  const csvReader = new CsvReader(typeof __dirname === 'undefined' ? null : path.join(__dirname, 'email-csv.cjs'), log);
  closers.push(() => csvReader.close());
  const emails = new EmailService({
    store,
    csvReader,
    bus,
    activeProfileId: session.profileId,
    gate: session.gate,
    // Without the monitor running (the CLI) a send attempt finds out for itself.
    ...(config.background !== false ? { isOnline: () => connectivity.online, checkConnectivity: () => void connectivity.check() } : {}),
    batchSize: () => settings.get().batchSizes.email,
    register,
    work,
    log,
    ...config.emails,
  });
  closers.push(() => emails.stop());

  const downloads = new DownloadsService({
    store,
    bus,
    work,
    activeProfileId: session.profileId,
    session: sessionFromGate(session.gate, { log, clients }),
    reportAuthFailure: (profileId) => session.gate.reportAuthFailure(profileId),
    ...(config.dialogs ? { dialogs: config.dialogs } : {}),
    ...(config.now ? { now: config.now } : {}),
    ...config.downloads,
    log,
  });
  closers.push(() => downloads.close());

  const issuing = new IssuingService({
    store,
    bus,
    drafts: drafting.drafts,
    settings: () => settings.get(),
    activeProfileId: session.profileId,
    gate: session.gate,
    templates: drafting.templates,
    clients,
    work,
    log,
    ...(config.background !== false ? { isOnline: () => connectivity.online, checkConnectivity: () => void connectivity.check() } : {}),
    followUps: issuingFollowUps({ settings: () => settings.get(), downloads, emails }),
    ...config.issuing,
  });
  closers.push(() => issuing.stop());

  const handlers: ContractHandlers = {
    ...diagnosticsHandlers({
      log: logFile,
      dataDir: config.dataDir,
      now: config.now,
      facts: { version: config.version, host: config.host, extra: () => ({ databaseSchema: store.version }) },
    }),
    ...appHandlers({ config, connectivity, connectionKind: () => profiles.active().kind }),
    ...profileHandlers({ profiles, auth, secrets, sandbox, connectivity, resolveEndpoint, clients, bus }),
    ...authHandlers(auth),
    ...settingsHandlers(settings),
    ...updates.handlers(),
    ...drafting.handlers,
    ...emails.handlers(),
    ...downloads.handlers(),
    ...issuing.handlers(),
    ...register.handlers(),
  };

  const dispatch = createDispatch(handlers, (name, error) =>
    log('error', `call ${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`),
  );
  if (config.background !== false) {
    connectivity.start();
    emails.start();
    downloads.resumeInterrupted();
    issuing.start();
  }

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
    issuing,
    register,
    clients,
    session,
    sandbox,
    resolveEndpoint,
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
}
