import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox';
import { makeTempDir } from '../../support/temp-dir';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const cli = path.join(root, 'out', 'main', 'cli.cjs');

export function buildOnce(): void {
  execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit', timeout: 240_000 });
}

export function cliEnv(dataDir: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('EINVOICE_') && !k.startsWith('VITEST')) env[k] = v;
  env.EINVOICE_DATA_DIR = dataDir;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv, cwd: string): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, cwd: string, timeoutMs = 60_000): Promise<Run> {
  const { child, done } = spawnCli(args, env, cwd);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const r = await done;
  clearTimeout(timer);
  return r;
}

/**
 * A sandbox and a data folder shared by the tests of one file that run the built CLI: started
 * before them, closed after them. `env()` signs the CLI in with the sandbox's token, `api()` points
 * it at the sandbox.
 */
export function cliSandbox(prefix: string, options: SandboxOptions) {
  let sb: Sandbox | undefined;
  let tmp: { dir: string; cleanup: () => void } | undefined;
  beforeAll(async () => {
    buildOnce();
    tmp = makeTempDir(prefix);
    sb = await startSandbox({ port: 0, ...options });
  }, 300_000);
  afterAll(async () => {
    await sb?.close();
    tmp?.cleanup();
  });
  return {
    get sb(): Sandbox {
      return sb!;
    },
    get dir(): string {
      return tmp!.dir;
    },
    env: () => cliEnv(`${tmp!.dir}/data`, { EINVOICE_TOKEN: sb!.devToken }),
    api: () => ['--base-url', sb!.baseUrl],
  };
}

/** The `items` of a `--json` answer of `einvoice email` / `queue`. */
export function jsonItems<T>(stdout: string): T[] {
  return (JSON.parse(stdout.trim()) as { items: T[] }).items;
}
