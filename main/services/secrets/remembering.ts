import type { SecretStore } from './secret-store';

/**
 * A SecretStore that tells `remember` about every secret it stores or hands out, so the log's
 * redactor knows this run's tokens and passwords even when they are not JWT-shaped.
 */
export function rememberingSecrets(store: SecretStore, remember: (secret: string) => void): SecretStore {
  return {
    kind: store.kind,
    persistent: store.persistent,
    ...(store.unavailable ? { unavailable: store.unavailable } : {}),
    async get(account) {
      const secret = await store.get(account);
      if (secret) remember(secret);
      return secret;
    },
    async set(account, secret) {
      remember(secret);
      await store.set(account, secret);
    },
    delete: (account) => store.delete(account),
  };
}
