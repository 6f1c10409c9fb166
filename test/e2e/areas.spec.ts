import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { sandboxWithHost } from './sandbox-host';

const env = sandboxWithHost({ seed: 5, invoiceCount: 200 });

const AREAS = {
  vi: ['Hóa đơn nháp', 'Hàng đợi phát hành', 'Hóa đơn đã phát hành', 'Tải hóa đơn', 'Hàng đợi email', 'Mẫu hóa đơn', 'Cài đặt'],
  en: ['Drafts', 'Issue queue', 'Issued invoices', 'Downloads', 'Email queue', 'Templates', 'Settings'],
} as const;
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;
const SCREENS = path.resolve('test-results', 'screens');

/** Some work in each area first, so tables, jobs and notices are on screen, not only empty states. */
async function seed(page: Page): Promise<void> {
  const ids = env.sandbox.catalogue.list('withCode');
  await page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' }).click();
  await page.getByRole('button', { name: 'Nhập CSV' }).click();
  const csv = [
    'TransactionID,ReceiverName,ReceiverEmail',
    `${ids[0]},Công ty TNHH Thương mại Dịch vụ Hoàng Long,ketoan@hoanglong.vn`,
    `${ids[1]},Nguyễn Thị Mai,mai@example.com`,
    'KHONG-CO-404,Trần Văn Bình,binh@example.com',
    'NOPE-1,Sai,khong-phai-email',
  ].join('\n');
  await page.getByLabel('Chọn tệp CSV').setInputFiles({ name: 'khach.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await expect(page.getByText(/Đã thêm 3 email/)).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('navigation').getByRole('button', { name: 'Tải hóa đơn' }).click();
  await page.getByLabel(/^Mã tra cứu/).fill(ids.slice(0, 20).join('\n'));
  await page.getByLabel('Thư mục lưu').fill(path.join(env.host.dataDir, 'hoa-don'));
  await page.getByLabel('Hóa đơn có mã của cơ quan thuế').check();
  await page.getByRole('button', { name: 'Bắt đầu tải' }).click();
  await expect(page.getByTestId('download-counts')).toContainText('20/20', { timeout: 30_000 });

  // The register of issued invoices, read from the service for this year so far.
  await page.getByRole('navigation').getByRole('button', { name: 'Hóa đơn đã phát hành' }).click();
  await page.getByLabel('Từ ngày').fill(`01/01/${new Date().getUTCFullYear()}`);
  await page.getByRole('button', { name: 'Đồng bộ với hệ thống' }).click();
  await expect(page.getByText(/^Đã đồng bộ/)).toBeVisible({ timeout: 60_000 });
}

async function setLanguage(page: Page, lang: 'vi' | 'en'): Promise<void> {
  await page.getByRole('combobox', { name: 'Ngôn ngữ / Language' }).selectOption(lang);
}

test('every area fits 1366×768 and 1920×1080 without sideways scrolling and passes axe, in Vietnamese and English', async ({ page }) => {
  test.setTimeout(600_000);
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize(SIZES[0]);
  await page.goto(await env.host.newLaunchUrl());
  await seed(page);
  const problems: string[] = [];
  for (const lang of ['vi', 'en'] as const) {
    await setLanguage(page, lang);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const area of AREAS[lang]) {
        await page.getByRole('navigation').getByRole('button', { name: area }).click();
        await expect(page.getByRole('heading', { level: 1, name: area })).toBeVisible();
        await page.waitForTimeout(150);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        if (overflow > 0) problems.push(`${lang} ${size.width}: ${area} scrolls sideways by ${overflow}px`);
        const results = await new AxeBuilder({ page }).analyze();
        for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
          problems.push(`${lang} ${size.width}: ${area}: ${v.id} ${v.nodes.length} × ${v.nodes[0]?.target.join(' ')} — ${v.help}`);
        }
        if (size.width === 1366)
          await page.screenshot({ path: path.join(SCREENS, `${lang}-${AREAS.en[AREAS[lang].indexOf(area as never)]}.png`.replace(/ /g, '-')) });
      }
    }
  }
  // The queue's dialogs, in both languages.
  await page.setViewportSize(SIZES[0]);
  for (const lang of ['en', 'vi'] as const) {
    await setLanguage(page, lang);
    await page
      .getByRole('navigation')
      .getByRole('button', { name: lang === 'vi' ? 'Hàng đợi email' : 'Email queue' })
      .click();
    for (const [open, name] of lang === 'vi'
      ? [
          ['Thêm email', 'add'],
          ['Nhập CSV', 'import'],
        ]
      : [
          ['Add email', 'add'],
          ['Import CSV', 'import'],
        ]) {
      await page.getByRole('button', { name: open, exact: true }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      for (const v of results.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical'))
        problems.push(`${lang} ${name} dialog: ${v.id} — ${v.help}`);
      await page.screenshot({ path: path.join(SCREENS, `${lang}-Email-${name}-dialog.png`) });
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    }
  }

  // The draft editor, as a cashier first sees it.
  await setLanguage(page, 'vi');
  await page.setViewportSize(SIZES[0]);
  await page.getByRole('navigation').getByRole('button', { name: 'Hóa đơn nháp' }).click();
  await page.getByRole('button', { name: 'Tạo hóa đơn nháp' }).click();
  await expect(page.getByTestId('tax-rate-info')).toBeVisible();
  await page.screenshot({ path: path.join(SCREENS, 'vi-Draft-editor.png') });
  expect(problems).toEqual([]);
});

test('the side bar stays in place while a long page scrolls, and the tab shows the app icon', async ({ page }) => {
  await page.setViewportSize(SIZES[0]);
  await page.goto(await env.host.newLaunchUrl());
  await page.getByRole('navigation').getByRole('button', { name: 'Cài đặt' }).click();
  await expect(page.getByRole('heading', { name: 'Cập nhật và chẩn đoán' })).toBeAttached();
  // The sections fill in as their answers arrive: scroll to the bottom until the page is long enough.
  await expect
    .poll(() =>
      page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return window.scrollY;
      }),
    )
    .toBeGreaterThan(200);
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Hàng đợi email' })).toBeInViewport();
  await expect(page.getByRole('combobox', { name: 'Ngôn ngữ / Language' })).toBeInViewport();
  await expect(page.getByRole('status').filter({ hasText: 'Đang trực tuyến' })).toBeInViewport();

  const href = await page.locator('link[rel=icon]').getAttribute('href');
  const icon = await page.request.get(new URL(href!, page.url()).toString());
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
});
