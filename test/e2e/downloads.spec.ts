import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';

test.use({ viewport: { width: 1366, height: 768 } });

const env = sandboxWithHost({ seed: 21, invoiceCount: 600 });

test('paste IDs, type a folder, watch progress, retry the failed ones', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Tải hóa đơn' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tải hóa đơn' })).toBeVisible();

  const ids = env.sandbox.catalogue.list('withCode').slice(0, 300);
  const out = path.join(env.host.dataDir, 'hoa-don');
  // Pasted with a duplicate and blank lines: counted, dropped.
  // A list typed on one line splits on commas, semicolons, tabs and spaces.
  await page.getByLabel('Mã tra cứu (TransactionID), mỗi dòng một mã').fill(`${ids[0]},${ids[1]};${ids[2]}\t${ids[3]} ${ids[4]}`);
  await expect(page.getByTestId('ids-hint')).toHaveText('5 mã');
  await page.getByLabel('Mã tra cứu (TransactionID), mỗi dòng một mã').fill([...ids, ids[0], '', '  '].join('\n'));
  await expect(page.getByTestId('ids-hint')).toHaveText('300 mã; bỏ 1 mã trùng và 2 dòng trống');
  await page.getByRole('radio', { name: 'PDF', exact: true }).check();
  await page.getByRole('checkbox', { name: 'Hóa đơn có mã của cơ quan thuế' }).check();
  // The browser host has no folder dialog: it says so, and a typed path is used.
  await page.getByRole('button', { name: 'Chọn thư mục…' }).click();
  await expect(page.getByText('Nhập đường dẫn đầy đủ, ví dụ C:\\HoaDon hoặc /home/toi/hoadon').first()).toBeVisible();
  // The button goes; the keyboard is left in the path field, not on the page.
  await expect(page.getByLabel('Thư mục lưu')).toBeFocused();
  // Start without a folder: the form says what is missing and moves there.
  await page.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Chọn hoặc nhập thư mục lưu trước khi tải.' })).toBeVisible();
  await expect(page.getByLabel('Thư mục lưu')).toBeFocused();
  await expect(page.getByLabel('Thư mục lưu')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Thư mục lưu').fill(out);
  // Filled, the field is no longer named as missing.
  await expect(page.getByRole('alert').filter({ hasText: 'thư mục lưu' })).toHaveCount(0);
  await expect(page.getByLabel('Thư mục lưu')).not.toHaveAttribute('aria-invalid', 'true');

  // Six batches of 50 over four connections: two rounds of calls, each held 1,5 s, so the
  // first round's progress is seen well before the second round ends, even on a slow machine.
  env.sandbox.setFaults({ download: { latencyMs: 1500 } });
  await page.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByText(/Đã tạo lượt tải 300 hóa đơn/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Bắt đầu tải' })).toBeFocused();

  // Progress moves while the job runs, then completes.
  const bar = page.getByTestId('download-progress');
  await expect(bar).toHaveAttribute('max', '300');
  // At 1366×768 the started job's progress is in view next to the form, without scrolling.
  await expect(bar).toBeInViewport();
  await expect(page.getByTestId('download-counts')).toBeInViewport();
  await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 30_000, intervals: [100] }).toBeGreaterThan(0);
  const midway = Number(await bar.getAttribute('value'));
  expect(midway).toBeLessThan(300);
  await expect(page.getByTestId('download-counts')).toHaveText('Xong 300/300 — đã lưu 300, bỏ qua 0, lỗi 0', { timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /PDF — Hoàn tất/ })).toBeVisible();
  // Sizes are written the vi-VN way (decimal comma).
  await expect(page.getByText(/^Đã tải \d+(\.\d{3})*,\d (KB|MB)$/)).toBeVisible();
  expect(fs.readdirSync(out).filter((f) => f.endsWith('.pdf'))).toHaveLength(300);
  expect(Buffer.compare(fs.readFileSync(path.join(out, `${ids[7]}.pdf`)), Buffer.from(await env.sandbox.catalogue.expected(ids[7]!, 'Pdf')))).toBe(0);

  // The virtualised table holds 300 rows but renders only a window of them.
  const table = page.getByRole('table', { name: 'Danh sách hóa đơn của lượt tải' });
  // aria-rowcount counts the header row too, as ARIA asks.
  await expect(table).toHaveAttribute('aria-rowcount', '301');
  const rendered = await table.locator('[role=row][data-status]').count();
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(120);
  // Scrolled to its end, the table fetches the last page (it keeps only the pages near the view).
  await page.getByTestId('download-items').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(table.getByRole('cell', { name: ids[299]!, exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: ids[0]!, exact: true })).toHaveCount(0);
  // Each row says its state in words.
  await expect(table.locator('[role=row][data-status=saved]').first().getByRole('cell').nth(1)).toHaveText('Đã lưu');
  // A file name too long for its column is there in full on hover.
  await expect(table.locator('[role=row][data-status=saved]').first().getByRole('cell').nth(2)).toHaveAttribute('title', /^\S+\.pdf$/);
  await page.screenshot({ path: test.info().outputPath('downloads-scrolled-1366.png') });

  // A second job while the service is under maintenance: every item fails with a reason.
  env.sandbox.setFaults({});
  env.sandbox.setQuirks({ maintenance: true });
  const more = env.sandbox.catalogue.list('withCode').slice(300, 340);
  await page.getByLabel('Mã tra cứu (TransactionID), mỗi dòng một mã').fill([...more, 'KHONG-TON-TAI'].join('\n'));
  await page.getByRole('radio', { name: 'XML', exact: true }).check();
  await page.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByTestId('download-counts')).toHaveText('Xong 41/41 — đã lưu 0, bỏ qua 0, lỗi 41', { timeout: 90_000 });
  await page.getByRole('combobox', { name: 'Lọc mục' }).selectOption('failed');
  await expect(table.locator('[role=row][data-status=failed]').first()).toContainText('bảo trì');
  await expect(table.locator('[role=row][data-status=failed]').first().getByRole('cell').nth(1)).toHaveText('Lỗi');

  // Retry the failed ones once the service is back: all but the unknown ID are saved.
  env.sandbox.setQuirks({ maintenance: false });
  await page.getByRole('button', { name: 'Tải lại các mã lỗi' }).click();
  await expect(page.getByTestId('download-counts')).toHaveText('Xong 41/41 — đã lưu 40, bỏ qua 0, lỗi 1', { timeout: 60_000 });
  await expect(table.locator('[role=row][data-status=failed]')).toHaveCount(1);
  await expect(table.locator('[role=row][data-status=failed]')).toContainText('KHONG-TON-TAI');
  await expect(table.locator('[role=row][data-status=failed]')).toContainText('InvoiceNotExist');
  // In words first (an unknown code, or an invoice asked for under another kind), the code after them; the job says it has failures.
  await expect(table.locator('[role=row][data-status=failed]').getByRole('cell').nth(3)).toHaveText(
    /^Không có hóa đơn nào thuộc loại đã chọn .* \[InvoiceNotExist\]$/,
  );
  await expect(page.getByRole('heading', { name: /XML — Hoàn tất, có mục lỗi/ })).toBeVisible();
  for (const id of more) expect(fs.existsSync(path.join(out, `${id}.xml`))).toBe(true);
  // Each job in the list names its folder (in full on hover when it is cut).
  const jobs = page.getByRole('region', { name: 'Các lượt tải' }).getByRole('button');
  await expect(jobs).toHaveCount(2);
  for (const job of await jobs.all()) await expect(job).toContainText(out);
  await expect(jobs.first().locator('.downloads-job-folder')).toHaveAttribute('title', out);

  // Export of the failed list: a CSV download with the code and the message.
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Xuất danh sách lỗi (CSV)' }).click();
  const download = await downloadPromise;
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain('KHONG-TON-TAI');
  expect(csv).toContain('InvoiceNotExist');

  // The folder is remembered for the next download, after the screen is reloaded too.
  await page.reload();
  await page.getByRole('navigation').getByRole('button', { name: 'Tải hóa đơn' }).click();
  await expect(page.getByLabel('Thư mục lưu')).toHaveValue(out);
});
