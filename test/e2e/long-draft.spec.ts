import type { Page } from '@playwright/test';
import { emptyLine, type DraftLine } from '../../common/money';
import { expect, hostCall, test } from './fixtures';

const LINES = 400;

const lines = (): DraftLine[] =>
  Array.from({ length: LINES }, (_, i) => ({
    ...emptyLine(1),
    ItemName: `Mặt hàng số ${i + 1}`,
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
  // Three lines are kept ready beyond each edge of the screen.
  const top = await drawnRows(page);
  expect(top.drawn).toBeLessThanOrEqual(top.onScreen + 3);

  // At the end the totals fill the lower part of the screen: they are not taken for more lines.
  await page.keyboard.press('End');
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const lastQty = page.getByRole('textbox', { name: `Số lượng, dòng ${LINES}`, exact: true });
  await expect(lastQty).toBeVisible();
  await expect.poll(async () => (await drawnRows(page)).last).toBe(LINES - 1);
  const end = await drawnRows(page);
  expect(end.onScreen).toBeGreaterThan(0);
  expect(end.drawn, `${end.drawn} lines drawn for ${end.onScreen} on the screen`).toBeLessThanOrEqual(end.onScreen + 3);
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
  const back = await drawnRows(page);
  expect(back.drawn).toBeLessThanOrEqual(back.onScreen + 3);
});
