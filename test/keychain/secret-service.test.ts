import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore, createSecretStore, secretAccounts } from '../../main/services/secrets';

const run = promisify(execFile);
const service = `eInvoice Desk test ${randomUUID()}`;

function lookup(account: string): string | null {
  try {
    return execFileSync('secret-tool', ['lookup', 'service', service, 'username', account], { encoding: 'utf8' });
  } catch {
    return null; // exit code 1: no such entry
  }
}

beforeAll(() => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error('No D-Bus session: run these tests with scripts/test-keychain.sh');
  }
});

describe('KeyringSecretStore against the real Secret Service', () => {
  it('stores, reads back, replaces and deletes; entries are visible to secret-tool', async () => {
    const store = await KeyringSecretStore.open(service);
    expect(store.kind).toBe('keychain');
    expect(store.persistent).toBe(true);
    const account = secretAccounts.token('p-1');
    const token = `eyJ.${randomUUID()}.sig`;

    expect(await store.get(account)).toBeNull();
    await store.set(account, token);
    expect(await store.get(account)).toBe(token);
    expect(lookup(account)).toBe(token);

    const replacement = `eyJ.${randomUUID()}.sig2`;
    await store.set(account, replacement);
    expect(await store.get(account)).toBe(replacement);
    expect(lookup(account)).toBe(replacement);
    // Replacing does not leave a second item behind.
    const items = execFileSync('secret-tool', ['search', '--all', 'service', service, 'username', account], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(items.match(/^\[/gm)?.length ?? 0).toBe(1);

    expect(await store.delete(account)).toBe(true);
    expect(await store.get(account)).toBeNull();
    expect(lookup(account)).toBeNull();
    expect(await store.delete(account)).toBe(false);
  });

  it('keeps profiles apart (token and password per profile)', async () => {
    const store = await createSecretStore({ service });
    expect(store.kind).toBe('keychain');
    await store.set(secretAccounts.token('a'), 'token-a');
    await store.set(secretAccounts.token('b'), 'token-b');
    await store.set(secretAccounts.password('a'), 'pw-a');
    expect(await store.get(secretAccounts.token('a'))).toBe('token-a');
    expect(await store.get(secretAccounts.token('b'))).toBe('token-b');
    expect(lookup(secretAccounts.password('a'))).toBe('pw-a');
    for (const a of [secretAccounts.token('a'), secretAccounts.token('b'), secretAccounts.password('a')]) await store.delete(a);
    expect(lookup(secretAccounts.token('b'))).toBeNull();
  });
});

describe('with no Secret Service', () => {
  let tmp: string;
  let childJs: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-nokeychain-'));
    childJs = path.join(tmp, 'child.cjs');
    await build({
      entryPoints: [path.join(__dirname, 'no-service-child.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: childJs,
      external: ['@napi-rs/keyring'],
      logLevel: 'error',
      nodePaths: [path.join(__dirname, '..', '..', 'node_modules')],
    });
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('refuses the keychain, keeps the token in memory only, and writes nothing to disk', async () => {
    const home = path.join(tmp, 'home');
    const dirs = {
      XDG_DATA_HOME: path.join(tmp, 'xdg-data'),
      XDG_RUNTIME_DIR: path.join(tmp, 'xdg-run'),
      XDG_CONFIG_HOME: path.join(tmp, 'xdg-config'),
      EINVOICE_DATA_DIR: path.join(tmp, 'data'),
    };
    for (const d of [home, ...Object.values(dirs)]) fs.mkdirSync(d, { recursive: true, mode: 0o700 });
    const token = `no-keychain-token-${randomUUID()}`;
    const account = secretAccounts.token('sandbox');
    const { stdout } = await run(process.execPath, [childJs, service, account, token], {
      cwd: tmp,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        ...dirs,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(tmp, 'no-such-bus')}`,
        NODE_PATH: path.join(__dirname, '..', '..', 'node_modules'),
      },
    });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result.openError).toMatchObject({ code: 'keychain_unavailable' });
    expect(String((result.openError as { messageVi: string }).messageVi)).toMatch(/Không có kho khóa/);
    expect(result).toMatchObject({ kind: 'memory', persistent: false, unavailableCode: 'keychain_unavailable', readBackMatches: true });

    // Nothing with the token anywhere under the child's home, XDG dirs, data dir or cwd.
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) files.push(p);
      }
    };
    walk(tmp);
    for (const f of files) expect(fs.readFileSync(f).includes(token), f).toBe(false);
    expect(files.filter((f) => f !== childJs && !f.endsWith('.map'))).toEqual([]);

    // And it did not slip into the real Secret Service either.
    expect(lookup(account)).toBeNull();
  });
});
