import { AppError } from '../../../common/errors';

/**
 * Where tokens (and, only when the user asks, passwords) live. Never the database, a log or
 * the renderer. `persistent` is false for the in-memory fallback: the secret is kept for this
 * run only, and status screens say so.
 */
export interface SecretStore {
  readonly kind: 'keychain' | 'memory';
  readonly persistent: boolean;
  /** Why the OS keychain is not used (present only on the in-memory fallback). */
  readonly unavailable?: AppError;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
}

/** The account name of a profile's token / remembered password inside the app's keychain service. */
export const secretAccounts = {
  token: (profileId: string) => `profile:${profileId}:token`,
  password: (profileId: string) => `profile:${profileId}:password`,
};

export function keychainUnavailable(detail: string, cause?: unknown): AppError {
  return new AppError(
    'keychain_unavailable',
    {
      en: `No system keychain is available (${detail}). Your sign-in will be kept in memory for this run only and is not saved; you will need to sign in again next time.`,
      vi: `Không có kho khóa (keychain) của hệ thống (${detail}). Thông tin đăng nhập chỉ được giữ trong bộ nhớ cho lần chạy này và không được lưu; lần sau bạn cần đăng nhập lại.`,
    },
    cause === undefined ? {} : { cause },
  );
}

/** The fail-closed fallback: secrets in this process's memory only, never on disk. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  readonly persistent = false;
  private readonly secrets = new Map<string, string>();

  constructor(readonly unavailable?: AppError) {}

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }
  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
}
