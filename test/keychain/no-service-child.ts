// Bundled by the keychain test and run in a child process whose D-Bus session address points
// nowhere: the store must refuse the keychain and keep the token in memory only.
import { createSecretStore, KeyringSecretStore } from '../../main/services/secrets';

async function main(): Promise<void> {
  const [service, account, token] = process.argv.slice(2) as [string, string, string];
  let openError: { code?: string; message: string; messageVi?: string } | null = null;
  try {
    await KeyringSecretStore.open(service);
  } catch (error) {
    const e = error as { code?: string; message: string; messageVi?: string };
    openError = { code: e.code, message: e.message, messageVi: e.messageVi };
  }
  const store = await createSecretStore({ service });
  await store.set(account, token);
  const readBack = await store.get(account);
  process.stdout.write(
    JSON.stringify({
      openError,
      kind: store.kind,
      persistent: store.persistent,
      unavailableCode: store.unavailable?.code ?? null,
      readBackMatches: readBack === token,
    }),
  );
}
main().catch((error: unknown) => {
  process.stderr.write(String(error));
  process.exit(1);
});
