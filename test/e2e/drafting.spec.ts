import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { expect, launchHost, test, type HostProcess } from './fixtures';

let sandbox: Sandbox;
let host: HostProcess;

// The shop-counter screen.
test.use({ viewport: { width: 1366, height: 768 } });

test.beforeEach(async () => {
  // The sandbox's preview links expire after 1 s: the app must fetch the PDF at once.
  sandbox = await startSandbox({ port: 0, invoiceCount: 50, previewLinkTtlMs: 1000 });
  host = await launchHost({ env: { EINVOICE_SANDBOX_URL: sandbox.origin } });
});
test.afterEach(async () => {
  await host.stop();
  fs.rmSync(host.dataDir, { recursive: true, force: true });
  await sandbox.close();
});

/** Presses Tab (Shift+Tab with back) until the focused element matches `selector`. */
async function tabTo(page: Page, selector: string, back = false): Promise<void> {
  for (let i = 0; i < 80; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function focused(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-path') ?? document.activeElement?.id ?? null);
}

async function apiCall(name: string, body: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  const res = await fetch(`${host.origin}/api/call/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-einvoice-secret': host.secret },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; value?: unknown; error?: { code: string } };
}

/**
 * Types one grid line from its item name cell (where Enter on the last cell of the line above
 * lands): a line type is chosen by going back two cells. Enter moves on; the VAT cell is the last.
 */
async function typeLine(page: Page, line: { type?: string; name: string; unit?: string; qty?: string; price?: string; vat?: string }) {
  if (line.type) {
    await page.keyboard.press('Shift+Enter'); // ← code
    await page.keyboard.press('Shift+Enter'); // ← type
    await page.keyboard.type(line.type);
    await page.keyboard.press('Enter'); // → code
    await page.keyboard.press('Enter'); // → name
  }
  await page.keyboard.type(line.name);
  if (line.unit === undefined) return; // a note line ends at its name
  await page.keyboard.press('Enter');
  await page.keyboard.type(line.unit);
  await page.keyboard.press('Enter');
  await page.keyboard.type(line.qty!);
  await page.keyboard.press('Enter');
  await page.keyboard.type(line.price!);
  await page.keyboard.press('Enter');
  if (line.type !== '3') await page.keyboard.press('Enter'); // discount % (not on a trade-discount line)
  await page.keyboard.type(line.vat!);
}

const yy = () => String(new Date(Date.now() + 7 * 3600_000).getUTCFullYear() % 100).padStart(2, '0');

async function draftByKeyboard(page: Page): Promise<void> {
  await page.goto(await host.newLaunchUrl());
  await expect(page.getByRole('heading', { level: 1, name: 'Hóa đơn nháp' })).toBeVisible();
  await page.keyboard.press('Alt+N');
  await expect(page.locator('#f-kind')).toBeFocused();

  // Header: the series picker offers the active templates of this kind (fetched from the sandbox).
  await tabTo(page, '#f-InvSeries');
  const series = `1C${yy()}TBH`; // a multi-rate template: this invoice has two VAT rates
  await expect(page.locator('#f-InvSeries option', { hasText: series })).toHaveCount(1);
  // The template's name says "multi-rate" already: not said twice.
  await expect(page.locator('#f-InvSeries option', { hasText: series })).toHaveText(`${series} — Hóa đơn GTGT nhiều thuế suất`);
  // Only active templates of this kind: not the inactive petrol one, not the tickets.
  await expect(page.locator('#f-InvSeries option', { hasText: `1C${yy()}TXD` })).toHaveCount(0);
  await expect(page.locator('#f-InvSeries option', { hasText: `5C${yy()}TVE` })).toHaveCount(0);
  await page.keyboard.type(series);
  await expect(page.locator('#f-InvSeries')).toHaveValue(series);

  // Buyer
  await tabTo(page, '#f-BuyerTaxCode');
  await page.keyboard.type('0101243150');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Công ty TNHH Hoa Sen');
  await page.keyboard.press('Tab');
  await page.keyboard.type('12 Hàng Bài, Hà Nội');

  // Lines, keyboard only: Enter moves on, Enter on the last cell adds a line.
  await tabTo(page, '[data-path="lines[0].ItemName"]');
  await typeLine(page, { name: 'Cà phê hạt', unit: 'kg', qty: '2', price: '150.000', vat: '8' });
  await page.keyboard.press('Enter');
  // Enter on the last cell lands in the new line's item name (a digit typed there is a name, not a type).
  expect(await focused(page)).toBe('lines[1].ItemName');
  await typeLine(page, { name: 'Ấm trà', unit: 'cái', qty: '1', price: '200000', vat: '10' });
  await page.keyboard.press('Enter');
  await typeLine(page, { name: 'Tách sứ', unit: 'cái', qty: '6', price: '25000', vat: '10' });
  await page.keyboard.press('Enter');
  await typeLine(page, { type: '3', name: 'Chiết khấu thương mại', unit: 'lần', qty: '1', price: '50000', vat: '10' });
  // Ctrl+Enter adds a line under the current one; a note line.
  await page.keyboard.press('Control+Enter');
  expect(await focused(page)).toBe('lines[4].ItemName');
  await typeLine(page, { type: '4', name: 'Giao hàng tận nơi trong ngày' });
  // Ctrl+Enter + Ctrl+Delete: a line added by mistake is removed again.
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('tr[data-line]')).toHaveCount(6);
  await page.keyboard.press('Control+Delete');
  await expect(page.locator('tr[data-line]')).toHaveCount(5);
}

async function expectTotals(page: Page, words = true): Promise<void> {
  // 2×150 000 @8% + 200 000 @10% + 6×25 000 @10% − 50 000 @10% (trade discount)
  await expect(page.getByTestId('total-gross')).toHaveText('650.000');
  await expect(page.getByTestId('total-without-vat')).toHaveText('600.000');
  await expect(page.getByTestId('total-discount')).toHaveText('50.000');
  await expect(page.getByTestId('total-vat')).toHaveText('54.000');
  await expect(page.getByTestId('total-amount')).toHaveText('654.000 VND');
  const rows = page.getByTestId('tax-rate-info').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveText(/8%\s*300\.000\s*24\.000/);
  await expect(rows.nth(1)).toHaveText(/10%\s*300\.000\s*30\.000/);
  await expect(page.getByTestId('line-amount-3')).toHaveText('−50.000');
  if (words) {
    await expect(page.getByTestId('words')).toHaveValue(/^Sáu trăm năm mươi bốn nghìn đồng/);
    await expect(page.getByTestId('words-edited')).toHaveCount(0);
  }
}

test('a cashier drafts, reloads and previews by keyboard alone; offline the draft is untouched', async ({ page, context }) => {
  await draftByKeyboard(page);
  await expectTotals(page);
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');

  // Reload: the same draft comes back, intact.
  await page.reload();
  await expect(page.locator('[data-path="lines[4].ItemName"]')).toHaveValue('Giao hàng tận nơi trong ngày');
  await expect(page.locator('#f-BuyerLegalName')).toHaveValue('Công ty TNHH Hoa Sen');
  await expect(page.locator('[data-path="lines[3].ItemType"]')).toHaveValue('3');
  await expectTotals(page);

  // Keystrokes typed right before a reload (inside the autosave debounce) are not lost.
  await tabTo(page, '[data-path="lines[4].ItemName"]');
  await page.keyboard.press('End');
  await page.keyboard.type(' (gấp)');
  await page.reload();
  await expect(page.locator('[data-path="lines[4].ItemName"]')).toHaveValue('Giao hàng tận nơi trong ngày (gấp)');
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  await expectTotals(page);

  // Preview (F8): a new page serving the PDF bytes fetched at once from the 1-second link.
  const popup = context.waitForEvent('page');
  await page.keyboard.press('F8');
  const previewPage = await popup;
  await expect(page.getByTestId('preview-done')).toBeVisible();
  // The tab lands on a one-time link: no secret, nothing that opens the preview again.
  const url = /\/preview\//.test(previewPage.url()) ? previewPage.url() : await previewPage.waitForURL(/\/preview\//).then(() => previewPage.url());
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/preview\/[\w-]{32}$/);
  expect(url).not.toContain(host.secret);
  await new Promise((r) => setTimeout(r, 1100)); // the service's link is dead by now; our bytes are not
  expect((await page.request.get(url)).status()).toBe(410);
  // "Open again" asks the app (with this browser's cookie) for a fresh one-time link.
  const again = await page.getByTestId('preview-done').getByRole('link').getAttribute('href');
  expect(again).toMatch(/^\/api\/preview\/[0-9a-f-]+$/);
  const res = await page.request.get(host.origin + again!);
  expect(res.url()).toMatch(/\/preview\/[\w-]{32}$/);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.body())), { mergePages: true });
  expect(text).toContain('Công ty TNHH Hoa Sen');
  expect(text.replace(/[.,\s]/g, '')).toContain('654000');
  // Outside this browser (no cookie) the app's preview route is refused.
  expect((await fetch(host.origin + again!)).status).toBe(401);
  await previewPage.close();

  // The words are automatic until typed over; then they are marked, kept and sent as typed.
  await tabTo(page, '[data-testid="words"]');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Sáu trăm năm mươi tư ngàn đồng chẵn');
  await expect(page.getByTestId('words-edited')).toBeVisible();
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  await page.reload();
  await expect(page.getByTestId('words')).toHaveValue('Sáu trăm năm mươi tư ngàn đồng chẵn');
  await expect(page.getByTestId('words-edited')).toBeVisible();
  const listed = (await apiCall('drafts.list', {})) as { value: { items: Array<{ id: string }> } };
  const exported = (await apiCall('drafts.export', { id: listed.value.items[0]!.id })) as { value: { invoice: Record<string, unknown> } };
  expect(exported.value.invoice.TotalAmountInWords).toBe('Sáu trăm năm mươi tư ngàn đồng chẵn');
  expect(exported.value.invoice.TotalAmountOC).toBe(654000);
  expect(exported.value.invoice.TaxRateInfo).toEqual([
    { VATRateName: '8%', AmountWithoutVATOC: 300000, VATAmountOC: 24000 },
    { VATRateName: '10%', AmountWithoutVATOC: 300000, VATAmountOC: 30000 },
  ]);
  await tabTo(page, '#f-kind');

  // Offline: the action says so and the draft is unchanged.
  const list = (await apiCall('drafts.list', {})) as { value: { items: Array<{ id: string }> } };
  const id = list.value.items[0]!.id;
  const before = await apiCall('drafts.get', { id });
  await sandbox.stop();
  await page.keyboard.press('F8');
  await expect(page.getByTestId('preview-error')).toContainText('ngoại tuyến');
  await expect(page.getByTestId('preview-error')).toContainText('Bản nháp vẫn giữ nguyên');
  expect(await apiCall('drafts.get', { id })).toEqual(before);
  await expectTotals(page, false);
});

test('the drafting screen has no serious or critical accessibility violations', async ({ page }) => {
  await draftByKeyboard(page);
  // Some problems on screen too (a missing name, shown once the new line is left), so their markup is checked as well.
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('words').focus();
  await expect(page.getByTestId('problem-list')).toBeVisible();
  const results = await new AxeBuilder({ page }).include('main').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`)).toEqual([]);
});

test('catalogues learn from a saved draft and fill the next one; service field errors jump to the field; list undo', async ({ page }, testInfo) => {
  await draftByKeyboard(page);
  await page.keyboard.press('Control+S');
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');

  // A new draft (Alt+N works inside a draft too): the buyer comes from the catalogue.
  await page.keyboard.press('Alt+N');
  await expect(page.locator('#f-kind')).toBeFocused();
  await expect(page.locator('#f-BuyerLegalName')).toHaveValue('');
  await tabTo(page, '#f-InvSeries');
  await page.keyboard.type(`1C${yy()}TAA`);
  await tabTo(page, '#f-BuyerLegalName');
  await page.keyboard.type('hoa sen');
  await expect(page.getByRole('option', { name: /Công ty TNHH Hoa Sen/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.locator('#f-BuyerTaxCode')).toHaveValue('0101243150');
  await expect(page.locator('#f-BuyerAddress')).toHaveValue('12 Hàng Bài, Hà Nội');
  await expect(page.locator('#f-BuyerAddress')).toBeFocused();

  // An item from the catalogue, picked with the arrows.
  await tabTo(page, '[data-path="lines[0].ItemType"]');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('t');
  const options = page.getByRole('listbox', { name: 'Gợi ý hàng hóa' }).getByRole('option');
  await expect(options.first()).toBeVisible();
  const names = await options.allTextContents();
  const target = names.findIndex((n) => n.includes('Ấm trà'));
  expect(target).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-path="lines[0].ItemName"]')).toHaveValue('Ấm trà');
  await expect(page.locator('[data-path="lines[0].UnitPrice"]')).toHaveValue('200.000');
  await expect(page.locator('[data-path="lines[0].Quantity"]')).toBeFocused();
  await page.keyboard.type('3');
  await expect(page.getByTestId('total-amount')).toHaveText('660.000 VND');

  // The draft's own check lists an error: preview is not sent, the errors are shown instead.
  await tabTo(page, '#f-BuyerAddress', true);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  const previewsBefore = sandbox.requests({ op: 'preview' }).length;
  await page.keyboard.press('F8');
  await expect(page.getByTestId('preview-blocked')).toContainText('Chưa gửi xem trước');
  await expect(page.locator('#f-BuyerAddress')).toBeFocused();
  expect(sandbox.requests({ op: 'preview' }).length).toBe(previewsBefore);
  // "Preview anyway": the service names the field (RequireError_BuyerAddress) and the screen
  // says it with the field's label, the code small beside it, the cursor in the field.
  await page.getByRole('button', { name: 'Vẫn xem trước' }).click();
  await expect(page.getByTestId('preview-error')).toContainText('Địa chỉ: bắt buộc');
  await expect(page.getByTestId('preview-error')).toContainText('RequireError_BuyerAddress');
  await expect(page.locator('#f-BuyerAddress')).toBeFocused();
  await expect(page.locator('#f-BuyerAddress')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#f-BuyerAddress-err')).toContainText('Địa chỉ: bắt buộc');
  await page.screenshot({ path: testInfo.outputPath('editor-service-error.png') });

  // The Templates area lists the cached templates with their flags.
  await page.keyboard.press('Alt+4');
  await expect(page.getByTestId('templates-table')).toContainText(`1C${yy()}TBH`);
  await expect(page.getByTestId('templates-table')).toContainText('Nhiều thuế suất');
  await page.keyboard.press('Alt+1');

  // The list: search by tax code, delete, undo.
  await page.getByRole('button', { name: '← Danh sách' }).click();
  await page.getByRole('searchbox').fill('0101243150');
  await expect(page.locator('.drafts-table tbody tr')).toHaveCount(2);
  await page.getByRole('searchbox').fill('654.000');
  await expect(page.locator('.drafts-table tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: /^Xoá bản nháp/ }).click();
  await expect(page.locator('.drafts-table tbody tr')).toHaveCount(0);
  await page.getByRole('button', { name: 'Hoàn tác' }).click();
  await expect(page.locator('.drafts-table tbody tr')).toHaveCount(1);
});

test('numbers typed the Vietnamese way, visible suggestions, Enter and Ctrl+Z at the counter', async ({ page }, testInfo) => {
  await page.goto(await host.newLaunchUrl());
  await page.keyboard.press('Alt+N');
  await expect(page.locator('#f-kind')).toBeFocused();
  await tabTo(page, '#f-InvSeries');
  await page.keyboard.type(`1C${yy()}TAA`);

  // A new draft's untouched line shows no red errors yet.
  await expect(page.locator('[data-line="0"] .cell-error')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Tên hàng hóa, dịch vụ, dòng 1' })).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('combobox', { name: 'Thuế suất, dòng 1' })).toHaveValue('8%');

  // 25.000 × 2 = 50.000 (a dot groups thousands, as the app itself shows money).
  await page.getByRole('combobox', { name: 'Tên hàng hóa, dịch vụ, dòng 1' }).focus();
  await typeLine(page, { name: 'Gạo ST25', unit: 'kg', qty: '2', price: '25.000', vat: '' });
  await expect(page.getByTestId('line-amount-0')).toHaveText('50.000');
  await expect(page.getByRole('textbox', { name: 'Đơn giá, dòng 1' })).toHaveValue('25.000');
  await page.keyboard.press('Enter'); // the last cell: a new line, the cursor in its item name
  expect(await focused(page)).toBe('lines[1].ItemName');
  await expect(page.locator('[data-line="1"] .cell-error')).toHaveCount(0);

  // 1,5 × 10.000 = 15.000 (a comma is the decimal mark); left, the cells show 1,5 and 10.000.
  await typeLine(page, { name: 'Đường', unit: 'kg', qty: '1,5', price: '10.000', vat: '' });
  await expect(page.getByTestId('line-amount-1')).toHaveText('15.000');
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 2' })).toHaveValue('1,5');
  await expect(page.getByTestId('total-gross')).toHaveText('65.000');

  // An entry that reads two ways is refused with both readings, never guessed.
  const qty = page.getByRole('textbox', { name: 'Số lượng, dòng 2' });
  await qty.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('1.500');
  // Still in the cell: nothing is judged yet (typing 25.000 passes through 25.0 on the way).
  await page.waitForTimeout(400);
  await expect(page.locator('#err-l1-Quantity')).toHaveCount(0);
  await page.keyboard.press('Tab');
  await expect(qty).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#err-l1-Quantity')).toContainText('có thể hiểu là 1500');
  await expect(page.locator('#err-l1-Quantity')).toContainText('1,5');
  await expect(qty).toHaveValue('1.500'); // what was typed is kept
  await page.screenshot({ path: testInfo.outputPath('editor-ambiguous.png') });
  /** Types over a cell's text and leaves the cell. */
  const retype = async (cell: Locator, text: string) => {
    await cell.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  };
  await retype(qty, '1,5');
  await expect(page.locator('#err-l1-Quantity')).toHaveCount(0);
  await expect(page.getByTestId('line-amount-1')).toHaveText('15.000');

  // A price written the English way (25,000) is not read as 25 đồng: refused with both readings.
  const price = page.getByRole('textbox', { name: 'Đơn giá, dòng 1' });
  await retype(price, '25,000');
  await expect(price).toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('#err-l0-UnitPrice')).toContainText('có thể hiểu là 25.000');
  await expect(page.locator('#err-l0-UnitPrice')).toContainText('Hãy nhập 25.000 hoặc 25.');
  await expect(price).toHaveValue('25,000');
  await expect(page.getByTestId('line-amount-0')).not.toHaveText('50');
  await page.screenshot({ path: testInfo.outputPath('editor-comma-price.png') });
  await retype(price, '25.000');
  await expect(page.locator('#err-l0-UnitPrice')).toHaveCount(0);
  await expect(page.getByTestId('line-amount-0')).toHaveText('50.000');
  await expect(page.getByTestId('total-gross')).toHaveText('65.000');

  // Saving teaches the catalogue; a taught item's suggestion is on screen and picked with ↓ Enter.
  await page.keyboard.press('Control+S');
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  await page.getByRole('combobox', { name: 'Thuế suất, dòng 2' }).focus();
  await page.keyboard.press('Enter');
  expect(await focused(page)).toBe('lines[2].ItemName');
  await page.keyboard.type('gạo');
  const option = page.getByRole('listbox', { name: 'Gợi ý hàng hóa' }).getByRole('option', { name: /Gạo ST25/ });
  await expect(option).toBeVisible();
  const onTop = await option.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at !== null && el.contains(at);
  });
  expect(onTop).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('editor-suggestions.png') });
  // Near the window's bottom the list opens upward, still above everything else.
  await page.keyboard.press('Escape');
  await expect(option).toBeHidden();
  const input = page.locator('[data-path="lines[2].ItemName"]');
  const box = (await input.boundingBox())!;
  await page.setViewportSize({ width: 1366, height: Math.ceil(box.y + box.height + 20) });
  await page.keyboard.press('ArrowDown');
  await expect(option).toBeVisible();
  const flipped = await option.evaluate((el, fieldTop) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.bottom <= fieldTop + 1 && at !== null && el.contains(at);
  }, box.y);
  expect(flipped).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('editor-suggestions-up.png') });
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect(page.locator('[data-path="lines[2].ItemName"]')).toHaveValue('Gạo ST25');
  await expect(page.locator('[data-path="lines[2].UnitPrice"]')).toHaveValue('25.000');
  await expect(page.locator('[data-path="lines[2].Quantity"]')).toBeFocused();

  // Ctrl+Delete removes the line; Ctrl+Z brings it back.
  await page.keyboard.press('Control+Delete');
  await expect(page.locator('tr[data-line]')).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await expect(page.locator('tr[data-line]')).toHaveCount(3);
  await expect(page.locator('[data-path="lines[2].ItemName"]')).toHaveValue('Gạo ST25');
  // Removing the line under the cursor: the cell now shows the next line's value, not stale text.
  await page.locator('[data-path="lines[0].Quantity"]').focus();
  await page.keyboard.press('Control+Delete');
  await expect(page.locator('[data-path="lines[0].Quantity"]')).toHaveValue('1,5');
  await page.keyboard.press('Control+z');
  await expect(page.locator('[data-path="lines[0].Quantity"]')).toHaveValue('2');
  await expect(page.getByTestId('line-amount-0')).toHaveText('50.000');
  await page.getByTestId('total-amount').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('editor-totals.png') });

  // "Hóa đơn nháp" in the side bar always leads to the list.
  await page.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await expect(page.getByRole('searchbox')).toBeVisible();
  await expect(page.locator('.drafts-table tbody tr')).toHaveCount(1);
});
