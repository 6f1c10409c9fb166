/**
 * The built browser host as a real process, for tests and benches. The host prints no secret:
 * like a browser, the harness exchanges the printed one-time launch code for the host's cookie,
 * and then calls the API with the secret that cookie holds.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECRET_HEADER } from '../../../common/ipc/channels';
import { bundleForNode } from '../../support/bundle';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface HostProcess {
  origin: string;
  /** The per-launch secret, taken from the cookie the first launch code was exchanged for. */
  secret: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the host printed on stdout so far. */
  stdout(): string;
  /** A launch URL with a fresh one-time code, for a browser page. */
  newLaunchUrl(): Promise<string>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface HostProcessOptions {
  dataDir: string;
  env?: Record<string, string>;
  /** The built host (default out/main/browser-host.cjs). */
  hostFile?: string;
  stderr?: 'pipe' | 'inherit';
  timeoutMs?: number;
}

/** Bundles the browser host from source into `outfile` (without the renderer), for tests that must not depend on `out/`. */
export async function buildHostBundle(outfile: string): Promise<string> {
  return bundleForNode(path.join(root, 'main/browser-host/main.ts'), outfile);
}

/** Exchanges a launch URL's one-time code as a browser would; returns the secret from the cookie it sets. */
export async function exchangeLaunchCode(launchUrl: string): Promise<string> {
  const response = await fetch(launchUrl, { redirect: 'manual' });
  await response.arrayBuffer();
  const cookie = response.headers.get('set-cookie') ?? '';
  const match = /^einvoice-\d+=([^;]+);/.exec(cookie);
  // A host built without its screens (503) still hands out the cookie.
  if (!match) throw new Error(`launch code refused (${response.status})`);
  return match[1]!;
}

export async function startHostProcess(options: HostProcessOptions): Promise<HostProcess> {
  const stdio: StdioOptions = ['ignore', 'pipe', options.stderr ?? 'pipe'];
  const child = spawn(
    process.execPath,
    [options.hostFile ?? path.join(root, 'out', 'main', 'browser-host.cjs'), '--data-dir', options.dataDir, '--port', '0'],
    {
      cwd: root,
      env: { ...process.env, ...options.env },
      stdio,
    },
  );
  let stderr = '';
  let stdout = '';
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  const ready = await new Promise<{ origin: string; launchUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`browser host did not start: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /EINVOICE_BROWSER_HOST (\{.*\})/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(JSON.parse(match[1]!));
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`browser host exited (${code ?? signal}): ${stderr}`));
    });
  });
  const secret = await exchangeLaunchCode(ready.launchUrl).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    origin: ready.origin,
    secret,
    dataDir: options.dataDir,
    child,
    stdout: () => stdout,
    async newLaunchUrl() {
      const response = await fetch(`${ready.origin}/api/launch`, { method: 'POST', headers: { [SECRET_HEADER]: secret } });
      return ((await response.json()) as { url: string }).url;
    },
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
