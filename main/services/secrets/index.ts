export { MemorySecretStore, secretAccounts, keychainUnavailable, type SecretStore } from './secret-store';
export { KeyringSecretStore, createSecretStore, KEYCHAIN_SERVICE, type CreateSecretStoreOptions } from './keyring';
