import type { AuthStatus } from '../../../common/calls/auth';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { Profile, ProfileService } from '../profiles';
import { secretAccounts, type SecretStore } from '../secrets';
import type { Store } from '../store';
import { expiryInfo, jwtExpiry } from './jwt';

/** Where a profile's service is: the sandbox's address is known only once it runs. */
export interface Endpoint {
  baseUrl: string;
  tokenUrl: string | null;
  /** The sandbox's development token (built-in Sandbox only). */
  devToken?: string;
}

export type ResolveEndpoint = (profile: Profile) => Promise<Endpoint>;

export interface TokenRequest {
  endpoint: Endpoint;
  appId: string;
  taxCode: string;
  userName: string;
  password: string;
  signal?: AbortSignal;
}

/** The token operation of the service client (docs/service.md#token): returns the token or throws an AppError. */
export type RequestToken = (request: TokenRequest) => Promise<string>;

/** What a piece of work needs to call the service: given by `AuthGate.ready()`. */
export interface SignedInSession {
  profile: Profile;
  endpoint: Endpoint;
  token: string;
}

export interface AuthServiceDeps {
  store: Store;
  secrets: SecretStore;
  profiles: ProfileService;
  resolveEndpoint: ResolveEndpoint;
  requestToken?: RequestToken;
  bus?: EventBus;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

interface AuthRow {
  method: 'token' | 'credentials' | 'sandbox';
  signed_in_at: string;
  expires_at: string | null;
  app_id: string | null;
  tax_code: string | null;
  user_name: string | null;
  password_remembered: number;
}

/**
 * Sign-in per profile: the token lives in the SecretStore, only non-secret facts (method, time,
 * expiry, app id / tax code / user name) in the database.
 */
export class AuthService {
  private readonly paused = new Set<string>();
  private readonly lastAutoRenew = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  readonly gate: AuthGate;

  constructor(private readonly deps: AuthServiceDeps) {
    this.gate = new AuthGate(this);
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private profile(profileId?: string): Profile {
    return profileId ? this.deps.profiles.get(profileId) : this.deps.profiles.active();
  }

  private row(profileId: string): AuthRow | undefined {
    return this.deps.store.db
      .prepare('SELECT method, signed_in_at, expires_at, app_id, tax_code, user_name, password_remembered FROM profile_auth WHERE profile_id = ?')
      .get(profileId) as AuthRow | undefined;
  }

  /** The stored token of a profile (main-side only; never returned through the contract). */
  private async storedToken(profileId: string): Promise<string | null> {
    return await this.deps.secrets.get(secretAccounts.token(profileId));
  }

  async status(profileId?: string): Promise<AuthStatus> {
    const profile = this.profile(profileId);
    const row = this.row(profile.id);
    const secrets = this.deps.secrets;
    const base = {
      profileId: profile.id,
      storage: secrets.kind,
      storageMessage: secrets.unavailable ? { en: secrets.unavailable.message, vi: secrets.unavailable.messageVi } : null,
      appId: row?.app_id ?? null,
      taxCode: row?.tax_code ?? null,
      userName: row?.user_name ?? null,
      passwordRemembered: row?.password_remembered === 1,
    };
    const token = await this.storedToken(profile.id);
    if (!token) {
      if (profile.kind === 'sandbox') {
        // The built-in sandbox signs in by itself with its development token.
        return {
          ...base,
          state: this.paused.has(profile.id) ? 'paused' : 'signedIn',
          method: 'sandbox',
          signedInAt: null,
          expiresAt: null,
          daysLeft: null,
          expiringSoon: false,
        };
      }
      return { ...base, state: 'signedOut', method: null, signedInAt: null, expiresAt: null, daysLeft: null, expiringSoon: false };
    }
    const expiresAt = jwtExpiry(token);
    const info = expiryInfo(expiresAt, this.now());
    return {
      ...base,
      state: this.paused.has(profile.id) ? 'paused' : info.expired ? 'expired' : 'signedIn',
      method: row?.method ?? 'token',
      signedInAt: row?.signed_in_at ?? null,
      expiresAt: expiresAt?.toISOString() ?? null,
      daysLeft: info.daysLeft,
      expiringSoon: info.expiringSoon,
    };
  }

  async signInWithToken(profileId: string | undefined, token: string): Promise<AuthStatus> {
    const profile = this.profile(profileId);
    const clean = token.trim();
    if (!clean || /\s/.test(clean)) {
      const en = 'Token: paste the whole token (one line, no spaces).';
      const vi = 'Token: hãy dán toàn bộ token (một dòng, không có khoảng trắng).';
      throw new AppError('auth_token_invalid', { en, vi }, { issues: [{ path: 'token', message: en, messageVi: vi }] });
    }
    const expiresAt = jwtExpiry(clean);
    if (expiresAt && expiresAt.getTime() <= this.now().getTime()) {
      throw new AppError('auth_token_expired', {
        en: `This token expired on ${expiresAt.toISOString().slice(0, 10)}; get a new one.`,
        vi: `Token này đã hết hạn ngày ${expiresAt.toISOString().slice(0, 10)}; hãy lấy token mới.`,
      });
    }
    await this.save(profile, clean, { method: 'token' });
    return await this.announce(profile.id);
  }

  async signInWithPassword(
    profileId: string | undefined,
    input: { appId: string; taxCode: string; userName: string; password: string; rememberPassword?: boolean },
    signal?: AbortSignal,
  ): Promise<AuthStatus> {
    const profile = this.profile(profileId);
    const requestToken = this.deps.requestToken;
    if (!requestToken) {
      throw new AppError('auth_token_operation_unavailable', {
        en: 'Signing in with a user name and password is not available here; paste a token instead.',
        vi: 'Không thể đăng nhập bằng tên và mật khẩu ở đây; hãy dán token.',
      });
    }
    const endpoint = await this.deps.resolveEndpoint(profile);
    const token = (
      await requestToken({
        endpoint,
        appId: input.appId,
        taxCode: input.taxCode,
        userName: input.userName,
        password: input.password,
        ...(signal ? { signal } : {}),
      })
    ).trim();
    if (!token) {
      throw new AppError('auth_no_token', {
        en: 'The service accepted the sign-in but returned no token.',
        vi: 'Dịch vụ chấp nhận đăng nhập nhưng không trả về token.',
      });
    }
    await this.save(profile, token, {
      method: 'credentials',
      appId: input.appId,
      taxCode: input.taxCode,
      userName: input.userName,
      password: input.rememberPassword ? input.password : null,
    });
    return await this.announce(profile.id);
  }

  /** Renews the token with the remembered password, if the user asked to remember it. */
  async renew(profileId?: string, signal?: AbortSignal): Promise<AuthStatus | null> {
    const profile = this.profile(profileId);
    const row = this.row(profile.id);
    if (!row || row.password_remembered !== 1 || !row.app_id || !row.tax_code || !row.user_name) return null;
    const password = await this.deps.secrets.get(secretAccounts.password(profile.id));
    if (!password) return null;
    return await this.signInWithPassword(
      profile.id,
      { appId: row.app_id, taxCode: row.tax_code, userName: row.user_name, password, rememberPassword: true },
      signal,
    );
  }

  async signOut(profileId?: string): Promise<AuthStatus> {
    const profile = this.profile(profileId);
    await this.deps.secrets.delete(secretAccounts.token(profile.id));
    await this.deps.secrets.delete(secretAccounts.password(profile.id));
    this.deps.store.transaction((db) => db.prepare('DELETE FROM profile_auth WHERE profile_id = ?').run(profile.id));
    this.paused.delete(profile.id);
    return await this.announce(profile.id);
  }

  /** Drops the secrets of a profile about to be removed. */
  async forget(profileId: string): Promise<void> {
    await this.deps.secrets.delete(secretAccounts.token(profileId));
    await this.deps.secrets.delete(secretAccounts.password(profileId));
    this.paused.delete(profileId);
  }

  private async save(
    profile: Profile,
    token: string,
    meta: { method: 'token' | 'credentials'; appId?: string; taxCode?: string; userName?: string; password?: string | null },
  ): Promise<void> {
    await this.deps.secrets.set(secretAccounts.token(profile.id), token);
    if (meta.password) await this.deps.secrets.set(secretAccounts.password(profile.id), meta.password);
    else await this.deps.secrets.delete(secretAccounts.password(profile.id));
    const expiresAt = jwtExpiry(token);
    this.deps.store.transaction((db) =>
      db
        .prepare(
          `INSERT INTO profile_auth(profile_id, method, signed_in_at, expires_at, app_id, tax_code, user_name, password_remembered)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT(profile_id) DO UPDATE SET method = excluded.method, signed_in_at = excluded.signed_in_at,
             expires_at = excluded.expires_at, app_id = excluded.app_id, tax_code = excluded.tax_code,
             user_name = excluded.user_name, password_remembered = excluded.password_remembered`,
        )
        .run(
          profile.id,
          meta.method,
          this.now().toISOString(),
          expiresAt?.toISOString() ?? null,
          meta.appId ?? null,
          meta.taxCode ?? null,
          meta.userName ?? null,
          meta.password ? 1 : 0,
        ),
    );
    this.paused.delete(profile.id);
    this.deps.log?.('info', `signed in to profile ${profile.name} (${meta.method})`);
  }

  private async announce(profileId: string): Promise<AuthStatus> {
    const status = await this.status(profileId);
    this.deps.bus?.emit('auth.changed', status);
    this.wake();
    return status;
  }

  /** Re-checks waiting work (e.g. after the active profile changed). */
  wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /**
   * The session of a profile right now (default: the active one), or null when it is signed
   * out, expired or paused — without waiting. For one-shot users such as CLI commands; long
   * work uses `gate.ready()`.
   */
  async session(profileId?: string): Promise<SignedInSession | null> {
    return await this.sessionOf(this.profile(profileId));
  }

  /** @internal for AuthGate */
  async sessionIfReady(): Promise<SignedInSession | null> {
    return await this.sessionOf(this.deps.profiles.active());
  }

  private async sessionOf(profile: Profile): Promise<SignedInSession | null> {
    if (this.paused.has(profile.id)) return null;
    let token = await this.storedToken(profile.id);
    if (token) {
      if (expiryInfo(jwtExpiry(token), this.now()).expired) return null;
      return { profile, endpoint: await this.deps.resolveEndpoint(profile), token };
    }
    if (profile.kind !== 'sandbox') return null;
    const endpoint = await this.deps.resolveEndpoint(profile);
    token = endpoint.devToken ?? null;
    return token ? { profile, endpoint, token } : null;
  }

  /** @internal for AuthGate */
  async pause(profileId?: string): Promise<void> {
    const id = profileId ?? this.deps.profiles.activeId();
    if (this.paused.has(id)) return;
    // A remembered password renews the token without bothering the user — at most once a
    // minute, so a service that keeps refusing fresh tokens cannot cause a loop.
    const last = this.lastAutoRenew.get(id) ?? 0;
    if (this.now().getTime() - last > 60_000) {
      this.lastAutoRenew.set(id, this.now().getTime());
      try {
        if (await this.renew(id)) return;
      } catch (error) {
        this.deps.log?.(
          'warn',
          `renewing the token of profile ${id} with the remembered password failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    this.paused.add(id);
    this.deps.log?.('warn', `the service refused the sign-in of profile ${id}; work paused until a new sign-in`);
    await this.announce(id);
  }

  /** @internal for AuthGate: a promise settled by the next change, and a way to drop it. */
  waitForChange(signal?: AbortSignal): { changed: Promise<void>; cancel: () => void } {
    let cancel = () => {};
    const changed = new Promise<void>((resolve, reject) => {
      const done = () => {
        cancel();
        resolve();
      };
      const aborted = () => {
        cancel();
        reject(signal?.reason ?? new Error('aborted'));
      };
      cancel = () => {
        this.waiters.delete(done);
        signal?.removeEventListener('abort', aborted);
      };
      if (signal?.aborted) return aborted();
      signal?.addEventListener('abort', aborted, { once: true });
      this.waiters.add(done);
    });
    return { changed, cancel };
  }
}

/**
 * What long-running work (downloads, the email queue, …) goes through before each request:
 * `await gate.ready()` resolves with the active session, and blocks while signed out, expired
 * or paused. When the service answers with an auth error, call `gate.reportAuthFailure()`:
 * the work pauses (state `paused`, an `auth.changed` event asks the user to sign in again) and
 * the same `ready()` call resumes it after the new sign-in; nothing queued is dropped.
 */
export class AuthGate {
  /** `profileId`: a gate for that profile instead of whichever is active (the CLI's `--profile`). */
  constructor(
    private readonly auth: AuthService,
    readonly profileId?: string,
  ) {}

  async ready(signal?: AbortSignal): Promise<SignedInSession> {
    for (;;) {
      signal?.throwIfAborted();
      // Register the waiter before checking, so a sign-in between the two is not missed.
      const { changed, cancel } = this.auth.waitForChange(signal);
      let session: SignedInSession | null;
      try {
        session = this.profileId ? await this.auth.session(this.profileId) : await this.auth.sessionIfReady();
      } catch (error) {
        cancel();
        throw error;
      }
      if (session) {
        cancel();
        return session;
      }
      await changed;
    }
  }

  /** Marks the active (or given) profile's sign-in as refused by the service; work waits in `ready()`. */
  reportAuthFailure(profileId?: string): Promise<void> {
    return this.auth.pause(profileId ?? this.profileId);
  }
}
