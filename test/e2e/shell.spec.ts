import type { Page } from '@playwright/test';
import { emptyLine } from '../../common/money';
import { expect, openNewDraft, test } from './fixtures';

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

test('an open draft speaks the language chosen at once: its bar, its cells, its totals', async ({ page, host }) => {
  await openNewDraft(page, host, (draft) => ({
    ...draft,
    lines: [{ ...emptyLine(1), ItemName: 'Cà phê', Quantity: '2', UnitPrice: '25000', VATRateName: '8%' }],
  }));
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1' })).toHaveValue('2');
  await expect(page.getByRole('button', { name: '← Danh sách' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'English' });
  await expect(page.getByRole('button', { name: '← List' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save (Ctrl+S)' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Quantity, line 1' })).toHaveValue('2');
  await expect(page.getByLabel('Amount in words')).toBeVisible();
  await expect(page.getByRole('button', { name: '← Danh sách' })).toHaveCount(0);
  // Typing still updates the totals after the switch.
  await page.getByRole('textbox', { name: 'Quantity, line 1' }).fill('3');
  await expect(page.getByTestId('total-amount')).toHaveText('81.000 VND');
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'Tiếng Việt' });
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1' })).toHaveValue('3');
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
  const started = page.waitForEvent('worker', { predicate: (w) => w.url().includes('warm-formats'), timeout: 15_000 });
  await page.goto(await host.newLaunchUrl());
  const worker = await started;
  expect(worker.url()).toMatch(/\/assets\/warm-formats\.worker-[\w-]+\.js$/);
  // It ends once it has made them (the page ends it when it says so, or when it fails: then the page warns).
  await worker.waitForEvent('close', { timeout: 15_000 });
  await expect(page.getByRole('navigation')).toBeVisible();
  expect(said).toEqual([]);
});

test('the calls to the app go from a worker thread, and from the page where that thread cannot load', async ({ browser, host }) => {
  const here = await browser.newPage();
  const said: string[] = [];
  here.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') said.push(m.text());
  });
  const started = here.waitForEvent('worker', { predicate: (w) => w.url().includes('http-calls'), timeout: 15_000 });
  await here.goto(await host.newLaunchUrl());
  expect((await started).url()).toMatch(/\/assets\/http-calls\.worker-[\w-]+\.js$/);
  // Its answers came back: the version comes from main, the drafts' list from the store.
  await expect(here.getByText(/^Phiên bản \d+\.\d+\.\d+/)).toBeVisible();
  await expect(here.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  // Once the worker has started, the calls leave from it: the page's own resource timings list
  // none of a round of calls (two areas opened) that the host did get.
  const callsFromPage = (page: typeof here) =>
    page.evaluate(() => performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname.startsWith('/api/call/')).length);
  const sent: string[] = [];
  here.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/call/')) sent.push(r.url());
  });
  await expect
    .poll(async () => {
      await here.evaluate(() => performance.clearResourceTimings());
      const before = sent.length;
      await here.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
      await expect(here.getByText('Không có email nào.')).toBeVisible();
      await here.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
      await expect(here.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
      return sent.length > before ? await callsFromPage(here) : 'no calls';
    })
    .toBe(0);
  expect(said).toEqual([]);
  await here.close();

  const blocked = await browser.newPage();
  const warned: string[] = [];
  blocked.on('console', (m) => {
    if (m.type() === 'warning') warned.push(m.text());
  });
  await blocked.route(/\/assets\/http-calls\.worker-[\w-]+\.js$/, (route) => route.abort());
  await blocked.goto(await host.newLaunchUrl());
  await expect(blocked.getByText(/^Phiên bản \d+\.\d+\.\d+/)).toBeVisible();
  await expect(blocked.getByRole('status')).toHaveText(/Đang trực tuyến/);
  expect(warned.some((w) => w.startsWith('Calls go from the page'))).toBe(true);
  expect(await callsFromPage(blocked)).toBeGreaterThan(0);
  await blocked.close();
});

test('the other areas load as the app starts, in a chunk V8 is told to compile whole as it comes in', async ({ page, host }) => {
  const scripts = new Map<string, string>();
  page.on('response', (r) => {
    if (r.url().endsWith('.js')) void r.text().then((text) => scripts.set(new URL(r.url()).pathname, text));
  });
  await page.goto(await host.newLaunchUrl());
  const isLater = (p: string) => /\/assets\/later-areas-[\w-]+\.js$/.test(p);
  // Loaded before anyone clicks: the drafts the app opens on do not need it.
  await expect.poll(() => [...scripts.keys()].some(isLater)).toBe(true);
  const later = [...scripts].find(([p]) => isLater(p))![1];
  expect(later.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  expect(later).toContain('email-scroll');
  // Only that chunk: compiling the code the start screen runs whole would delay the first paint;
  // and the email queue's code is in that chunk only.
  for (const [name, text] of [...scripts].filter(([p]) => !isLater(p) && !p.includes('.worker'))) {
    expect(text.includes('allFunctionsCalledOnLoad'), name).toBe(false);
    expect(text.includes('email-scroll'), name).toBe(false);
  }
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await expect(page.getByRole('table', { name: 'Danh sách email trong hàng đợi' })).toBeVisible();
});

/** Holds the later areas' chunk until `release` is called with what to do with it. */
async function holdLaterAreas(page: Page) {
  let release: (how: 'continue' | 'abort') => void = () => {};
  const decided = new Promise<'continue' | 'abort'>((resolve) => (release = resolve));
  await page.route(/\/assets\/later-areas-[\w-]+\.js(\?try=\d+)?$/, async (route) => ((await decided) === 'continue' ? route.continue() : route.abort()));
  return (how: 'continue' | 'abort') => release(how);
}

test('a click before the other areas are in says the screen is opening, then shows it', async ({ page, host }) => {
  const release = await holdLaterAreas(page);
  await page.goto(await host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi email' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Đang mở màn hình…' })).toBeVisible();
  release('continue');
  await expect(page.getByRole('table', { name: 'Danh sách email trong hàng đợi' })).toBeVisible();
  await expect(page.getByText('Đang mở màn hình…')).toBeHidden();
});

test('when the other areas cannot load, those areas say so in words, the drafts still work, and reloading the screen asks again', async ({ page, host }) => {
  const release = await holdLaterAreas(page);
  await page.goto(await host.newLaunchUrl());
  const nav = page.getByRole('navigation', { name: 'Điều hướng chính' });
  await nav.getByRole('button', { name: 'Hàng đợi email' }).click();
  await expect(page.getByText('Đang mở màn hình…')).toBeVisible();
  release('abort');
  await expect(page.getByRole('alert')).toContainText('Màn hình này gặp sự cố');
  await nav.getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await expect(page.getByRole('alert')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Tạo hóa đơn nháp' })).toBeVisible();
  // Opened again, the area asks for its code again (still refused here).
  await page.unrouteAll();
  const again = await holdLaterAreas(page);
  const asked = page.waitForRequest(/\/assets\/later-areas-[\w-]+\.js\?try=1$/);
  await nav.getByRole('button', { name: 'Hàng đợi email' }).click();
  await asked;
  await expect(page.getByText('Đang mở màn hình…')).toBeVisible();
  again('abort');
  await expect(page.getByRole('alert')).toContainText('Màn hình này gặp sự cố');
  // Once the code can come, "Reload the screen" brings the screen.
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Tải lại màn hình' }).click();
  await expect(page.getByRole('table', { name: 'Danh sách email trong hàng đợi' })).toBeVisible();
  await expect(page.getByRole('alert')).toBeHidden();
});
