import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';

test.use({ viewport: { width: 1366, height: 768 } });
const env = sandboxWithHost({ seed: 13, invoiceCount: 90 });

test('a trainee finds the Sandbox address and sample sign-in, and downloads and emails its sample invoices', async ({ page }) => {
  await page.goto(await env.host.newLaunchUrl());
  const nav = page.getByRole('navigation');

  await nav.getByRole('button', { name: 'Cài đặt' }).click();
  const details = page.getByTestId('sandbox-details');
  await expect(details).toContainText(`${env.sandbox.origin}/api/integration/invoice`);
  await expect(details.getByRole('definition').filter({ hasText: 'sandbox123' })).toBeVisible();

  // Downloads: the cash-register samples fill the IDs and the flags that address them.
  await nav.getByRole('button', { name: 'Tải hóa đơn' }).click();
  await page.getByRole('group', { name: 'Dùng hóa đơn mẫu của Sandbox' }).getByRole('button', { name: 'Máy tính tiền' }).click();
  const calcIds = env.sandbox.catalogue.list('cashRegister').slice(0, 5);
  await expect(page.getByLabel(/^Mã tra cứu/)).toHaveValue(calcIds.join('\n'));
  await expect(page.getByLabel('Hóa đơn có mã của cơ quan thuế')).toBeChecked();
  await expect(page.getByLabel('Hóa đơn khởi tạo từ máy tính tiền')).toBeChecked();
  const out = path.join(env.host.dataDir, 'mau');
  await page.getByLabel('Thư mục lưu').fill(out);
  await page.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByTestId('download-counts')).toHaveText('Xong 5/5 — đã lưu 5, bỏ qua 0, lỗi 0', { timeout: 30_000 });
  for (const id of calcIds) expect(fs.existsSync(path.join(out, `${id}.pdf`))).toBe(true);

  // Email queue: a sample without code, added by hand, goes out.
  await nav.getByRole('button', { name: 'Hàng đợi email' }).click();
  await page.getByRole('button', { name: 'Thêm email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Thêm email thủ công' });
  await dialog.getByRole('group', { name: 'Dùng hóa đơn mẫu của Sandbox' }).getByRole('button', { name: 'Không có mã' }).click();
  const id = env.sandbox.catalogue.list('withoutCode')[0]!;
  await expect(dialog.getByLabel('Mã tra cứu (TransactionID)')).toHaveValue(id);
  await expect(dialog.getByRole('combobox', { name: 'Loại hóa đơn' })).toHaveValue('withoutCode');
  await dialog.getByLabel(/^Email người nhận/).fill('hoc.vien@example.com');
  await dialog.getByRole('button', { name: 'Thêm vào hàng đợi' }).click();
  await expect(page.locator(`[role=row][data-tx="${id}"]`)).toHaveAttribute('data-state', /^(sent|requested)$/, { timeout: 30_000 });
  expect(env.sandbox.sentEmails().find((e) => e.TransactionID === id)?.to).toEqual(['hoc.vien@example.com']);
});
