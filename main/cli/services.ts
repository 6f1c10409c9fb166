import { AppError } from '../../common/errors';
import { createServices, type Services } from '../services';
import { ApiError, apiErrors, parseServiceUrl, type ApiLogger } from '../services/api';
import { AuthGate, type SignedInSession } from '../services/auth';
import type { WorkSession, WorkSessionParts } from '../services/auth/work-session';
import type { ServicesConfig } from '../services/config';
import type { Profile, ProfileService } from '../services/profiles';
import { MemorySecretStore } from '../services/secrets';
import { APP_VERSION } from '../services/version';
import { UsageError, type Bilingual, type CliIo, type GlobalOptions } from './registry';

/** What a command needs beyond the app's services: more options for some of them. */
export type CliServicesOptions = Pick<ServicesConfig, 'emails' | 'downloads' | 'issuing'> & {
  /** Work on profiles only (login, logout, status, profile): EINVOICE_BASE_URL does not apply. */
  profilesOnly?: boolean;
};

/** The app's services for one command, and the sign-in it works with. */
export interface CliServices {
  services: Services;
  /** The profile the command works for (its queue, its jobs). */
  profile: Profile;
  /** The session right now; a plain "sign in first" (exit 3) when there is none. */
  sessionNow(): Promise<SignedInSession>;
  /** True once the service refused the sign-in during this command. */
  readonly refused: boolean;
}

/**
 * Where a command talks to:
 * - `--base-url URL` (or EINVOICE_BASE_URL): that service with EINVOICE_TOKEN (a session from the
 *   environment; the work is filed under the active profile);
 * - `--profile NAME`: that profile of the data folder (`sandbox` = the built-in sandbox), with
 *   its sign-in from `einvoice login` (EINVOICE_TOKEN overrides the token);
 * - neither: the active profile (`requireService` commands refuse the built-in Sandbox here:
 *   it must be asked for with `--profile sandbox`).
 */
export async function openCliServices(
  globals: GlobalOptions,
  io: CliIo,
  progress: (m: Bilingual) => void,
  options: CliServicesOptions & { requireService?: boolean } = {},
): Promise<CliServices> {
  const envToken = io.env.EINVOICE_TOKEN?.trim() || undefined;
  const log: ApiLogger | undefined = io.env.EINVOICE_DEBUG ? (level, message) => io.stderr.write(`[${level}] ${message}\n`) : undefined;
  if (globals.profile !== undefined && globals.baseUrl !== undefined) {
    throw new UsageError({ en: 'Give either --profile or --base-url, not both.', vi: 'Chỉ dùng một trong hai: --profile hoặc --base-url.' });
  }
  const baseUrl = globals.profile === undefined && !options.profilesOnly ? (globals.baseUrl ?? (io.env.EINVOICE_BASE_URL?.trim() || undefined)) : undefined;
  if (baseUrl !== undefined) {
    parseServiceUrl(baseUrl);
    if (!envToken) {
      throw apiErrors.config({
        en: 'No access token: set EINVOICE_TOKEN, or sign in to a profile with einvoice login and use --profile NAME.',
        vi: 'Chưa có mã truy cập (token): hãy đặt biến EINVOICE_TOKEN, hoặc đăng nhập một cấu hình bằng einvoice login rồi dùng --profile TÊN.',
      });
    }
  }

  let refused = false;
  let chosen: Profile | undefined;
  const workSession = (parts: WorkSessionParts): WorkSession => {
    chosen = globals.profile !== undefined ? findProfile(parts.profiles, globals.profile) : parts.profiles.active();
    // Calls to a service need one chosen on purpose: a profile made active (`einvoice profile use`),
    // --profile or --base-url; never the built-in Sandbox just because nothing was set up.
    if (options.requireService && globals.profile === undefined && baseUrl === undefined && chosen.kind === 'sandbox') {
      throw new UsageError({
        en: 'No service given: use --profile sandbox, or --base-url URL (or set EINVOICE_BASE_URL), or choose a profile with einvoice profile use NAME.',
        vi: 'Chưa chọn dịch vụ: dùng --profile sandbox, hoặc --base-url URL (hoặc đặt biến EINVOICE_BASE_URL), hoặc chọn cấu hình bằng einvoice profile use TÊN.',
      });
    }
    const profile = chosen;
    const gate = new AuthGate(parts.auth, profile.id);
    let fixed: Promise<SignedInSession> | undefined;
    const fromEnvironment = (): Promise<SignedInSession> | undefined => {
      if (!envToken) return undefined;
      fixed ??= (async () => ({
        profile,
        endpoint: baseUrl !== undefined ? { baseUrl, tokenUrl: null } : await parts.resolveEndpoint(profile),
        token: envToken,
      }))();
      return fixed;
    };
    return {
      profileId: () => profile.id,
      gate: {
        ready: async (signal) => {
          // A refused token from the environment is never handed out again: like a paused
          // sign-in, work waits — and nobody can sign in here, so it waits until it gives up.
          if (envToken && refused) return await waitForAbort(signal);
          return (await fromEnvironment()) ?? (await gate.ready(signal));
        },
        reportAuthFailure: async (profileId) => {
          refused = true;
          // A token from the environment is not the profile's sign-in: nothing to pause.
          if (!envToken) await gate.reportAuthFailure(profileId);
        },
      },
      current: async () => (envToken && refused ? null : ((await fromEnvironment()) ?? (await parts.auth.session(profile.id)))),
    };
  };

  const services = await createServices({
    dataDir: globals.dataDir,
    version: APP_VERSION,
    host: 'cli',
    background: false,
    workSession,
    clients: { ...(globals.timeoutMs !== undefined ? { timeoutMs: globals.timeoutMs } : {}), ...(log ? { log } : {}) },
    // With a token from the environment the keychain is not consulted at all.
    ...(baseUrl !== undefined ? { secrets: new MemorySecretStore() } : {}),
    ...(options.emails ? { emails: options.emails } : {}),
    ...(options.downloads ? { downloads: options.downloads } : {}),
    ...(options.issuing ? { issuing: options.issuing } : {}),
  });
  const profile = chosen!;
  return {
    services,
    profile,
    get refused() {
      return refused;
    },
    async sessionNow() {
      const session = await services.session.current();
      if (!session) {
        throw new ApiError(
          'auth',
          {
            en: `The profile "${profile.name}" is not signed in (or its token expired): run einvoice login --profile "${profile.name}".`,
            vi: `Cấu hình "${profile.name}" chưa đăng nhập (hoặc token đã hết hạn): hãy chạy einvoice login --profile "${profile.name}".`,
          },
          {},
        );
      }
      if (profile.kind === 'sandbox' && baseUrl === undefined) {
        progress({ vi: `Đang dùng sandbox tại ${session.endpoint.baseUrl}`, en: `Using the sandbox at ${session.endpoint.baseUrl}` });
      }
      return session;
    },
  };
}

/** A profile of the data folder by id or name (any case); the refusal lists the names there are. */
export function findProfile(profiles: ProfileService, name: string): Profile {
  const wanted = name.trim().toLowerCase();
  const profile = profiles.list().find((p) => p.id === name || p.name.toLowerCase() === wanted);
  if (profile) return profile;
  const known = profiles
    .list()
    .map((p) => p.name)
    .join(', ');
  throw new AppError('profile_not_found', {
    en: `Unknown profile "${name}". Profiles in this data folder: ${known}.`,
    vi: `Không có cấu hình kết nối "${name}". Các cấu hình trong thư mục dữ liệu này: ${known}.`,
  });
}

function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    const refusedNow = () => apiErrors.auth({});
    if (!signal) return reject(refusedNow());
    if (signal.aborted) return reject(signal.reason ?? refusedNow());
    signal.addEventListener('abort', () => reject(signal.reason ?? refusedNow()), { once: true });
  });
}
