import type { ConnectionKind } from '../../../common/calls/app';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { isUnreachableKind } from '../../../common/rules/network';
import { ApiClient, isApiError } from '../api';
import { AuthService, type Endpoint, type RequestToken, type ResolveEndpoint } from '../auth';
import { authHandlers } from '../auth/handlers';
import { Connectivity } from '../connectivity/connectivity';
import { createSecretStore, keychainServiceFor, secretAccounts, type SecretStore } from '../secrets';
import { rememberingSecrets } from '../secrets/remembering';
import { SettingsService } from '../settings/settings';
import { settingsHandlers } from '../settings/handlers';
import { openDatabase, type Store } from '../store';
import { ProfileService, type Profile } from './profiles';
import { SandboxRunner, type StartSandbox } from './sandbox-runner';

export interface ConnectionsDeps {
  dataDir: string;
  bus: EventBus;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Starts the built-in sandbox (main/sandbox) in this process on 127.0.0.1. */
  startSandbox?: StartSandbox;
  /** Defaults to the OS keychain (fail closed to memory). Tests inject a MemorySecretStore. */
  secrets?: SecretStore;
  /** Told every secret that passes through the store (the log's redactor listens). */
  onSecret?: (secret: string) => void;
  /** Connectivity timing (tests shorten it). */
  connectivity?: { onlineIntervalMs?: number; offlineMinMs?: number; offlineMaxMs?: number; probeTimeoutMs?: number };
}

export interface Connections {
  store: Store;
  secrets: SecretStore;
  profiles: ProfileService;
  settings: SettingsService;
  auth: AuthService;
  sandbox: SandboxRunner;
  connectivity: Connectivity;
  resolveEndpoint: ResolveEndpoint;
  /** For app.info: the kind of the active profile. */
  connectionKind(): ConnectionKind;
  handlers: Pick<
    ContractHandlers,
    | 'profiles.list'
    | 'profiles.add'
    | 'profiles.update'
    | 'profiles.remove'
    | 'profiles.activate'
    | 'profiles.test'
    | 'profiles.sandbox'
    | 'auth.status'
    | 'auth.signInWithToken'
    | 'auth.signInWithPassword'
    | 'auth.signOut'
    | 'settings.get'
    | 'settings.update'
  >;
  close(): Promise<void>;
}

/**
 * The database, secrets, profiles, sign-in, settings and connectivity, wired together; the
 * composition root (services/index.ts) and the CLI both build them through here.
 */
export async function createConnections(deps: ConnectionsDeps): Promise<Connections> {
  const log = deps.log ?? (() => {});
  const store = openDatabase(deps.dataDir);
  const keychain =
    deps.secrets ??
    (await createSecretStore({ service: keychainServiceFor(deps.dataDir), disableKeychain: process.env.EINVOICE_KEYCHAIN === 'off', log }));
  const secrets = deps.onSecret ? rememberingSecrets(keychain, deps.onSecret) : keychain;
  const profiles = new ProfileService(store, deps.now);
  const settings = new SettingsService(store, deps.bus);
  const sandbox = new SandboxRunner(deps.startSandbox);

  const resolveEndpoint: ResolveEndpoint = async (profile: Profile): Promise<Endpoint> => {
    if (profile.kind === 'sandbox') {
      const handle = await sandbox.get();
      return { baseUrl: handle.baseUrl, tokenUrl: handle.tokenUrl, devToken: handle.devToken };
    }
    if (!profile.baseUrl) {
      throw new AppError('profile_incomplete', {
        en: `The profile "${profile.name}" has no service address.`,
        vi: `Cấu hình "${profile.name}" chưa có địa chỉ dịch vụ.`,
      });
    }
    return { baseUrl: profile.baseUrl, tokenUrl: profile.tokenUrl };
  };

  const clientFor = (endpoint: Endpoint, token?: string) =>
    new ApiClient({
      baseUrl: endpoint.baseUrl,
      ...(endpoint.tokenUrl ? { tokenUrl: endpoint.tokenUrl } : {}),
      ...(token ? { token } : {}),
      retry: { retries: 1, maxTotalMs: 15_000 },
      timeoutMs: 15_000,
    });

  const requestToken: RequestToken = async (req) => {
    const client = clientFor(req.endpoint);
    try {
      const result = await client.requestToken(
        { appid: req.appId, taxcode: req.taxCode, username: req.userName, password: req.password },
        { ...(req.signal ? { signal: req.signal } : {}), companyTaxCode: req.taxCode },
      );
      return result.token;
    } finally {
      await client.close();
    }
  };

  const auth = new AuthService({ store, secrets, profiles, resolveEndpoint, requestToken, bus: deps.bus, ...(deps.now ? { now: deps.now } : {}), log });

  // Online = the active profile's service answers HTTP at all (a 401 counts); never navigator.onLine.
  let probeClient: { key: string; client: ApiClient } | undefined;
  const probe = async (signal: AbortSignal): Promise<boolean> => {
    let endpoint: Endpoint;
    try {
      endpoint = await resolveEndpoint(profiles.active());
    } catch {
      return false;
    }
    const key = `${endpoint.baseUrl}|${endpoint.tokenUrl ?? ''}`;
    if (probeClient?.key !== key) {
      await probeClient?.client.close();
      probeClient = { key, client: clientFor(endpoint) };
    }
    return await probeClient.client.probe(signal);
  };
  const connectivity = new Connectivity({ bus: deps.bus, probe, ...(deps.now ? { now: deps.now } : {}), ...deps.connectivity });

  const listView = () => ({ profiles: profiles.list(), activeId: profiles.activeId() });
  const publishProfiles = () => deps.bus.emit('profiles.changed', listView());
  profiles.onActiveChange(() => {
    auth.wake();
    void connectivity.check();
    void auth.status().then(
      (status) => deps.bus.emit('auth.changed', status),
      () => {},
    );
  });

  const handlers: Connections['handlers'] = {
    'profiles.list': () => listView(),
    'profiles.add': (req) => {
      const profile = profiles.add({ name: req.name, kind: req.kind, baseUrl: req.baseUrl ?? null, tokenUrl: req.tokenUrl ?? null });
      publishProfiles();
      return profile;
    },
    'profiles.update': (req) => {
      const patch: { name?: string; baseUrl?: string | null; tokenUrl?: string | null } = {};
      if (req.name !== undefined) patch.name = req.name;
      if (req.baseUrl !== undefined) patch.baseUrl = req.baseUrl;
      if (req.tokenUrl !== undefined) patch.tokenUrl = req.tokenUrl;
      const profile = profiles.update(req.id, patch);
      publishProfiles();
      return profile;
    },
    'profiles.remove': async (req) => {
      profiles.get(req.id);
      profiles.remove(req.id);
      await auth.forget(req.id);
      publishProfiles();
      return listView();
    },
    'profiles.activate': (req) => {
      profiles.activate(req.id);
      publishProfiles();
      return listView();
    },
    'profiles.test': async (req) => {
      const profile = profiles.get(req.id);
      let endpoint: Endpoint;
      try {
        endpoint = await resolveEndpoint(profile);
      } catch (error) {
        if (error instanceof AppError) return { ok: false, reachable: false, templates: [], error: error.toPayload() };
        throw error;
      }
      const stored = await secrets.get(secretAccounts.token(profile.id));
      const token = stored ?? endpoint.devToken;
      const client = clientFor(endpoint, token ?? undefined);
      try {
        if (!token) {
          const reachable = await client.probe(AbortSignal.timeout(10_000));
          const error = new AppError('auth_signed_out', {
            en: reachable ? 'The service answers, but this profile is not signed in: sign in to list the templates.' : 'The service cannot be reached.',
            vi: reachable ? 'Dịch vụ có phản hồi nhưng cấu hình này chưa đăng nhập: hãy đăng nhập để xem danh sách mẫu.' : 'Không kết nối được tới dịch vụ.',
          });
          return { ok: false, reachable, templates: [], error: error.toPayload() };
        }
        const list = await client.templates({ withCode: true }, { signal: AbortSignal.timeout(20_000) });
        const more = await client.templates({ withCode: false }, { signal: AbortSignal.timeout(20_000) }).catch(() => []);
        const templates = [...list, ...more].map((t) => ({ series: String(t.InvSeries ?? ''), name: String(t.TemplateName ?? '') }));
        return { ok: true, reachable: true, templates, error: null };
      } catch (error) {
        if (isApiError(error)) {
          if (error.kind === 'auth' && profile.active) await auth.gate.reportAuthFailure(profile.id);
          const reachable = !isUnreachableKind(error.kind);
          return { ok: false, reachable, templates: [], error: error.toPayload() };
        }
        if (error instanceof AppError) return { ok: false, reachable: false, templates: [], error: error.toPayload() };
        throw error;
      } finally {
        await client.close();
      }
    },
    'profiles.sandbox': async (req) => {
      if (req.running !== undefined) {
        await sandbox.setRunning(req.running);
        void connectivity.check();
      }
      return { running: sandbox.running, baseUrl: sandbox.baseUrl };
    },
    ...authHandlers(auth),
    ...settingsHandlers(settings),
  };

  return {
    store,
    secrets,
    profiles,
    settings,
    auth,
    sandbox,
    connectivity,
    resolveEndpoint,
    connectionKind: () => profiles.active().kind,
    handlers,
    async close() {
      connectivity.stop();
      await probeClient?.client.close();
      await sandbox.close();
      store.close();
    },
  };
}
