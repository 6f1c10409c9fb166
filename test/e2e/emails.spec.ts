import { expect, hostCall, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';
import fs from 'node:fs';

test.use({ viewport: { width: 1366, height: 768 } });

const env = sandboxWithHost({ seed: 8, invoiceCount: 300, quirks: { emailEnvelopeFailure: true } });

test('import a CSV with good and bad rows, send, filter failed, retry', async ({ page }) => {
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi email' })).toBeVisible();

  const ids = env.sandbox.catalogue.list('withCode').slice(0, 3);
  const csv = [
    'TransactionID;ReceiverName;ReceiverEmail;CCEmail;BCCEmail;ReplyEmail',
    `${ids[0]};Nguyễn Văn An;"an@example.com, ke.toan@example.com";;;`,
    `${ids[1]};Sai địa chỉ;khong-phai-email;;;`,
    `${ids[2]};Trần Thị Bình;binh@example.com;;;`,
    ';Thiếu mã;x@example.com;;;',
    `NOPE-404;Không có hóa đơn;c@example.com;;;`,
  ].join('\r\n');
  // The import opens from the toolbar, over the table, and its result stays where the file was chosen.
  await page.getByRole('button', { name: 'Nhập CSV' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Nhập từ tệp CSV' });
  await importDialog.getByRole('combobox', { name: 'Loại hóa đơn của tệp' }).selectOption('withCode');
  await expect(importDialog.getByText('Chưa chọn tệp')).toBeVisible();
  await importDialog.getByLabel('Chọn tệp CSV').setInputFiles({ name: 'khach-hang.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`, 'utf8') });

  // Bad rows are listed with their line and reason; the good ones are queued regardless.
  const bad = importDialog.getByTestId('email-bad-rows');
  await expect(bad.getByRole('listitem')).toHaveCount(2);
  await expect(bad.getByRole('listitem').nth(0)).toContainText('Dòng 3');
  await expect(bad.getByRole('listitem').nth(0)).toContainText('khong-phai-email');
  await expect(bad.getByRole('listitem').nth(1)).toContainText('Dòng 5');
  await expect(importDialog.getByText('Đã thêm 3 email; 2 dòng lỗi; 0 hóa đơn đã gửi hoặc đang chờ nên bỏ qua.')).toBeInViewport();
  await expect(importDialog.getByText('khach-hang.csv')).toBeVisible();
  await importDialog.getByRole('button', { name: 'Đóng' }).click();
  await expect(importDialog).toBeHidden();

  // Sent without a click: two delivered (status 3 or 4 despite success:false), one failed alone.
  const filters = page.getByRole('group', { name: 'Lọc theo trạng thái' });
  await expect(filters.getByRole('button', { name: /^Lỗi 1$/ })).toBeVisible({ timeout: 20_000 });
  const delivered = async () => {
    const sent = Number((await filters.getByRole('button', { name: /^Đã gửi \d+$/ }).textContent())!.match(/\d+/)![0]);
    const requested = Number((await filters.getByRole('button', { name: /^Đã yêu cầu gửi \d+$/ }).textContent())!.match(/\d+/)![0]);
    return sent + requested;
  };
  await expect.poll(delivered, { timeout: 20_000 }).toBe(2);
  for (const row of await page.locator('[role=row][data-state=sent], [role=row][data-state=requested]').all()) {
    const words = (await row.getAttribute('data-state')) === 'sent' ? /^Đã gửi/ : /^Dịch vụ sẽ gửi$/;
    await expect(row.locator('[data-col=result]')).toHaveText(words);
  }
  expect(new Set(env.sandbox.sentEmails().map((e) => e.TransactionID))).toEqual(new Set([ids[0], ids[2]]));

  // Filter failed: only the missing invoice, with its reason.
  await filters.getByRole('button', { name: /^Lỗi 1$/ }).click();
  await expect(filters.getByRole('button', { name: /^Lỗi 1$/ })).toHaveAttribute('aria-pressed', 'true');
  const table = page.getByRole('table', { name: 'Danh sách email trong hàng đợi' });
  const rows = table.locator('[role=row][data-tx]');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('NOPE-404');
  // The result column speaks words; the error code appears once, and no status number is shown.
  const result = rows.first().locator('[data-col=result]');
  await expect(result).toContainText('Không có hóa đơn nào thuộc loại đã chọn mang mã tra cứu này');
  expect(((await result.textContent()) ?? '').split('InvoiceNotExist').length - 1).toBe(1);
  await expect(table).not.toContainText('Mã trạng thái');

  // Retry: selected from the keyboard, sent again, judged again.
  const before = env.sandbox.requests({ op: 'sendemail' }).length;
  const box = page.getByRole('checkbox', { name: 'Chọn email NOPE-404' });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await page.getByRole('button', { name: 'Gửi lại' }).click();
  await expect(page.getByText('Đã xếp 1 email vào hàng đợi để gửi.')).toBeInViewport();
  await expect.poll(() => env.sandbox.requests({ op: 'sendemail' }).length, { timeout: 20_000 }).toBeGreaterThan(before);
  await expect(rows.first().locator('[data-col=attempts]')).toHaveText('2', { timeout: 20_000 });
  await expect(rows.first()).toHaveAttribute('data-state', 'failed');

  // Shift+click selects a range.
  await filters.getByRole('button', { name: /^Tất cả \d+$/ }).click();
  await expect(rows).toHaveCount(3);
  await rows.nth(0).getByRole('checkbox').click();
  await rows
    .nth(2)
    .getByRole('checkbox')
    .click({ modifiers: ['Shift'] });
  await expect(page.getByText('Đã chọn 3')).toBeVisible();
  for (let i = 0; i < 3; i++) await expect(rows.nth(i).getByRole('checkbox')).toBeChecked();

  // The same file imported again emails nobody twice: the two delivered invoices are skipped row
  // by row with their reason; only the invoice that was never delivered is queued again.
  const recorded = env.sandbox.sentEmails().length;
  const requestsBefore = env.sandbox.requests({ op: 'sendemail' }).length;
  await page.getByRole('button', { name: 'Nhập CSV' }).click();
  await importDialog.getByRole('combobox', { name: 'Loại hóa đơn của tệp' }).selectOption('withCode');
  await importDialog.getByLabel('Chọn tệp CSV').setInputFiles({ name: 'khach-hang.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}`, 'utf8') });
  await expect(importDialog.getByText('Đã thêm 1 email; 2 dòng lỗi; 2 hóa đơn đã gửi hoặc đang chờ nên bỏ qua.')).toBeVisible();
  const skipped = importDialog.getByTestId('email-skipped-rows').getByRole('listitem');
  await expect(skipped).toHaveCount(2);
  await expect(skipped.filter({ hasText: ids[0]! })).toContainText(
    /Dòng 2: .*(đã gửi ngày|dịch vụ đã nhận ngày) \d\d\/\d\d tới an@example\.com, ke\.toan@example\.com: bỏ qua/,
  );
  await expect(skipped.filter({ hasText: ids[2]! })).toContainText('Dòng 4');
  await expect.poll(() => env.sandbox.requests({ op: 'sendemail' }).length, { timeout: 20_000 }).toBe(requestsBefore + 1);
  expect(env.sandbox.sentEmails().length).toBe(recorded);
  // "Send again" is the person's explicit, confirmed choice: then each goes exactly once more.
  page.once('dialog', (d) => void d.accept());
  await importDialog.getByRole('button', { name: 'Gửi lại 2 hóa đơn này' }).click();
  await expect(importDialog.getByText('Đã xếp 2 email vào hàng đợi để gửi.')).toBeVisible();
  await expect.poll(() => env.sandbox.sentEmails().length, { timeout: 20_000 }).toBe(recorded + 2);
  expect(
    env.sandbox
      .sentEmails()
      .slice(recorded)
      .map((e) => e.TransactionID)
      .sort(),
  ).toEqual([ids[0], ids[2]].sort());
  await importDialog.getByRole('button', { name: 'Đóng' }).click();

  // English names too.
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'English' });
  await expect(page.getByRole('group', { name: 'Filter by state' }).getByRole('button', { name: /^Failed 1$/ })).toBeVisible();
});

test('add one by hand, edit its recipients, cancel, send again, export and remove', async ({ page }) => {
  test.setTimeout(90_000);
  await env.sandbox.stop(); // offline: the entry waits in the queue
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  const id = env.sandbox.catalogue.list('withoutCode')[0]!;

  await page.getByRole('button', { name: 'Thêm email' }).click();
  const form = page.getByRole('dialog', { name: 'Thêm email thủ công' }).getByRole('form', { name: 'Thêm email thủ công' });
  await expect(form).toBeInViewport();
  await form.getByLabel('Mã tra cứu (TransactionID)').fill(id);
  await form.getByLabel('Tên người nhận').fill('Lê Văn Cường');
  await form.getByLabel(/^Email người nhận/).fill('cuong@example.com, sai-dia-chi');
  await form.getByRole('combobox', { name: 'Loại hóa đơn' }).selectOption('withoutCode');
  await form.getByRole('button', { name: 'Thêm vào hàng đợi' }).click();
  await expect(form.getByRole('alert')).toContainText('sai-dia-chi');
  await page.screenshot({ path: test.info().outputPath('vi-Email-add-refused.png') });
  await form.getByLabel(/^Email người nhận/).fill('cuong@example.com, ketoan@example.com');
  await form.getByRole('button', { name: 'Thêm vào hàng đợi' }).click();
  await expect(page.getByText('Đã thêm vào hàng đợi.')).toBeInViewport();
  await expect(form).toBeHidden();
  // The focus is back on the button that opened the form, not lost on the page.
  await expect(page.getByRole('button', { name: 'Thêm email' })).toBeFocused();

  const row = page.locator(`[role=row][data-tx="${id}"]`);
  await expect(row).toHaveAttribute('data-state', 'queued');
  await expect(page.getByTestId('email-sender-status')).toContainText('Mất kết nối');
  await expect(row).toContainText('cuong@example.com;ketoan@example.com');

  // Edit the recipients of the unsent entry.
  await page.getByRole('checkbox', { name: `Chọn email ${id}` }).check();
  await page.getByRole('button', { name: 'Sửa người nhận' }).click();
  const dialog = page.getByRole('dialog', { name: `Sửa người nhận của ${id}` });
  await dialog.getByLabel(/^Email người nhận/).fill('moi@example.com');
  await dialog.getByLabel('CC', { exact: true }).fill('sep@example.com');
  await dialog.getByRole('button', { name: 'Lưu' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('moi@example.com');

  // Cancel, then send again once the service is back.
  await page.getByRole('checkbox', { name: `Chọn email ${id}` }).check();
  await page.getByRole('button', { name: 'Hủy gửi' }).click();
  await expect(row).toHaveAttribute('data-state', 'cancelled');
  await env.sandbox.start();
  await page.getByRole('checkbox', { name: `Chọn email ${id}` }).check();
  await page.getByRole('button', { name: 'Gửi lại' }).click();
  // No click on "Gửi ngay": the queue goes out by itself once the connection check sees the service.
  await expect(row).toHaveAttribute('data-state', /^(sent|requested)$/, { timeout: 45_000 });
  const mail = env.sandbox.sentEmails().find((e) => e.TransactionID === id)!;
  expect(mail.to).toEqual(['moi@example.com']);
  expect(mail.cc).toEqual(['sep@example.com']);

  // Export the queue to CSV.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Xuất CSV' }).click()]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  // Every cell quoted (a spreadsheet never runs a cell as a formula), with a BOM for Vietnamese.
  expect(csv.startsWith('\uFEFF"TransactionID","ReceiverName","ReceiverEmail"')).toBe(true);
  expect(csv).toContain(`"${id}","Lê Văn Cường","moi@example.com","sep@example.com"`);

  // Remove it.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('checkbox', { name: `Chọn email ${id}` }).check();
  await page.getByRole('button', { name: 'Xóa khỏi hàng đợi' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('Không có email nào.')).toBeVisible();
});

test('a large import says it is working until its result is in', async ({ page }) => {
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await page.getByRole('button', { name: 'Nhập CSV' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Nhập từ tệp CSV' });
  const n = 40_000;
  const lines = ['TransactionID;ReceiverName;ReceiverEmail'];
  for (let i = 0; i < n; i++) lines.push(`LON-${i};Khách ${i};khach${i}@example.com`);
  await importDialog.getByLabel('Chọn tệp CSV').setInputFiles({ name: 'ca-nam.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n'), 'utf8') });
  const working = importDialog.getByRole('status').filter({ hasText: 'Đang nhập ca-nam.csv…' });
  await expect(working).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('vi-Email-import-working.png') });
  // The counts are written the Vietnamese way.
  await expect(importDialog.getByText('Đã thêm 40.000 email; 0 dòng lỗi; 0 hóa đơn đã gửi hoặc đang chờ nên bỏ qua.')).toBeVisible({ timeout: 30_000 });
  await expect(working).toHaveCount(0);
});

test('the queue opens whole: its first frame shows rows, read once; a slow answer does not hold the screen back', async ({ page, host }) => {
  const entries = Array.from({ length: 30 }, (_, i) => ({ transactionId: `OPEN-${i}`, receiverEmail: `k${i}@example.com`, kind: 'withCode' }));
  await hostCall(host, 'emails.add', { entries });
  await page.goto(await host.newLaunchUrl());
  const nav = page.getByRole('navigation');
  const queue = nav.getByRole('button', { name: 'Hàng đợi email' });
  await queue.waitFor();
  let reads = 0;
  page.on('request', (r) => void (r.url().endsWith('/api/call/emails.list') && reads++));
  // Every frame from before the click until rows show: the screen's heading never comes without them.
  const frames = page.evaluate(
    () =>
      new Promise<Array<{ heading: boolean; rows: number }>>((resolve) => {
        const seen: Array<{ heading: boolean; rows: number }> = [];
        const tick = () => {
          const heading = [...document.querySelectorAll('h1')].some((h) => h.textContent === 'Hàng đợi email');
          const rows = document.querySelectorAll('[role=row][data-tx]').length;
          seen.push({ heading, rows });
          if (rows > 0 || seen.length > 600) resolve(seen);
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
  await queue.click();
  const seen = await frames;
  expect(seen.filter((f) => f.heading).length).toBeGreaterThan(0);
  expect(seen.filter((f) => f.heading && f.rows === 0)).toEqual([]);
  const rows = page.getByRole('table', { name: 'Danh sách email trong hàng đợi' }).locator('[role=row][data-tx]');
  await expect(rows.first()).toBeVisible();
  expect(reads).toBe(1);

  // A slow answer: the screen opens after a short wait all the same, and its rows follow.
  await nav.getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await page.route('**/api/call/emails.list', async (route) => {
    await new Promise((r) => setTimeout(r, 2000));
    await route.continue();
  });
  const clicked = Date.now();
  await queue.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi email' })).toBeVisible();
  expect(Date.now() - clicked).toBeLessThan(1500);
  await expect(rows).toHaveCount(0);
  await expect(rows.first()).toBeVisible({ timeout: 10_000 });

  // Another area chosen while the queue's first page is out: that area stays.
  await nav.getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await queue.click();
  await nav.getByRole('button', { name: 'Cài đặt' }).click();
  await page.waitForTimeout(2500);
  await expect(page.getByRole('heading', { level: 1, name: 'Cài đặt' })).toBeVisible();
  await page.unrouteAll();
});

test('scrolling either way: the rows in view are drawn, a dozen more ahead and only a few behind', async ({ page, host }) => {
  const entries = Array.from({ length: 600 }, (_, i) => ({ transactionId: `CUON-${i}`, receiverEmail: `c${i}@example.com`, kind: 'withCode' }));
  await hostCall(host, 'emails.add', { entries });
  await page.goto(await host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  const scroller = page.getByTestId('email-scroll');
  await expect(scroller.locator('[role=row][data-tx]').first()).toBeVisible();
  // After each move has settled: which rows exist around the view (rows are 40 px high).
  const around = () =>
    scroller.evaluate((el) => {
      const drawn = [...el.querySelectorAll<HTMLElement>('[role=row][data-tx]')].map((r) => Number(r.dataset.index));
      const first = Math.floor(el.scrollTop / 40);
      const last = Math.ceil((el.scrollTop + el.clientHeight) / 40) - 1;
      const missing = [];
      for (let i = first; i <= last; i++) if (!drawn.includes(i)) missing.push(i);
      return { missing, above: drawn.filter((i) => i < first).length, below: drawn.filter((i) => i > last).length };
    });
  const move = (px: number) => scroller.evaluate((el, by) => void (el.scrollTop += by), px);
  await move(12_000); // the middle of the queue: a dozen rows each way exist
  for (const [px, ahead, behind] of [
    [400, 'below', 'above'],
    [-400, 'above', 'below'],
    [80, 'below', 'above'],
    [-80, 'above', 'below'],
  ] as const) {
    for (let step = 0; step < 8; step++) {
      await move(px);
      await expect.poll(async () => (await around())[ahead]).toBeGreaterThanOrEqual(12);
      const rows = await around();
      expect(rows.missing).toEqual([]);
      expect(rows[behind]).toBeLessThanOrEqual(4);
    }
  }
  // At either end the only way on is away from it: the rows kept ready are on that side, whichever way the view came.
  await scroller.evaluate((el) => void (el.scrollTop = 0));
  await expect.poll(async () => (await around()).below).toBeGreaterThanOrEqual(12);
  await scroller.evaluate((el) => void (el.scrollTop = el.scrollHeight));
  await expect.poll(async () => (await around()).above).toBeGreaterThanOrEqual(12);
});
