import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { SECRET_HEADER } from '../../common/ipc/channels';
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

/** One contract call to the host, as the renderer makes it; throws with the error when it fails. */
export async function hostCall<T>(host: HostProcess, name: string, body: unknown): Promise<T> {
  const response = await fetch(`${host.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SECRET_HEADER]: host.secret },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as { ok: boolean; value: T; error?: unknown };
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`);
  return result.value;
}

/**
 * Makes a draft (a new one's fields, changed by `fill`) and opens it in the editor, as the app does
 * when it starts again with that draft open. Returns the draft's id.
 */
export async function openNewDraft<D extends object = Record<string, unknown>>(page: Page, host: HostProcess, fill: (draft: D) => object): Promise<string> {
  const record = await hostCall<{ id: string; draft: D }>(host, 'drafts.create', {});
  await hostCall(host, 'drafts.save', { id: record.id, draft: fill(record.draft) });
  await page.goto(await host.newLaunchUrl());
  await page.evaluate((id) => sessionStorage.setItem('einvoice.openDraft', id), record.id);
  await page.reload();
  return record.id;
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
