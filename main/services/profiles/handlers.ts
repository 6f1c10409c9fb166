import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { isUnreachableKind, originChanged } from '../../../common/rules/network';
import { isApiError, type ClientFactory } from '../api';
import type { AuthService, Endpoint, ResolveEndpoint } from '../auth';
import type { Connectivity } from '../connectivity/connectivity';
import { secretAccounts, type SecretStore } from '../secrets';
import type { ProfileService } from './profiles';
import type { SandboxRunner } from './sandbox-runner';
import { sandboxSamples } from './sandbox-samples';

export type ProfileCallName =
  'profiles.list' | 'profiles.add' | 'profiles.update' | 'profiles.remove' | 'profiles.activate' | 'profiles.test' | 'profiles.sandbox' | 'sandbox.samples';

export interface ProfileHandlersDeps {
  profiles: ProfileService;
  auth: AuthService;
  secrets: SecretStore;
  sandbox: SandboxRunner;
  connectivity: Connectivity;
  resolveEndpoint: ResolveEndpoint;
  clients: ClientFactory;
  bus: EventBus;
}

/** The Settings screen's profile calls: list, add, edit, remove, switch, test, the built-in sandbox. */
export function profileHandlers(deps: ProfileHandlersDeps): Pick<ContractHandlers, ProfileCallName> {
  const { profiles, auth, secrets, sandbox, connectivity, resolveEndpoint, clients } = deps;
  const listView = () => ({ profiles: profiles.list(), activeId: profiles.activeId() });
  const publishProfiles = () => deps.bus.emit('profiles.changed', listView());
  return {
    'profiles.list': () => listView(),
    'profiles.add': (req) => {
      const profile = profiles.add({ name: req.name, kind: req.kind, baseUrl: req.baseUrl ?? null, tokenUrl: req.tokenUrl ?? null });
      publishProfiles();
      return profile;
    },
    'profiles.update': async (req) => {
      const patch: { name?: string; baseUrl?: string | null; tokenUrl?: string | null } = {};
      if (req.name !== undefined) patch.name = req.name;
      if (req.baseUrl !== undefined) patch.baseUrl = req.baseUrl;
      if (req.tokenUrl !== undefined) patch.tokenUrl = req.tokenUrl;
      // A token follows its origin: signed out before the new address is stored, so no request
      // can carry the old token or password to the new host in between.
      const signedOutByOriginChange = originChanged(profiles.get(req.id), profiles.resolvePatch(req.id, patch));
      if (signedOutByOriginChange) await auth.signOut(req.id);
      const profile = profiles.update(req.id, patch);
      publishProfiles();
      return { ...profile, signedOutByOriginChange };
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
      const client = clients.forTarget({ ...endpoint, ...(token ? { token } : {}) }, 'check');
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
    'sandbox.samples': () => sandboxSamples(sandbox, profiles.active().kind === 'sandbox'),
  };
}
