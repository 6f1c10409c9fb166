import { expect, test } from './fixtures';

const AREAS_VI = ['Hóa đơn nháp', 'Hàng đợi phát hành', 'Hóa đơn đã phát hành', 'Tải hóa đơn', 'Hàng đợi email', 'Mẫu hóa đơn', 'Cài đặt'];
const AREAS_EN = ['Drafts', 'Issue queue', 'Issued invoices', 'Downloads', 'Email queue', 'Templates', 'Settings'];

test('opens in Vietnamese with all seven areas reachable by their accessible names', async ({ app }) => {
  await expect(app.locator('html')).toHaveAttribute('lang', 'vi');
  const nav = app.getByRole('navigation', { name: 'Điều hướng chính' });
  for (const name of AREAS_VI) {
    await nav.getByRole('button', { name }).click();
    await expect(app.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(nav.getByRole('button', { name })).toHaveAttribute('aria-current', 'page');
  }
});

test('areas are reachable from the keyboard with Alt+1…7', async ({ app }) => {
  await app.keyboard.press('Alt+7');
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn đã phát hành' })).toBeVisible();
  await app.keyboard.press('Alt+6');
  await expect(app.getByRole('heading', { level: 1, name: 'Hàng đợi phát hành' })).toBeVisible();
  await app.keyboard.press('Alt+3');
  await expect(app.getByRole('heading', { level: 1, name: 'Hàng đợi email' })).toBeVisible();
  await app.keyboard.press('Alt+1');
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
});

test('the language switch changes the visible text and survives a reload', async ({ app }) => {
  await app.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'English' });
  const nav = app.getByRole('navigation', { name: 'Main navigation' });
  for (const name of AREAS_EN) await expect(nav.getByRole('button', { name })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Hóa đơn nháp' })).toHaveCount(0);
  await expect(app.locator('html')).toHaveAttribute('lang', 'en');

  await app.reload();
  await expect(app.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  await expect(app.getByRole('heading', { level: 1, name: 'Drafts' })).toBeVisible();

  await app.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'Tiếng Việt' });
  await expect(app.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
});

test('shows the connection state and the app version from main', async ({ app }) => {
  await expect(app.getByRole('status')).toHaveText(/Đang trực tuyến/);
  await expect(app.getByText(/^Phiên bản \d+\.\d+\.\d+/)).toBeVisible();
});

test('the secret leaves the address bar, and a tab without it cannot call the app', async ({ app, host, browser }) => {
  expect(app.url()).not.toContain(host.secret);
  const stranger = await browser.newPage();
  await stranger.goto(host.origin + '/');
  const result = await stranger.evaluate(async () => (await fetch('/api/call/app.info', { method: 'POST', body: '{}' })).status);
  expect(result).toBe(401);
  await stranger.close();
});

test('makes the first number and date formats on a worker thread as the page starts, allowed by its policy', async ({ page, host }) => {
  const said: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(m.text());
  });
  const started = page.waitForEvent('worker', { timeout: 15_000 });
  await page.goto(await host.newLaunchUrl());
  const worker = await started;
  expect(worker.url()).toMatch(/\/assets\/warm-formats\.worker-[\w-]+\.js$/);
  // It ends once it has made them (the page ends it when it says so, or when it fails: then the page warns).
  await worker.waitForEvent('close', { timeout: 15_000 });
  await expect(page.getByRole('navigation')).toBeVisible();
  expect(said).toEqual([]);
});
