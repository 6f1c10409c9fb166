import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';

export interface HostProcess {
  origin: string;
  secret: string;
  launchUrl: string;
  dataDir: string;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Starts the built browser host (`out/main/browser-host.cjs`) as a real process with its own data folder. */
export async function launchHost(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<HostProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-e2e-'));
  const child = spawn(process.execPath, [path.join(root, 'out', 'main', 'browser-host.cjs'), '--data-dir', dataDir, '--port', '0'], {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const ready = await new Promise<{ origin: string; secret: string }>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`browser host did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /EINVOICE_BROWSER_HOST (\{.*\})/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(JSON.parse(match[1]!));
      }
    });
    child.on('exit', (code) => reject(new Error(`browser host exited with ${code}: ${stderr}`)));
  });
  return {
    ...ready,
    launchUrl: `${ready.origin}/#k=${ready.secret}`,
    dataDir,
    process: child,
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

export const test = base.extend<{ host: HostProcess; app: Page }>({
  // Playwright reads the fixtures a fixture needs from this (empty) destructuring pattern.
  // eslint-disable-next-line no-empty-pattern
  host: async ({}, use) => {
    const host = await launchHost();
    await use(host);
    await host.stop();
    fs.rmSync(host.dataDir, { recursive: true, force: true });
  },
  app: async ({ page, host }, use) => {
    await page.goto(host.launchUrl);
    await expect(page.getByRole('navigation')).toBeVisible();
    await use(page);
  },
});

export { expect };
