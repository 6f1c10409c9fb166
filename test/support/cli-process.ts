import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds main, preload, renderer and CLI into out/ (serialised with any other build on this machine). */
export function buildOnce(): void {
  execFileSync('flock', ['/tmp/build.lock', process.execPath, 'scripts/build.mjs', '--quiet'], { cwd: root, stdio: 'inherit', timeout: 240_000 });
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
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('EINVOICE_') && !k.startsWith('VITEST')) env[k] = v;
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin', 'einvoice.cjs'), ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
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
