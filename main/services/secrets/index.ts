export { MemorySecretStore, secretAccounts, keychainUnavailable, type SecretStore } from './secret-store';
export { KeyringSecretStore, createSecretStore, KEYCHAIN_SERVICE, keychainServiceFor, type CreateSecretStoreOptions } from './keyring';
