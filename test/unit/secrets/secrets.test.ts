import { expect, it } from 'vitest';
import { createSecretStore, KeyringSecretStore, keychainServiceFor, MemorySecretStore, secretAccounts } from '../../../main/services/secrets';

it('MemorySecretStore stores, replaces and deletes, and says it is not persistent', async () => {
  const store = new MemorySecretStore();
  expect(store.persistent).toBe(false);
  await store.set('a', '1');
  await store.set('a', '2');
  expect(await store.get('a')).toBe('2');
  expect(await store.delete('a')).toBe(true);
  expect(await store.delete('a')).toBe(false);
  expect(await store.get('a')).toBeNull();
});

it('the keychain refuses plainly when its module cannot be used, and createSecretStore falls back to memory', async () => {
  await expect(
    KeyringSecretStore.open('svc', async () => {
      throw new Error('no binding');
    }),
  ).rejects.toMatchObject({ code: 'keychain_unavailable' });
  const fallback = await createSecretStore({ disableKeychain: true });
  expect(fallback).toMatchObject({ kind: 'memory', persistent: false });
  expect(fallback.unavailable?.messageVi).toMatch(/Không có kho khóa/);
});

it('pins every keychain entry to the Secret Service on Linux', async () => {
  const created: unknown[] = [];
  class FakeEntry {
    constructor(...args: unknown[]) {
      created.push(args);
    }
    async getPassword() {
      return null;
    }
  }
  const store = await KeyringSecretStore.open('svc', async () => ({ AsyncEntry: FakeEntry }) as never);
  await store.get(secretAccounts.token('p'));
  expect(created).toEqual([
    ['svc', 'probe', { linux: { store: 'secret-service' } }],
    ['svc', 'profile:p:token', { linux: { store: 'secret-service' } }],
  ]);
});

it('one keychain service name per data folder', () => {
  expect(keychainServiceFor('/a')).toMatch(/^eInvoice Desk \[[0-9a-f]{8}\]$/);
  expect(keychainServiceFor('/a')).not.toBe(keychainServiceFor('/b'));
});
