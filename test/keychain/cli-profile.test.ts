import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { keychainServiceFor } from '../../main/services/secrets';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(root, 'bin', 'einvoice.cjs');
let sb: Sandbox;
let tmp: string;
let dataDir: string;

/** The built CLI in its own process: each run must find the sign-in in the Secret Service again. */
function run(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string; json: Record<string, unknown> }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('EINVOICE_') && !k.startsWith('VITEST')) env[k] = v;
  env.EINVOICE_DATA_DIR = dataDir;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: tmp, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.end(stdin);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`einvoice ${args.join(' ')} did not finish\n${stderr}`));
    }, 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        // text mode
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error('No D-Bus session: run these tests with scripts/test-keychain.sh');
  execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit', timeout: 240_000 });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-kc-profile-'));
  dataDir = path.join(tmp, 'data');
  sb = await startSandbox({ port: 0, invoiceCount: 20 });
}, 300_000);
afterAll(async () => {
  await sb?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

it('profile add + use, login once, then plain calls in new processes use the keychain token; remove forgets it', async () => {
  const add = await run(['profile', 'add', 'shop', '--base-url', sb.baseUrl, '--json']);
  expect(add.code, add.stderr).toBe(0);
  const shopId = (add.json.profile as { id: string }).id;
  expect((await run(['profile', 'use', 'shop'])).code).toBe(0);

  const token = sb.issueToken();
  const login = await run(['login', '--profile', 'shop', '--token-stdin', '--json'], token);
  expect(login.code, login.stderr).toBe(0);
  expect(login.json).toMatchObject({ status: { state: 'signedIn', storage: 'keychain' } });
  const lookup = () => execFileSync('secret-tool', ['lookup', 'service', keychainServiceFor(dataDir), 'username', `profile:${shopId}:token`], { encoding: 'utf8', stdio: 'pipe' });
  expect(lookup()).toBe(token);

  // New processes, no EINVOICE_TOKEN: the active profile's address and its stored token.
  const before = sb.requests({ op: 'templates' }).length;
  const templates = await run(['templates', '--json']);
  expect(templates.code, templates.stderr).toBe(0);
  expect((templates.json.templates as unknown[]).length).toBeGreaterThan(0);
  expect(sb.requests({ op: 'templates' }).length).toBe(before + 1);
  const show = await run(['profile', 'show', '--json']);
  expect(show.json).toMatchObject({ profile: { id: shopId, active: true }, auth: { state: 'signedIn', method: 'token' } });

  const remove = await run(['profile', 'remove', 'shop', '--json']);
  expect(remove.code, remove.stderr).toBe(0);
  expect(remove.json).toMatchObject({ activeId: 'sandbox' });
  expect(lookup).toThrow();
});
