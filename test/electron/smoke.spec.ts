import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';
import { electronBinary } from '../../scripts/electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = electronBinary();
if (!binary.path) console.log(`[electron smoke] skipped: ${binary.reason}`);

test.describe('Electron smoke', () => {
  test.skip(!binary.path, `Skipped: ${binary.reason}`);

  test('the window opens, is locked down, and app.info answers through the preload', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-electron-'));
    const app = await electron.launch({
      executablePath: binary.path,
      args: [root],
      env: { ...process.env, EINVOICE_DATA_DIR: dataDir, ELECTRON_NO_UPDATER: '1' },
    });
    try {
      const page = await app.firstWindow();
      await expect(page.getByRole('navigation')).toBeVisible();
      expect(page.url()).toMatch(/^app:\/\/einvoice\//);
      const info = await page.evaluate(async () => {
        const host = (window as unknown as { einvoice: Record<string, (r: unknown) => Promise<unknown>> }).einvoice;
        return host['app.info']!({});
      });
      expect(info).toMatchObject({ ok: true, value: { host: 'electron', dataDir } });
      // No Node in the page, and no way to open another window.
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => window.open('https://example.com') === null)).toBe(true);
      // A worker thread starts from app:// under the window's policy (it makes the first number formats).
      const worker = page.waitForEvent('worker', { timeout: 15_000 });
      await page.reload();
      expect((await worker).url()).toMatch(/^app:\/\/einvoice\/assets\/warm-formats\.worker-[\w-]+\.js$/);
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
