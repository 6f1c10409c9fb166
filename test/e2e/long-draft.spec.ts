import type { Page } from '@playwright/test';
import { emptyLine, type DraftLine } from '../../common/money';
import { expect, hostCall, test } from './fixtures';

const LINES = 400;

// The last line has no name: the problems list offers to go to it.
const lines = (): DraftLine[] =>
  Array.from({ length: LINES }, (_, i) => ({
    ...emptyLine(1),
    ItemName: i === LINES - 1 ? '' : `Mặt hàng số ${i + 1}`,
    UnitName: 'cái',
    Quantity: '2',
    UnitPrice: String(10_000 + i),
    VATRateName: '10%',
  }));

/** The grid's lines in the DOM, and those of them on the screen. */
async function drawnRows(page: Page): Promise<{ drawn: number; onScreen: number; last: number }> {
  return page.evaluate(() => {
    const bodies = Array.from(document.querySelectorAll<HTMLElement>('tbody.line-body'));
    const onScreen = bodies.filter((b) => {
      const r = b.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    }).length;
    return { drawn: bodies.length, onScreen, last: Number(bodies[bodies.length - 1]?.dataset.index ?? -1) };
  });
}

test('a 400-line draft draws only the lines near the screen, at its end as at its start', async ({ page, host }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const record = await hostCall<{ id: string; draft: Record<string, unknown> }>(host, 'drafts.create', {});
  await hostCall(host, 'drafts.save', {
    id: record.id,
    draft: { ...record.draft, BuyerLegalName: 'Công ty TNHH Hoa Sen', BuyerTaxCode: '0101243150', BuyerAddress: '12 Hàng Bài, Hà Nội', lines: lines() },
  });
  await page.goto(await host.newLaunchUrl());
  await page.evaluate((id) => sessionStorage.setItem('einvoice.openDraft', id), record.id);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1', exact: true })).toBeVisible();
  // Three lines are kept ready beyond each edge of the screen (one more allowed for a line cut by an edge).
  const fewDrawn = async () => {
    const r = await drawnRows(page);
    return r.onScreen > 0 && r.drawn <= r.onScreen + 4 ? 'few' : `${r.drawn} lines drawn for ${r.onScreen} on the screen`;
  };
  await expect.poll(fewDrawn).toBe('few');

  // At the end the totals fill the lower part of the screen: they are not taken for more lines.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastQty = page.getByRole('textbox', { name: `Số lượng, dòng ${LINES}`, exact: true });
  await expect(lastQty).toBeVisible();
  await expect.poll(async () => (await drawnRows(page)).last).toBe(LINES - 1);
  await expect.poll(fewDrawn).toBe('few');
  // Nothing blank between the last line and the totals.
  const gap = await page.evaluate(() => {
    const table = document.querySelector('table.line-grid')!.getBoundingClientRect();
    const bodies = document.querySelectorAll('tbody.line-body');
    return table.bottom - bodies[bodies.length - 1]!.getBoundingClientRect().bottom;
  });
  expect(Math.abs(gap)).toBeLessThan(40);

  // Typing in the last line still moves the totals.
  const total = page.getByTestId('total-amount');
  const before = await total.textContent();
  await lastQty.click();
  await page.keyboard.press('End');
  await page.keyboard.type('0');
  await expect(total).not.toHaveText(before ?? '');
  await page.screenshot({ path: testInfo.outputPath('long-draft-end.png') });

  // And back at the top, line 1 is drawn again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('textbox', { name: 'Số lượng, dòng 1', exact: true })).toBeVisible();
  await expect.poll(fewDrawn).toBe('few');

  // From the top, the problems list goes to the last line: its name cell is focused, on the screen.
  await page.getByRole('button', { name: `Dòng ${LINES}: cần nhập tên hàng hóa, dịch vụ.` }).click();
  const lastName = page.getByRole('combobox', { name: `Tên hàng hóa, dịch vụ, dòng ${LINES}`, exact: true });
  await expect(lastName).toBeFocused();
  await expect(lastName).toBeInViewport();
  await expect.poll(fewDrawn).toBe('few');

  // One more problem below the grid (a wrong buyer email) makes the page below it taller: still few lines.
  await page.getByLabel('Email', { exact: true }).fill('sai-dia-chi');
  await expect(page.getByRole('button', { name: '"sai-dia-chi" không phải địa chỉ email hợp lệ.' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(async () => (await drawnRows(page)).last).toBe(LINES - 1);
  await expect.poll(fewDrawn).toBe('few');
});
