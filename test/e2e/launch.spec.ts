import { expect, test } from './fixtures';

test('the launch code becomes an HttpOnly cookie; no address the page visited holds the secret or a live code', async ({ page, context, host }, testInfo) => {
  const visited: string[] = [];
  page.on('request', (request) => visited.push(request.url()));
  page.on('framenavigated', (frame) => visited.push(frame.url()));
  const launchUrl = await host.newLaunchUrl();
  await page.goto(launchUrl);
  await expect(page.getByRole('navigation')).toBeVisible();

  // The code is gone from the address bar and from this tab's history entry.
  await expect.poll(() => page.url()).toBe(`${host.origin}/`);
  // Back leads to the blank tab it came from, and forward to the address without the code.
  await page.goBack();
  expect(page.url()).toBe('about:blank');
  await page.goForward();
  expect(page.url()).toBe(`${host.origin}/`);
  await expect(page.getByRole('navigation')).toBeVisible();
  visited.push(...(await page.evaluate(() => [location.href, document.referrer])));
  expect(visited.length).toBeGreaterThan(3);
  for (const url of visited) expect(url).not.toContain(host.secret);

  // The secret lives only in the HttpOnly, SameSite=Strict cookie: no script, storage or history sees it.
  const cookies = await context.cookies(host.origin);
  expect(cookies).toEqual([expect.objectContaining({ value: host.secret, httpOnly: true, sameSite: 'Strict', path: '/' })]);
  const seenByScript = await page.evaluate(() => [document.cookie, JSON.stringify(sessionStorage), JSON.stringify(localStorage)].join(' '));
  expect(seenByScript).not.toContain(host.secret);

  // Server-sent events and calls work on the cookie alone.
  await expect(page.getByRole('status')).toHaveText(/Đang trực tuyến/);

  // The same link again, in another browser: used once, so refused, and that browser gets no cookie.
  const other = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 1366, height: 768 } });
  const stranger = await other.newPage();
  const response = await stranger.goto(launchUrl);
  expect(response?.status()).toBe(401);
  await expect(stranger.getByText('Liên kết mở ứng dụng này đã được dùng hoặc đã hết hạn', { exact: false })).toBeVisible();
  await stranger.screenshot({ path: testInfo.outputPath('launch-link-used.png') });
  expect(await other.cookies(host.origin)).toEqual([]);
  expect(await stranger.evaluate(async () => (await fetch('/api/call/app.info', { method: 'POST', body: '{}' })).status)).toBe(401);
  await other.close();
});

test('a reload and a second tab of the signed-in browser keep working without any code', async ({ app, context, host }) => {
  await app.reload();
  await expect(app.getByRole('status')).toHaveText(/Đang trực tuyến/);
  const second = await context.newPage();
  await second.goto(`${host.origin}/`);
  await expect(second.getByRole('status')).toHaveText(/Đang trực tuyến/);
  expect(second.url()).not.toContain(host.secret);
});
