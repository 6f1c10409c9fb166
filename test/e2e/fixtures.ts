import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startHostProcess, type HostProcess as RunningHost } from '../integration/browser-host/host-process';

export interface HostProcess extends Omit<RunningHost, 'child'> {
  process: RunningHost['child'];
}

/**
 * Starts the built browser host (`out/main/browser-host.cjs`) as a real process with its own data
 * folder. A page opens it through `newLaunchUrl()`: each URL's one-time code is exchanged for the
 * host's cookie, as a person's browser does.
 */
export async function launchHost(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<HostProcess> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-e2e-'));
  const { child, ...host } = await startHostProcess({ dataDir, ...(options.env ? { env: options.env } : {}) });
  return { ...host, process: child };
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
    await page.goto(await host.newLaunchUrl());
    await expect(page.getByRole('navigation')).toBeVisible();
    await use(page);
  },
});

export { expect };
