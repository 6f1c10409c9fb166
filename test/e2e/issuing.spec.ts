import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';

test.use({ viewport: { width: 1366, height: 768 } });
const env = sandboxWithHost({ seed: 21, invoiceCount: 300 });
const SHOTS = '/tmp/shots';

/** Today in Vietnam, and the two year digits of this year's series. */
const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
const yy = () => today().slice(2, 4);

async function apiCall<T>(name: string, body: unknown): Promise<T> {
  const res = await fetch(`${env.host.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-einvoice-secret': env.host.secret },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { ok: boolean; value?: T; error?: unknown };
  if (!answer.ok) throw new Error(`${name}: ${JSON.stringify(answer.error)}`);
  return answer.value!;
}

/** A draft ready to issue on a series the sandbox knows (without code: 1K…TAA), total 1.100.000 VND. */
async function createDraft(buyer: string, email: string, invDate = today(), patch: Record<string, unknown> = {}): Promise<string> {
  const rec = await apiCall<{ id: string }>('drafts.create', {
    draft: {
      InvSeries: `1K${yy()}TAA`,
      InvDate: invDate,
      BuyerLegalName: buyer,
      BuyerTaxCode: '0101243150',
      BuyerAddress: '12 Hàng Bài, Hoàn Kiếm, Hà Nội',
      BuyerEmail: email,
      PaymentMethodName: 'TM/CK',
      lines: [
        {
          ItemType: 1,
          ItemCode: 'CF01',
          ItemName: 'Cà phê hạt rang',
          UnitName: 'kg',
          Quantity: '2',
          UnitPrice: '500000',
          DiscountRate: '',
          DiscountAmountOC: '',
          discountBy: 'rate',
          VATRateName: '10%',
        },
      ],
      ...patch,
    },
  });
  return rec.id;
}

/** Opens the drafts list and the draft of this buyer; waits until the series list came from the service. */
async function openDraft(page: Page, buyer: string): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await page.getByRole('button', { name: buyer, exact: true }).click();
  await expect(page.locator('#f-InvSeries option', { hasText: `1K${yy()}TAA` })).toHaveCount(1);
}

const banner = (page: Page) => page.getByTestId('issue-banner');

async function expectNoSeriousAxe(page: Page, selector: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include(selector).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`)).toEqual([]);
}

test('offline: Issue queues the draft, it goes out when the connection is back, then downloads and emails by itself', async ({ page }) => {
  test.setTimeout(150_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const folder = fs.mkdtempSync(path.join(env.host.dataDir, 'hoa-don-'));
  await apiCall('settings.update', { downloadFolder: folder });
  await createDraft('Công ty TNHH Hoa Sen', 'ketoan@hoasen.vn');
  await page.goto(await env.host.newLaunchUrl());
  await openDraft(page, 'Công ty TNHH Hoa Sen');

  // The connection goes; the app notices (the sidebar says so).
  await env.sandbox.stop();
  await expect(page.getByRole('status').filter({ hasText: 'Mất kết nối' })).toBeVisible({ timeout: 45_000 });

  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Phát hành hóa đơn' });
  const summary = dialog.getByTestId('issue-summary');
  await expect(summary).toContainText(`1K${yy()}TAA`);
  await expect(
    summary
      .locator('div')
      .filter({ hasText: /^Hình thức ký/ })
      .getByRole('definition'),
  ).toHaveText('Ký HSM');
  await expect(summary).toContainText('Công ty TNHH Hoa Sen');
  await expect(summary).toContainText('1.100.000 VND');
  await expect(dialog.getByLabel('Gửi hóa đơn tới email')).toHaveValue('ketoan@hoasen.vn');
  await expect(dialog.getByRole('alert')).toContainText('sẽ tự động phát hành khi có mạng trở lại');
  await expect(dialog.getByRole('button', { name: 'Xếp hàng chờ phát hành' })).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/issue-dialog.png` });
  await expectNoSeriousAxe(page, 'dialog');
  // Escape cancels; nothing is queued.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await apiCall<{ total: number }>('issuing.status', {})).total).toBe(0);

  // Enter confirms.
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Xếp hàng chờ phát hành' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(banner(page)).toHaveAttribute('data-state', 'queued');
  await expect(banner(page).getByRole('status')).toHaveText('Đang chờ phát hành — sẽ tự gửi khi có mạng');
  // Read-only while queued: no Issue button, the fields cannot be typed in.
  await expect(page.getByRole('button', { name: 'Phát hành', exact: true })).toHaveCount(0);
  await expect(page.locator('#f-BuyerAddress')).toBeDisabled();
  expect(env.sandbox.issued()).toHaveLength(0);

  // The drafts list says it is waiting.
  await page.getByRole('button', { name: '← Danh sách' }).click();
  const row = page.locator('.drafts-table tbody tr', { hasText: 'Công ty TNHH Hoa Sen' });
  await expect(row.getByTestId('draft-issue')).toHaveText('Chờ phát hành');
  await expect(row.getByRole('button', { name: /^Xoá bản nháp/ })).toBeDisabled();

  // The connection comes back: issued by itself, the number shown in the list and in the draft.
  await env.sandbox.start();
  await expect(row.getByTestId('draft-issue')).toHaveText(/^Đã phát hành · \d{8}$/, { timeout: 60_000 });
  const issued = env.sandbox.issued();
  expect(issued).toHaveLength(1);
  const { TransactionID: tx, InvNo: invNo } = issued[0]!;
  await expect(row.getByTestId('draft-issue')).toHaveText(`Đã phát hành · ${invNo}`);
  await page.screenshot({ path: `${SHOTS}/issue-drafts-list.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
  await row.getByRole('button', { name: 'Công ty TNHH Hoa Sen', exact: true }).click();
  await expect(banner(page).getByRole('status')).toHaveText(`Đã phát hành — Số hóa đơn ${invNo}`);
  await expect(banner(page)).toContainText(`Mã tra cứu ${tx}`);

  // The PDF lands in the download folder; the buyer's email goes out through the email queue.
  await expect.poll(() => fs.existsSync(path.join(folder, `${tx}.pdf`)), { timeout: 30_000 }).toBe(true);
  await expect.poll(() => env.sandbox.sentEmails().find((e) => e.TransactionID === tx)?.to, { timeout: 30_000 }).toEqual(['ketoan@hoasen.vn']);
  await expect(banner(page)).toContainText('Đã tải tệp hóa đơn về thư mục');
  await expect(banner(page)).toContainText('Email tới ketoan@hoasen.vn đã vào hàng đợi email');
  await page.screenshot({ path: `${SHOTS}/issue-issued-draft.png` });
  await expectNoSeriousAxe(page, 'main');

  await banner(page).getByRole('button', { name: 'Xem trong hàng đợi email' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi email' })).toBeVisible();
  await expect(page.locator(`[role=row][data-tx="${tx}"]`)).toHaveAttribute('data-state', /^(sent|requested)$/);
  await expect(page.locator('[role=row][data-tx]')).toHaveCount(1);
});

/** The last date the sandbox's catalogue issued on a series (the service refuses an invoice dated before it). */
function seriesTailDate(series: string): string {
  const dates = env.sandbox.catalogue
    .list('withoutCode')
    .map((id) => env.sandbox.catalogue.get(id)!)
    .filter((inv) => inv.InvSeries === series)
    .map((inv) => inv.InvDate.slice(0, 10));
  return dates.sort().at(-1)!;
}

test('a refusal says why in words; edit and queue again, fix the date, issued', async ({ page }) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const series = `1K${yy()}TAA`;
  const tail = seriesTailDate(series);
  const before = new Date(Date.parse(`${tail}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  expect(before.slice(2, 4)).toBe(yy());
  await createDraft('Nhà sách Phương Nam', 'sach@phuongnam.vn', before);
  await page.goto(await env.host.newLaunchUrl());
  await openDraft(page, 'Nhà sách Phương Nam');

  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Phát hành hóa đơn' });
  await expect(dialog.getByRole('alert')).toHaveCount(0); // online: no "later" warning
  await dialog.getByRole('button', { name: 'Phát hành', exact: true }).click();

  // The service refuses it (the series already has a later invoice): the reason in words, the code small.
  await expect(banner(page)).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(banner(page).getByRole('status')).toHaveText('Hệ thống không phát hành hóa đơn này');
  await expect(banner(page).getByTestId('issue-reason')).toContainText('Ngày hóa đơn sớm hơn ngày của hóa đơn đã phát hành gần nhất trong ký hiệu này');
  await expect(banner(page).getByTestId('issue-reason').locator('.error-code')).toHaveText('InvalidInvoiceDate');

  // The issue queue lists it with the same words and offers to edit it.
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi phát hành' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi phát hành' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Hóa đơn trong hàng đợi phát hành' });
  const failed = table.locator('tr[data-state=failed]');
  await expect(failed).toHaveCount(1);
  await expect(failed.locator('[data-col=reason]')).toContainText('Ngày hóa đơn sớm hơn');
  await expect(page.getByRole('group', { name: 'Lọc theo trạng thái' }).getByRole('button', { name: /^Bị từ chối 1$/ })).toBeVisible();

  await failed.getByRole('button', { name: 'Sửa và phát hành lại hóa đơn của Nhà sách Phương Nam' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  const date = page.locator('#f-InvDate');
  await expect(date).toBeEnabled();
  await date.fill(today());
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-state', 'issued', { timeout: 30_000 });
  const issued = env.sandbox.issued();
  expect(issued).toHaveLength(1);
  expect(issued[0]!.InvDate.slice(0, 10)).toBe(today());
  await expect(banner(page).getByRole('status')).toHaveText(`Đã phát hành — Số hóa đơn ${issued[0]!.InvNo}`);

  // No download folder is chosen in this data folder: the file waits, and the banner says why and where to choose one.
  await expect(banner(page)).toContainText('Chưa tải tệp hóa đơn: chưa chọn thư mục tải về. Chọn thư mục trong Cài đặt, hóa đơn sẽ được tải ngay sau đó.');
  await banner(page).getByRole('button', { name: 'Chọn thư mục trong Cài đặt' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cài đặt' })).toBeVisible();
  // The queue says so too; once a folder is chosen the file is downloaded and the row says that.
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi phát hành' }).click();
  // The refusal whose draft was edited stays under All as history; the Refused filter and its count leave it out alike.
  const filters = page.getByRole('group', { name: 'Lọc theo trạng thái' });
  await expect(table.locator('tr[data-state=failed]')).toHaveCount(1);
  await expect(filters.getByRole('button', { name: /^Bị từ chối 0$/ })).toBeVisible();
  await filters.getByRole('button', { name: /^Bị từ chối/ }).click();
  await expect(page.getByText('Không có hóa đơn ở trạng thái này.')).toBeVisible();
  await expect(table).toHaveCount(0);
  await filters.getByRole('button', { name: /^Tất cả/ }).click();
  const waiting = table.locator('tr[data-state=issued]');
  await expect(waiting.locator('[data-col=reason]')).toContainText('Chưa tải tệp hóa đơn: chưa chọn thư mục tải về.');
  await expect(waiting.getByRole('button', { name: `Chọn thư mục tải về trong Cài đặt cho hóa đơn ${issued[0]!.InvNo}` })).toBeVisible();
  const folder = fs.mkdtempSync(path.join(env.host.dataDir, 'hoa-don-'));
  await apiCall('settings.update', { downloadFolder: folder });
  await expect(waiting.locator('[data-col=reason]')).toContainText('Đã tải tệp hóa đơn về thư mục', { timeout: 30_000 });
  await expect(waiting.getByRole('button', { name: /^Chọn thư mục/ })).toHaveCount(0);
  await expect.poll(() => fs.existsSync(path.join(folder, `${issued[0]!.TransactionID}.pdf`)), { timeout: 30_000 }).toBe(true);

  // A refusal that may pass by itself (the licence ran out) offers "retry" as it is.
  env.sandbox.setQuirks({ licenceInvoices: 1 });
  await createDraft('Khách lẻ Trần Văn Bình', 'binh@example.com');
  await openDraft(page, 'Khách lẻ Trần Văn Bình');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-state', 'failed', { timeout: 30_000 });
  await expect(banner(page).getByTestId('issue-reason')).toContainText('Gói hóa đơn điện tử đã hết số lượng hóa đơn');
  await expect(banner(page).getByRole('button', { name: 'Phát hành lại như cũ' })).toBeVisible();

  // One more waits for the connection: the queue shows every state, each in words.
  await createDraft('Công ty CP Sông Hồng', 'mua-hang@songhong.vn');
  await openDraft(page, 'Công ty CP Sông Hồng');
  await env.sandbox.stop();
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-state', 'queued');
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi phát hành' }).click();
  await expect(page.getByTestId('issue-runner-status')).toContainText('Mất kết nối', { timeout: 30_000 });
  await expect(table.locator('tr[data-testid=issue-row]')).toHaveCount(4);
  for (const state of ['issued', 'failed', 'queued'] as const) await expect(table.locator(`tr[data-state=${state}]`).first()).toBeVisible();
  // Waiting rows say only that while the connection is down (the status line gives the detail).
  await expect(table.locator('tr[data-state=queued] [data-col=reason]')).toHaveText('Chờ có mạng');
  await expect(table.getByRole('button', { name: 'Thử lại hóa đơn của Khách lẻ Trần Văn Bình' })).toBeVisible();
  // The refusal already edited and issued stays as history, without actions.
  await expect(table.locator('tr[data-state=failed]', { hasText: 'Nhà sách Phương Nam' }).locator('[data-col=reason]')).toContainText(
    'Đã sửa và xếp lại thành hóa đơn mới',
  );
  await expect(table.getByRole('button', { name: 'Sửa và phát hành lại hóa đơn của Nhà sách Phương Nam' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/issue-queue.png` });
  await expectNoSeriousAxe(page, 'main');

  // English too.
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption({ label: 'English' });
  await expect(page.getByRole('heading', { level: 1, name: 'Issue queue' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invoices in the issue queue' }).locator('tr[data-state=failed] [data-col=reason]').first()).toContainText(
    'licence has no invoices left',
  );
});

test('Settings → Issuing: sign type, certificate, pause in seconds, downloads, email, series', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Cài đặt' }).click();
  const section = page.getByTestId('settings-issuing');
  await expect(section.getByRole('heading', { name: 'Phát hành' })).toBeVisible();
  const top = () => section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await top();

  // The certificate list comes from the service; "automatic" is the default.
  const cert = section.getByLabel('Chứng thư số (cho Ký HSM)');
  await expect(cert).toHaveValue('');
  await expect(section.getByText('Hệ thống có 1 chứng thư số.')).toBeVisible();
  const sn = env.sandbox.certificate().CertificateSN;
  await cert.selectOption(sn);
  // Sign types are named in words; the service's number is only the choice's value.
  const cashRegister = section.getByRole('radio', { name: /^Máy tính tiền — / });
  await expect(cashRegister).toHaveAttribute('value', '5');
  await expect(section.getByRole('group', { name: 'Hình thức ký' })).not.toContainText(/\(\d\)/);
  await cashRegister.check();
  await section.getByLabel('Nghỉ giữa hai lần phát hành cùng ký hiệu (giây)').fill('1,5');
  await section.getByRole('checkbox', { name: 'XML' }).check();
  await section.getByRole('radio', { name: 'Để hệ thống hóa đơn tự gửi khi phát hành' }).check();
  await expect(section).toContainText('Chưa có "Thư mục tải về mặc định"');

  // A wrong series is named and nothing is saved.
  const seriesField = section.getByLabel('Các ký hiệu máy này phát hành');
  await seriesField.fill('1c26taa, 1X');
  await section.getByRole('button', { name: 'Lưu cài đặt phát hành' }).click();
  await expect(section.getByText('Ký hiệu không hợp lệ: 1X')).toBeVisible();
  await expect(seriesField).toBeFocused();
  await expect(seriesField).toHaveAttribute('aria-invalid', 'true');
  expect((await apiCall<{ issuing: { seriesGapMs: number } }>('settings.get', {})).issuing.seriesGapMs).toBe(1000);

  await seriesField.fill(`1c${yy()}taa, 1C${yy()}MAA`);
  await section.getByRole('button', { name: 'Lưu cài đặt phát hành' }).click();
  await expect(section.getByText('Đã lưu cài đặt phát hành.')).toBeVisible();
  const saved = await apiCall<{ issuing: unknown }>('settings.get', {});
  expect(saved.issuing).toEqual({
    signType: 5,
    certificateSN: sn,
    seriesGapMs: 1500,
    autoDownload: true,
    downloadTypes: ['Pdf', 'Xml'],
    email: 'service',
    series: [`1C${yy()}TAA`, `1C${yy()}MAA`],
  });
  await expect(seriesField).toHaveValue(`1C${yy()}TAA, 1C${yy()}MAA`);
  await top();
  await page.screenshot({ path: `${SHOTS}/issue-settings.png` });

  await expectNoSeriousAxe(page, '[data-testid=settings-issuing]');
});

test('an outcome the app cannot know is asked of the service, never sent twice: "check now"', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await createDraft('Cửa hàng Bách Hóa Xanh', 'mua@bachhoa.vn');
  await page.goto(await env.host.newLaunchUrl());
  await openDraft(page, 'Cửa hàng Bách Hóa Xanh');
  // The service records the invoice, then answers 500; its status lookups do not see it yet.
  env.sandbox.setFaults('issue:late500=1');
  env.sandbox.setQuirks({ statusDelayMs: 600_000 });
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-state', 'unknown', { timeout: 30_000 });
  await expect(banner(page).getByRole('status')).toHaveText('Đang kiểm tra với hệ thống');
  await expect(banner(page)).toContainText('Ứng dụng hỏi lại hệ thống, không gửi lại hóa đơn.');
  const [issued] = env.sandbox.issued();
  expect(issued).toBeDefined();

  const lookups = env.sandbox.requests({ op: 'status' }).length;
  await banner(page).getByRole('button', { name: 'Kiểm tra ngay' }).click();
  await expect(banner(page).getByText('Đã kiểm tra: 0 hóa đơn có kết quả, còn 1 chưa rõ.')).toBeVisible();
  expect(env.sandbox.requests({ op: 'status' }).length).toBeGreaterThan(lookups);

  await page.keyboard.press('Alt+6'); // the issue queue's key; the first five areas kept theirs
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi phát hành' })).toBeVisible();
  const row = page.locator('tr[data-state=unknown]');
  await expect(row.locator('[data-col=reason]')).not.toBeEmpty();
  await expect(page.getByRole('group', { name: 'Lọc theo trạng thái' }).getByRole('button', { name: /^Chưa rõ kết quả 1$/ })).toBeVisible();
  // Waiting for the next lookup is not an error.
  await expect(page.getByTestId('issue-runner-status')).toHaveText(/^Chờ kiểm tra lại với hệ thống lúc \d\d:\d\d:\d\d\.$/);
  await page.screenshot({ path: `${SHOTS}/issue-queue-unknown.png` });

  // The service now knows it: "check all unknown" adopts it with its number; it was sent once.
  env.sandbox.setFaults('');
  env.sandbox.setQuirks({ statusDelayMs: 0 });
  await page.getByRole('button', { name: 'Kiểm tra các hóa đơn chưa rõ (1)' }).click();
  await expect(page.getByText(/Đã kiểm tra: [01] hóa đơn có kết quả, còn 0 chưa rõ\./)).toBeVisible();
  await expect(page.locator('tr[data-state=issued] td').nth(1)).toHaveText(issued!.InvNo);
  expect(env.sandbox.issueAttempts(issued!.RefID)[0]).toMatchObject({ requests: 1 });
  expect(env.sandbox.issued()).toHaveLength(1);
});

test('a draft with errors the app finds itself is not offered for issuing: the first error is said and focused, the dialog opens once it is fixed', async ({
  page,
}) => {
  const line = {
    ItemType: 1,
    ItemCode: '',
    ItemName: 'Trà đá',
    UnitName: 'ly',
    Quantity: 'abc',
    UnitPrice: '5000',
    DiscountRate: '',
    DiscountAmountOC: '',
    discountBy: 'rate',
    VATRateName: '8%',
  };
  await createDraft('Quán Trà Sen', '', today(), { lines: [line, { ...line, ItemName: 'Trà chanh', Quantity: '1', UnitPrice: 'x' }] });
  await page.goto(await env.host.newLaunchUrl());
  await openDraft(page, 'Quán Trà Sen');

  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await expect(page.getByTestId('issue-error')).toContainText(
    'Chưa phát hành được hóa đơn: Dòng 1: số lượng "abc" không phải là số (và 1 lỗi khác). Hãy xem mục "Cần kiểm tra", sửa các lỗi rồi bấm Phát hành lại.',
  );
  await expect(page.getByRole('dialog', { name: 'Phát hành hóa đơn' })).toHaveCount(0);
  await expect(page.locator('[data-path="lines[0].Quantity"]')).toBeFocused();
  expect((await apiCall<{ total: number }>('issuing.status', {})).total).toBe(0);
  await page.screenshot({ path: `${SHOTS}/issue-blocked-own-errors.png` });

  await page.locator('[data-path="lines[0].Quantity"]').fill('2');
  await page.locator('[data-path="lines[1].UnitPrice"]').fill('15.000');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Phát hành hóa đơn' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('issue-summary')).toContainText('27.000 VND');
  // The total payable stays in sight at the top, wherever the cashier has scrolled to.
  await page.keyboard.press('Escape');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByTestId('bar-total')).toHaveText('Tổng tiền thanh toán 27.000 VND');
  await expect(page.getByTestId('bar-total')).toBeInViewport();
  await page.screenshot({ path: `${SHOTS}/editor-bar-total.png` });
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  expect((await apiCall<{ total: number }>('issuing.status', {})).total).toBe(0);
});

test('a draft the app would refuse is not queued: the address is at its field, the email typed in the dialog is checked there', async ({ page }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  await createDraft('Công ty TNHH Ánh Dương', 'ketoan@anhduong.vn');
  await page.goto(await env.host.newLaunchUrl());
  await openDraft(page, 'Công ty TNHH Ánh Dương');

  // A wrong address typed in the dialog is said in the dialog, next to it.
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Phát hành hóa đơn' });
  const email = dialog.getByLabel('Gửi hóa đơn tới email');
  await email.fill('khong-phai-email');
  await email.press('Enter');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText('khong-phai-email');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The address is missing: nothing is queued, the editor says why and puts the cursor there.
  const address = page.locator('#f-BuyerAddress');
  await address.fill('');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await expect(page.getByTestId('issue-error')).toContainText('Chưa phát hành được hóa đơn');
  await expect(dialog).toHaveCount(0);
  await expect(address).toBeFocused();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#f-BuyerAddress-err')).not.toBeEmpty();
  expect((await apiCall<{ total: number }>('issuing.status', {})).total).toBe(0);
  await page.screenshot({ path: `${SHOTS}/issue-refused-fields.png` });

  // Fixed: issued.
  await address.fill('5 Lê Lợi, Quận 1, TP. Hồ Chí Minh');
  await page.getByRole('button', { name: 'Phát hành', exact: true }).click();
  await expect(dialog.getByLabel('Gửi hóa đơn tới email')).toHaveValue('ketoan@anhduong.vn');
  await page.keyboard.press('Enter');
  await expect(banner(page)).toHaveAttribute('data-state', 'issued', { timeout: 30_000 });
  expect(env.sandbox.issued()).toHaveLength(1);

  // Issued: no preview of the draft any more (it would be marked "not issued").
  await expect(page.getByRole('button', { name: 'Xem trước (F8)' })).toHaveCount(0);

  // The banner's way to the queue: the queue's heading has the focus, not the empty page.
  await banner(page).getByRole('button', { name: 'Xem hàng đợi phát hành' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Hàng đợi phát hành' })).toBeFocused();
});
