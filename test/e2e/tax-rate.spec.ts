import { emptyLine, type DraftLine } from '../../common/money';
import { expect, hostCall, openNewDraft, test } from './fixtures';

const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), UnitName: 'kg', Quantity: '2', UnitPrice: '150000', ...o });

test('after the 8 % window the grid warns with the date it ended, offers 10 % and no longer lists 8 %', async ({ page, host }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const id = await openNewDraft(page, host, (draft) => ({
    ...draft,
    InvDate: '2026-12-31',
    InvSeries: '1C26TAA',
    BuyerLegalName: 'Công ty TNHH Hoa Sen',
    BuyerTaxCode: '0101243150',
    BuyerAddress: '12 Hàng Bài, Hà Nội',
    lines: [line({ ItemName: 'Cà phê', VATRateName: '8%' }), line({ ItemName: 'Ấm trà', VATRateName: '10%' })],
  }));
  const vat = page.getByRole('combobox', { name: 'Thuế suất, dòng 1' });
  await expect(vat).toHaveValue('8%');
  const choices = () => page.locator('#vat-choices option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));

  // Inside the window: 8 % is offered and the line has nothing to say.
  expect(await choices()).toContain('8%');
  await expect(page.getByRole('button', { name: 'Dùng 10% cho dòng 1' })).toHaveCount(0);

  // The invoice date moves past the window: a warning naming 2026-12-31, and the valid rate offered.
  await page.getByLabel('Ngày hóa đơn').fill('2027-01-05');
  await page.getByLabel('Ngày hóa đơn').blur();
  const warning = page.locator('#err-l0-VATRateName');
  await expect(warning).toContainText('chỉ áp dụng đến hết ngày 2026-12-31');
  await expect(warning).toContainText('Hãy dùng 10%');
  await expect(vat).toHaveAttribute('aria-describedby', 'err-l0-VATRateName');
  expect(await choices()).toEqual(['0%', '5%', '10%', 'KCT', 'KKKNT']);
  const useTen = page.getByRole('button', { name: 'Dùng 10% cho dòng 1' });
  await expect(useTen).toBeVisible();
  await expect(page.getByRole('button', { name: /cho dòng 2/ })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('grid-vat-after-window.png') });

  await useTen.click();
  await expect(vat).toHaveValue('10%');
  await expect(warning).toHaveCount(0);
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');
  const saved = await hostCall<{ draft: { lines: DraftLine[] } }>(host, 'drafts.get', { id });
  expect(saved.draft.lines.map((l) => l.VATRateName)).toEqual(['10%', '10%']);
});
