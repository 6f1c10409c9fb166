/** Decree 70 buyer identity and seller outlet fields: validation and the retail buyer. */
import { describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine, type InvoiceDraft } from '../../../common/money';
import { isRetailBuyer } from '../../../common/rules';
import { validateDraft } from '../../../common/validation';

const NOW = { now: new Date('2026-03-10T03:00:00Z') };
function retail(over: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return emptyDraft({
    RefID: '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b',
    InvDate: '2026-03-10',
    InvSeries: '2C26TAA',
    lines: [{ ...emptyLine(1), ItemName: 'Cà phê', UnitPrice: '25000' }],
    ...over,
  });
}
const codes = (d: InvoiceDraft) => validateDraft(d, NOW).problems.map((p) => [p.path, p.code, p.severity]);

describe('Decree 70 buyer fields', () => {
  it('a retail buyer (no tax code, no ID, passport or budget code) needs no name', () => {
    const d = retail();
    expect(isRetailBuyer(d)).toBe(true);
    expect(codes(d)).toEqual([]);
    expect(isRetailBuyer(retail({ BuyerIDNumber: '001099012345' }))).toBe(false);
    expect(isRetailBuyer(retail({ BuyerTaxCode: '0101243150' }))).toBe(false);
    expect(isRetailBuyer(retail({ BuyerPassport: '  ', SellerShopCode: 'CH01' }))).toBe(true);
  });

  it('BuyerIDNumber has 12 digits (spaces ignored); with it a name is required', () => {
    expect(codes(retail({ BuyerIDNumber: '001 099 012 345', BuyerFullName: 'Trần Thị B' }))).toEqual([]);
    expect(codes(retail({ BuyerIDNumber: '00109901234', BuyerFullName: 'Trần Thị B' }))).toEqual([['BuyerIDNumber', 'buyer.idNumber', 'error']]);
    expect(codes(retail({ BuyerIDNumber: '00109901234A', BuyerLegalName: 'Trần Thị B' }))).toEqual([['BuyerIDNumber', 'buyer.idNumber', 'error']]);
    expect(codes(retail({ BuyerIDNumber: '001099012345' }))).toEqual([['BuyerFullName', 'required.BuyerFullName', 'error']]);
  });

  it('BuyerPassport: at most 20 letters and digits; with it a name is required', () => {
    expect(codes(retail({ BuyerPassport: 'C12345678', BuyerFullName: 'John Smith' }))).toEqual([]);
    expect(codes(retail({ BuyerPassport: 'A'.repeat(20), BuyerFullName: 'John Smith' }))).toEqual([]);
    expect(codes(retail({ BuyerPassport: 'A'.repeat(21), BuyerFullName: 'John Smith' }))).toEqual([['BuyerPassport', 'buyer.passport', 'error']]);
    expect(codes(retail({ BuyerPassport: 'C123 456', BuyerFullName: 'John Smith' }))).toEqual([['BuyerPassport', 'buyer.passport', 'error']]);
    const r = validateDraft(retail({ BuyerPassport: 'C12345678' }), NOW);
    expect(r.errors[0]).toMatchObject({ path: 'BuyerFullName', messageVi: 'Cần nhập tên người mua khi có số định danh hoặc số hộ chiếu.' });
  });

  it('BuyerBudgetCode: 7 characters, and then the name and address are required', () => {
    expect(codes(retail({ BuyerBudgetCode: '1234567', BuyerLegalName: 'Trường THCS Nghĩa Tân', BuyerAddress: 'Cầu Giấy, Hà Nội' }))).toEqual([]);
    expect(codes(retail({ BuyerBudgetCode: '123456', BuyerLegalName: 'Trường THCS Nghĩa Tân', BuyerAddress: 'Cầu Giấy, Hà Nội' }))).toEqual([
      ['BuyerBudgetCode', 'buyer.budgetCode', 'error'],
    ]);
    expect(codes(retail({ BuyerBudgetCode: '1234567' }))).toEqual([
      ['BuyerLegalName', 'required.BuyerLegalName', 'error'],
      ['BuyerAddress', 'required.BuyerAddress', 'error'],
    ]);
    // with a tax code too, the names are asked for once
    const both = codes(retail({ BuyerBudgetCode: '1234567', BuyerTaxCode: '0101243150' }));
    expect(both.filter((p) => p[1] === 'required.BuyerLegalName')).toHaveLength(1);
  });

  it('SellerShopCode without SellerShopName is a warning', () => {
    expect(codes(retail({ SellerShopCode: 'CH02', SellerShopName: 'Cửa hàng Cầu Giấy' }))).toEqual([]);
    expect(codes(retail({ SellerShopCode: 'CH02' }))).toEqual([['SellerShopName', 'seller.shopName', 'warning']]);
  });
});
