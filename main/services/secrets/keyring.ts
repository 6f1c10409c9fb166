import { createHash } from 'node:crypto';
import path from 'node:path';
import type * as KeyringModule from '@napi-rs/keyring';
import { AppError } from '../../../common/errors';
import { keychainUnavailable, MemorySecretStore, type SecretStore } from './secret-store';

/** The keychain service name every entry of the app is filed under. */
export const KEYCHAIN_SERVICE = 'eInvoice Desk';

/**
 * The keychain service name of one data folder: `eInvoice Desk [1a2b3c4d]`. Two data folders
 * (two installations, a test run, …) never share or overwrite each other's sign-ins.
 */
export function keychainServiceFor(dataDir: string): string {
  return `${KEYCHAIN_SERVICE} [${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 8)}]`;
}

type Keyring = typeof KeyringModule;
type AsyncEntryInstance = InstanceType<Keyring['AsyncEntry']>;

/**
 * The OS keychain through @napi-rs/keyring: Windows Credential Manager, macOS Keychain, and on
 * Linux the Secret Service ONLY (pinned with `linux.store = 'secret-service'`: the library
 * would otherwise fall back silently to the kernel keyutils keyring).
 */
export class KeyringSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly persistent = true;

  private constructor(
    private readonly keyring: Keyring,
    readonly service: string,
  ) {}

  /** Opens the keychain and proves it answers (a read of a probe entry); throws `keychain_unavailable`. */
  static async open(service: string = KEYCHAIN_SERVICE, loadKeyring: () => Promise<Keyring> = loadNative): Promise<KeyringSecretStore> {
    let keyring: Keyring;
    try {
      keyring = await loadKeyring();
    } catch (error) {
      throw keychainUnavailable('the keychain module could not be loaded', error);
    }
    const store = new KeyringSecretStore(keyring, service);
    try {
      await store.entry('probe').getPassword(AbortSignal.timeout(10_000));
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw keychainUnavailable(describe(error), error);
    }
    return store;
  }

  private entry(account: string): AsyncEntryInstance {
    try {
      return new this.keyring.AsyncEntry(this.service, account, { linux: { store: 'secret-service' } });
    } catch (error) {
      throw keychainUnavailable(describe(error), error);
    }
  }

  async get(account: string): Promise<string | null> {
    try {
      return await this.entry(account).getPassword();
    } catch (error) {
      throw wrap(error, 'read');
    }
  }

  async set(account: string, secret: string): Promise<void> {
    try {
      await this.entry(account).setPassword(secret);
    } catch (error) {
      throw wrap(error, 'save');
    }
  }

  async delete(account: string): Promise<boolean> {
    try {
      return await this.entry(account).deleteCredential();
    } catch (error) {
      throw wrap(error, 'delete');
    }
  }
}

async function loadNative(): Promise<Keyring> {
  return await import('@napi-rs/keyring');
}

/** The library's message names the store problem; it never contains the secret. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200);
}

function wrap(error: unknown, action: 'read' | 'save' | 'delete'): AppError {
  if (error instanceof AppError) return error;
  const vi = { read: 'đọc', save: 'lưu', delete: 'xóa' }[action];
  return new AppError(
    'keychain_failed',
    {
      en: `The system keychain could not ${action} the sign-in (${describe(error)}). If it is locked, unlock it and try again.`,
      vi: `Kho khóa của hệ thống không ${vi} được thông tin đăng nhập (${describe(error)}). Nếu kho khóa đang bị khóa, hãy mở khóa rồi thử lại.`,
    },
    { cause: error, retryable: true },
  );
}

export interface CreateSecretStoreOptions {
  service?: string;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** Tests: force the fallback path. */
  disableKeychain?: boolean;
}

/**
 * The SecretStore for this run: the OS keychain when it answers; otherwise (fail closed) an
 * in-memory store flagged `persistent: false` that carries the plain reason in `unavailable`.
 * Nothing is ever written to disk by the fallback.
 */
export async function createSecretStore(options: CreateSecretStoreOptions = {}): Promise<SecretStore> {
  if (options.disableKeychain) return new MemorySecretStore(keychainUnavailable('turned off for this run'));
  try {
    return await KeyringSecretStore.open(options.service ?? KEYCHAIN_SERVICE);
  } catch (error) {
    const reason = error instanceof AppError ? error : keychainUnavailable(describe(error), error);
    options.log?.('warn', `keychain unavailable, keeping sign-ins in memory for this run: ${reason.message}`);
    return new MemorySecretStore(reason);
  }
}
