import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { emptyDraft, emptyLine, issuingForm } from '../../common/money';
import { vietnamToday } from '../../common/rules';
import { ApiClient } from '../../main/services/api';
import { expect, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';

test.use({ viewport: { width: 1366, height: 768 } });
const env = sandboxWithHost({ seed: 31, invoiceCount: 300 });
const SHOTS = '/tmp/shots';
const today = () => vietnamToday(new Date());
const yy = () => today().slice(2, 4);

/** Invoices issued today by "another counter" (straight to the service, not through this app): the register learns them by syncing. */
async function issueElsewhere(series: string, count: number, from: number): Promise<void> {
  const client = new ApiClient({ baseUrl: env.sandbox.baseUrl, token: env.sandbox.devToken, timeoutMs: 10_000 });
  try {
    const invoices = Array.from({ length: count }, (_, k) => {
      const i = from + k;
      return issuingForm(
        emptyDraft({
          RefID: randomUUID(),
          InvDate: today(),
          InvSeries: series,
          PaymentMethodName: 'TM/CK',
          BuyerLegalName: `Công ty TNHH Khách Hàng Số ${i}`,
          BuyerTaxCode: '0101243150',
          BuyerAddress: `${i} Hàng Bài, Hoàn Kiếm, Hà Nội`,
          BuyerEmail: `khach${i}@example.vn`,
          lines: [{ ...emptyLine(1), ItemName: 'Cà phê hạt rang', UnitName: 'kg', Quantity: '2', UnitPrice: String(100_000 + i * 1000), VATRateName: '10%' }],
        }),
      ).data;
    });
    const out = await client.issue(invoices, { signType: 2, certificateSN: env.sandbox.certificate().CertificateSN });
    expect(out.items.filter((i) => i.ok)).toHaveLength(count);
  } finally {
    await client.close();
  }
}

async function expectNoSeriousAxe(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`)).toEqual([]);
}

test('this month, one series, 30 chosen: downloaded as 30 PDFs, emailed to their buyers, one opened, one adjusted and linked both ways', async ({ page }) => {
  test.setTimeout(360_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const main = `1C${yy()}TAA`;
  await issueElsewhere(main, 34, 1);
  await issueElsewhere(`2C${yy()}TBB`, 4, 101);
  await issueElsewhere(`1K${yy()}TAA`, 4, 201);

  await page.goto(await env.host.newLaunchUrl());
  await page.keyboard.press('Alt+7');
  await expect(page.getByRole('heading', { level: 1, name: 'Hóa đơn đã phát hành' })).toBeVisible();
  await page.getByRole('button', { name: 'Tháng này' }).click();
  await expect(page.getByLabel('Từ ngày')).toHaveValue(`01/${today().slice(5, 7)}/${today().slice(0, 4)}`);
  // A day that does not exist is named as such, and the list says what to do instead of loading for ever.
  await page.getByLabel('Từ ngày').fill(`31/02/${today().slice(0, 4)}`);
  await page.keyboard.press('Tab');
  await expect(page.getByText('Ngày không hợp lệ: hãy nhập một ngày có thật')).toBeVisible();
  await expect(page.getByText('Sửa ngày ở trên để xem danh sách.')).toBeVisible();
  await page.getByRole('button', { name: 'Tháng này' }).click();
  await expect(page.getByText('Sửa ngày ở trên để xem danh sách.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Đồng bộ với hệ thống' }).click();
  await expect(page.getByText(/^Đã đồng bộ: đọc \d+ hóa đơn/)).toBeVisible({ timeout: 60_000 });
  const table = page.getByRole('table', { name: 'Hóa đơn đã phát hành' });
  await expect(table.locator('[role=row][data-tx]').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/issued-month.png` });

  await page.getByRole('combobox', { name: 'Ký hiệu' }).selectOption(main);
  await expect(page.getByText(/^\d+ hóa đơn$/)).toHaveText(/^(3[4-9]|[4-9]\d) hóa đơn$/);
  const rows = table.locator('[role=row][data-tx]');
  await expect(rows.first()).toContainText(main);
  // Status in words, amounts the vi-VN way.
  await expect(rows.first().locator('[data-col=status]')).toContainText(/cơ quan thuế/i);
  await expect(rows.first()).toContainText(/\d{3}\.\d{3} VND/);

  // 30 chosen from the keyboard: Space on the first, Shift+↓ to the thirtieth.
  const first = rows.first().getByRole('checkbox');
  await first.focus();
  await page.keyboard.press('Space');
  for (let i = 1; i < 30; i++) await page.keyboard.press('Shift+ArrowDown');
  await expect(page.getByTestId('issued-selected')).toHaveText('Đã chọn 30');
  // End and Home move the focus to rows not drawn yet (the table draws only a window of rows).
  const shown = Number((await page.getByText(/^\d+ hóa đơn$/).textContent())!.split(' ')[0]);
  const focusedRow = () => page.evaluate(() => document.activeElement?.closest('[role=row]')?.getAttribute('data-index'));
  await page.keyboard.press('End');
  await expect.poll(focusedRow).toBe(String(shown - 1));
  await page.keyboard.press('Home');
  await expect.poll(focusedRow).toBe('0');
  await page.keyboard.press('ArrowDown');
  await expect.poll(focusedRow).toBe('1');
  await expect(page.getByTestId('issued-selected')).toHaveText('Đã chọn 30');
  await page.screenshot({ path: `${SHOTS}/issued-selected.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expectNoSeriousAxe(page, 'main');

  // Download them: the download engine, into the chosen folder.
  const folder = fs.mkdtempSync(path.join(env.host.dataDir, 'thang-nay-'));
  await page.getByRole('button', { name: 'Tải về', exact: true }).click();
  const dl = page.getByRole('dialog', { name: 'Tải 30 hóa đơn về máy' });
  await dl.getByLabel('Thư mục lưu').fill(folder);
  await page.screenshot({ path: `${SHOTS}/issued-download-dialog.png` });
  await dl.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByText(/^Đã tạo 1 lượt tải cho 30 hóa đơn/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Tải về', exact: true })).toBeFocused();
  await expect.poll(() => fs.readdirSync(folder).filter((f) => f.endsWith('.pdf')).length, { timeout: 60_000 }).toBe(30);
  for (const f of fs.readdirSync(folder)) expect(fs.readFileSync(path.join(folder, f)).subarray(0, 4).toString('latin1')).toBe('%PDF');

  // Email them to each buyer through the email queue.
  await page.getByRole('button', { name: 'Gửi email cho người mua' }).click();
  await expect(page.getByText(/^Đã đưa 30 email vào hàng đợi/)).toBeVisible();
  await expect.poll(() => env.sandbox.sentEmails().length, { timeout: 60_000 }).toBe(30);
  const downloaded = new Set(fs.readdirSync(folder).map((f) => f.replace(/\.pdf$/, '')));
  for (const e of env.sandbox.sentEmails()) {
    expect(downloaded.has(e.TransactionID)).toBe(true);
    expect(e.to).toEqual([env.sandbox.catalogue.get(e.TransactionID)!.BuyerEmail]);
  }

  // Open one, the way a preview opens.
  const name = (await rows.nth(5).getAttribute('data-tx'))!;
  const original = table.locator(`[role=row][data-tx="${name}"]`);
  const label = await original.getByRole('button', { name: /^Xem hóa đơn/ }).getAttribute('aria-label');
  const popup = page.waitForEvent('popup');
  await original.getByRole('button', { name: /^Xem hóa đơn/ }).click();
  const tab = await popup;
  await tab.waitForLoadState();
  expect(tab.url()).toContain('/preview/');
  await tab.close();
  const number = label!.split(' ').at(-1)!;

  // Adjust it: a reason, a new draft referring to it, issued through the queue.
  await original.getByRole('button', { name: `Điều chỉnh hóa đơn ${main} ${number}` }).click();
  const adj = page.getByRole('dialog', { name: `Điều chỉnh hóa đơn ${main} ${number}` });
  await adj.getByRole('button', { name: 'Tạo hóa đơn nháp' }).click();
  await expect(adj.getByRole('alert')).toHaveText('Hãy nhập lý do.');
  await adj.getByLabel('Lý do (bắt buộc)').fill('Giảm giá do giao hàng chậm');
  await page.screenshot({ path: `${SHOTS}/issued-adjust-dialog.png` });
  await adj.getByRole('button', { name: 'Tạo hóa đơn nháp' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  const block = page.getByTestId('correction-block');
  await expect(block.getByRole('heading')).toHaveText(new RegExp(`^Điều chỉnh cho hóa đơn ${main} số ${number} ngày \\d\\d/\\d\\d/\\d{4}$`));
  await expect(block.getByLabel('Số hóa đơn gốc')).toHaveValue(number);
  await expect(block.getByLabel('Số hóa đơn gốc')).toHaveAttribute('readonly', '');
  await page.screenshot({ path: `${SHOTS}/issued-adjust-draft.png` });
  await page.locator('#f-BuyerAddress').fill('5 Lê Lợi, Quận 1, TP. Hồ Chí Minh');
  await page.getByRole('button', { name: 'Thêm dòng đầu tiên' }).click();
  await page.locator('[data-path="lines[0].ItemName"]').fill('Giảm giá do giao hàng chậm');
  await page.locator('[data-path="lines[0].UnitName"]').fill('lần');
  await page.locator('[data-path="lines[0].Quantity"]').fill('1');
  await page.locator('[data-path="lines[0].UnitPrice"]').fill('10000');
  await page.locator('[data-path="lines[0].VATRateName"]').fill('10%');
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('issue-banner')).toHaveAttribute('data-state', 'issued', { timeout: 60_000 });
  const adjustment = env.sandbox.issued().at(-1)!;

  // Both rows show the link.
  await page.keyboard.press('Alt+7');
  await page.getByRole('searchbox', { name: 'Tìm người mua hoặc số hóa đơn' }).fill(number);
  const originalRow = table.locator(`[role=row][data-tx="${name}"]`);
  await expect(originalRow.getByTestId('issued-link')).toHaveText(`Bị điều chỉnh bởi ${main} ${adjustment.InvNo}`);
  await expect(originalRow.locator('[data-col=status]')).toContainText('Đã bị điều chỉnh');
  await originalRow.getByTestId('issued-link').getByRole('button').click();
  const adjustmentRow = table.locator(`[role=row][data-tx="${adjustment.TransactionID}"]`);
  await expect(adjustmentRow.getByTestId('issued-link')).toContainText(`Điều chỉnh cho ${main} ${number} (`);
  await page.screenshot({ path: `${SHOTS}/issued-linked.png` });
});

test('Downloads and the Email queue choose from issued invoices: the IDs and the buyers\u2019 addresses are filled in', async ({ page }) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await issueElsewhere(`1K${yy()}TAA`, 6, 301);
  await page.goto(await env.host.newLaunchUrl());
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'Đồng bộ với hệ thống' }).click();
  await expect(page.getByText(/^Đã đồng bộ/)).toBeVisible({ timeout: 60_000 });

  await page.getByRole('navigation').getByRole('button', { name: 'Tải hóa đơn' }).click();
  await page.getByRole('button', { name: 'Chọn từ hóa đơn đã phát hành' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chọn từ hóa đơn đã phát hành' });
  await dialog.getByRole('combobox', { name: 'Ký hiệu' }).selectOption(`1K${yy()}TAA`);
  await dialog.getByRole('searchbox').fill('Khách Hàng Số');
  await expect(dialog.getByText('6 hóa đơn')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Chọn tất cả hóa đơn đang lọc' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Chọn tất cả hóa đơn đang lọc' })).toBeChecked();
  await page.screenshot({ path: `${SHOTS}/issued-choose-downloads.png` });
  await expectNoSeriousAxe(page, 'dialog');
  await dialog.getByRole('button', { name: 'Dùng 6 hóa đơn đã chọn' }).click();
  await expect(dialog).toBeHidden();
  const ids = (await page.getByLabel(/^Mã tra cứu/).inputValue()).split('\n');
  expect(ids).toHaveLength(6);
  await expect(page.getByLabel('Hóa đơn có mã của cơ quan thuế')).not.toBeChecked();

  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await page.getByRole('button', { name: 'Chọn từ hóa đơn đã phát hành' }).click();
  await dialog.getByRole('searchbox').fill('Khách Hàng Số 30');
  await expect(dialog.getByText('6 hóa đơn')).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'Chọn tất cả hóa đơn đang lọc' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Chọn tất cả hóa đơn đang lọc' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Gửi email cho người mua của 6 hóa đơn' }).click();
  await expect(page.getByText(/^Đã đưa 6 email vào hàng đợi/)).toBeVisible();
  await expect(page.locator('[role=row][data-tx]')).toHaveCount(6);
  for (const id of ids) await expect(page.locator(`[role=row][data-tx="${id}"]`)).toContainText(/khach30\d@example\.vn/);
  await page.screenshot({ path: `${SHOTS}/issued-choose-emails.png` });

  // English on request.
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'English' });
  await page.keyboard.press('Alt+7');
  await expect(page.getByRole('heading', { level: 1, name: 'Issued invoices' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sync with the service' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Issued invoices' }).locator('[role=row][data-tx]').first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Issued invoices' }).locator('[data-col=status]').first()).toContainText('tax authority');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await expectNoSeriousAxe(page, 'main');
  await page.screenshot({ path: `${SHOTS}/issued-en.png` });
});

test('paper copies: five chosen over two kinds, a converter named, saved as five valid PDFs naming the converter, one request per kind', async ({ page }) => {
  test.setTimeout(180_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  await issueElsewhere(`1K${yy()}TAA`, 3, 401);
  await issueElsewhere(`1C${yy()}TAA`, 2, 411);
  await page.goto(await env.host.newLaunchUrl());
  await page.keyboard.press('Alt+7');
  await page.getByRole('button', { name: 'Đồng bộ với hệ thống' }).click();
  await expect(page.getByText(/^Đã đồng bộ/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('searchbox', { name: 'Tìm người mua hoặc số hóa đơn' }).fill('Khách Hàng Số 4');
  await expect(page.getByText('5 hóa đơn', { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Chọn tất cả hóa đơn đang lọc' }).click();
  await expect(page.getByTestId('issued-selected')).toHaveText('Đã chọn 5');
  const ids = await page.locator('[role=row][data-tx]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tx')!));
  expect(ids).toHaveLength(5);

  await page
    .getByRole('group', { name: /^Đã chọn/ })
    .getByRole('button', { name: 'Lưu bản chuyển đổi' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Lưu bản chuyển đổi ra giấy của 5 hóa đơn' });
  await expect(dialog).toBeVisible();
  const save = dialog.getByRole('button', { name: 'Lưu bản chuyển đổi' });
  const folder = fs.mkdtempSync(path.join(env.host.dataDir, 'ban-chuyen-doi-'));
  await dialog.getByLabel('Thư mục lưu').fill(folder);
  // No converter, no saving: the law wants the name of the person who converted it.
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Họ tên người chuyển đổi').fill('Nguyễn Thị Thu');
  await expect(save).toBeEnabled();
  await expectNoSeriousAxe(page, 'dialog');
  await page.screenshot({ path: `${SHOTS}/issued-paper-dialog.png` });
  env.sandbox.reset();
  await save.click();
  await expect(dialog).toBeHidden({ timeout: 60_000 });
  await expect(page.getByText(`Đã lưu 5 bản chuyển đổi vào ${folder}; lỗi 0.`)).toBeVisible();

  // Five PDFs in the folder, one per invoice, each a real PDF naming the converter and today.
  const files = fs.readdirSync(folder).sort();
  expect(files).toHaveLength(5);
  for (const id of ids) expect(files.filter((f) => f.endsWith(`_${id}_chuyen-doi.pdf`))).toHaveLength(1);
  const [y, m, d] = today().split('-');
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(folder, f));
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text.normalize('NFC');
    expect(text).toContain('HÓA ĐƠN CHUYỂN ĐỔI TỪ HÓA ĐƠN ĐIỆN TỬ');
    expect(text).toContain('Nguyễn Thị Thu');
    expect(text).toContain(`${d}/${m}/${y}`);
  }
  // The service's record: one voucher-paper request per kind, each naming the converter and the date, each answered.
  const asked = env.sandbox.requests({ op: 'voucherpaper' });
  expect(asked).toHaveLength(2);
  for (const r of asked) {
    expect(r.status).toBe(200);
    expect(r.query.Converter).toBe('Nguyễn Thị Thu');
    expect(r.query.ConvertDate).toBe(today());
  }
  expect(asked.map((r) => (r.query.invoiceWithCode === 'true' ? 'withCode' : 'withoutCode')).sort()).toEqual(['withCode', 'withoutCode']);

  // The converter's name is remembered on this computer.
  await page
    .getByRole('group', { name: /^Đã chọn/ })
    .getByRole('button', { name: 'Lưu bản chuyển đổi' })
    .click();
  await expect(dialog.getByLabel('Họ tên người chuyển đổi')).toHaveValue('Nguyễn Thị Thu');
});
