import { emptyLine, serialiseDraft, type InvoiceDraft } from '../../common/money';
import { expect, hostCall, openNewDraft, test } from './fixtures';

test('Decree 70 fields: folded away for a retail buyer, checked when used, kept and sent with the draft', async ({ page, host }, testInfo) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const id = await openNewDraft<InvoiceDraft>(page, host, (draft) => ({
    ...draft,
    InvSeries: `2C${draft.InvDate.slice(2, 4)}TAA`,
    lines: [{ ...emptyLine(1), ItemName: 'Bánh mì', UnitName: 'cái', Quantity: '2', UnitPrice: '25000', VATRateName: '' }],
  }));

  // A retail buyer: no tax code, no identity, and no name asked for; the Decree 70 group is folded.
  const group = page.locator('details.buyer-ids');
  await expect(group).not.toHaveAttribute('open');
  const idNumber = page.getByLabel('Số định danh cá nhân (12 số)');
  await expect(idNumber).toBeHidden();
  await expect(page.locator('#f-BuyerLegalName-err, #f-BuyerFullName-err')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('decree70-folded.png') });

  await page.getByText('Định danh người mua và cửa hàng (Nghị định 70)').click();
  await expect(idNumber).toBeVisible();
  await idNumber.fill('00109901234');
  await expect(page.locator('#f-BuyerIDNumber-err')).toHaveText('Số định danh cá nhân "00109901234" không hợp lệ: phải gồm 12 chữ số.');
  await expect(idNumber).toHaveAttribute('aria-invalid', 'true');
  // With an identity the buyer is no longer retail: a name is needed.
  await expect(page.locator('#f-BuyerFullName-err')).toContainText('Cần nhập tên người mua');
  await page.screenshot({ path: testInfo.outputPath('decree70-open.png') });

  await idNumber.fill('001 099 012 345');
  await page.getByLabel('Người mua hàng').fill('Nguyễn Văn An');
  await page.getByLabel('Mã cửa hàng').fill('CH02');
  await page.getByLabel('Tên cửa hàng').fill('Cửa hàng Cầu Giấy');
  await expect(page.locator('#f-BuyerIDNumber-err, #f-BuyerFullName-err, #f-SellerShopName-err')).toHaveCount(0);
  await expect(page.getByTestId('save-state')).toHaveText('Đã lưu');

  // Saved with the draft, and what preview and issuing send carries them.
  const saved = await hostCall<{ draft: InvoiceDraft }>(host, 'drafts.get', { id });
  expect(saved.draft).toMatchObject({ BuyerIDNumber: '001 099 012 345', SellerShopCode: 'CH02', SellerShopName: 'Cửa hàng Cầu Giấy' });
  expect(serialiseDraft(saved.draft)).toMatchObject({ BuyerIDNumber: '001099012345', SellerShopCode: 'CH02', SellerShopName: 'Cửa hàng Cầu Giấy' });

  // A draft that uses them opens with the group unfolded.
  await page.reload();
  await expect(group).toHaveAttribute('open');
  await expect(idNumber).toHaveValue('001 099 012 345');
});
