import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from './bundle';
import type { SandboxOptions } from '../../main/sandbox';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface SandboxProcess {
  origin: string;
  baseUrl: string;
  devToken: string;
  stop(): void;
}

/**
 * The sandbox in a process of its own, for benchmarks: its rendering and serving then do not
 * share the measured process's event loop. `work` is a scratch folder for the bundle.
 */
export async function startSandboxProcess(options: SandboxOptions, work: string): Promise<SandboxProcess> {
  const entry = path.join(work, 'sandbox-entry.ts');
  fs.writeFileSync(
    entry,
    `import { startSandbox } from ${JSON.stringify(path.join(root, 'main', 'sandbox'))};
     startSandbox(${JSON.stringify({ port: 0, ...options })}).then((s) => {
       console.log(JSON.stringify({ origin: s.origin, baseUrl: s.baseUrl, devToken: s.devToken }));
       process.on('SIGTERM', () => s.close().then(() => process.exit(0)));
     });`,
  );
  const bundle = path.join(work, 'sandbox.cjs');
  await bundleForNode(entry, bundle);
  const child = spawn(process.execPath, [bundle], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, EINVOICE_FONT_DIR: path.join(root, 'assets', 'fonts') },
  });
  const ready = await new Promise<Omit<SandboxProcess, 'stop'>>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`sandbox exited (${code})`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.trim()) as Omit<SandboxProcess, 'stop'>);
    });
  });
  return { ...ready, stop: () => void child.kill('SIGTERM') };
}
