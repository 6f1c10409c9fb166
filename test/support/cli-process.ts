import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../main/sandbox';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds main, preload, renderer and CLI into out/ (serialised with any other build on this machine). */
export function buildOnce(): void {
  execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit', timeout: 240_000 });
}

/** The `einvoice` launcher. */
export const CLI_BIN = path.join(root, 'bin', 'einvoice.cjs');

/** This process's environment without the test's EINVOICE_* and VITEST* variables, plus `extra`. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('EINVOICE_') && !k.startsWith('VITEST')) env[k] = v;
  return Object.assign(env, extra);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed when it is one JSON document, else {}. */
  json: Record<string, unknown>;
}

/**
 * The built `einvoice` in its own process: the test's EINVOICE_* variables are dropped, `env`
 * added, `stdin` piped in.
 */
export function spawnCli(args: string[], options: { cwd: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd, env: cliEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.end(options.stdin ?? '');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`einvoice ${args.join(' ')} did not finish\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
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

export interface CliWorld {
  /** The sandbox of this test file (set before its tests run). */
  readonly sb: Sandbox;
  /** This test file's own folder; the CLI's data folder is `<tmp>/data`. */
  readonly tmp: string;
  /** The built CLI in `tmp`, on that data folder, with the given extra variables. */
  run(args: string[], options?: { stdin?: string; env?: Record<string, string>; timeoutMs?: number }): Promise<CliRun>;
}

/**
 * One test file's setting: builds the CLI, starts a sandbox on 127.0.0.1 and makes a
 * temporary folder before the file's tests; closes and removes them after.
 */
export function cliWorld(prefix: string, sandbox: SandboxOptions, env: Record<string, string> = { EINVOICE_KEYCHAIN: 'off' }): CliWorld {
  let sb: Sandbox | undefined;
  let tmp = '';
  beforeAll(async () => {
    buildOnce();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    sb = await startSandbox({ port: 0, ...sandbox });
  }, 300_000);
  afterAll(async () => {
    await sb?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });
  return {
    get sb() {
      if (!sb) throw new Error('the sandbox starts in beforeAll');
      return sb;
    },
    get tmp() {
      return tmp;
    },
    run: (args, options = {}) =>
      spawnCli(args, {
        cwd: tmp,
        stdin: options.stdin ?? '',
        env: { EINVOICE_DATA_DIR: path.join(tmp, 'data'), ...env, ...options.env },
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      }),
  };
}
