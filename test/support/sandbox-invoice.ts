import { computeTotals, type SandboxInvoice } from '../../main/sandbox/data';

/** A valid InvoiceData as the sandbox holds it, with totals computed unless given. */
export function sampleInvoiceData(overrides: Partial<SandboxInvoice> = {}): SandboxInvoice {
  const inv: SandboxInvoice = {
    RefID: '3f2b8c1e-5a4d-4e6f-9b7a-1c2d3e4f5a6b',
    InvSeries: '1C26TAA',
    InvoiceName: 'Hóa đơn giá trị gia tăng',
    InvDate: '2026-03-15',
    CurrencyCode: 'VND',
    ExchangeRate: 1,
    PaymentMethodName: 'TM/CK',
    IsTicket: false,
    BuyerLegalName: 'Công ty Cổ phần Thực phẩm Sông Hồng',
    BuyerTaxCode: '0101234567',
    BuyerAddress: 'Số 12 Hàng Bạc, Phường Hoàn Kiếm, Hà Nội',
    BuyerCode: 'KH00042',
    BuyerPhoneNumber: '0912345678',
    BuyerEmail: 'ketoan@songhong.example.vn',
    BuyerFullName: 'Nguyễn Thị Thu Hương',
    BuyerBankAccount: '',
    BuyerBankName: '',
    TotalAmountWithoutVATOC: 0,
    TotalVATAmountOC: 0,
    TotalDiscountAmountOC: 0,
    TotalAmountOC: 0,
    TotalAmountInWords: '',
    OriginalInvoiceDetail: [
      {
        ItemType: 1,
        LineNumber: 1,
        ItemCode: 'CF01',
        ItemName: 'Cà phê rang xay Buôn Ma Thuột',
        UnitName: 'gói',
        Quantity: 4,
        UnitPrice: 185_000,
        DiscountRate: 0,
        DiscountAmountOC: 0,
        AmountOC: 0,
        AmountWithoutVATOC: 0,
        VATRateName: '8%',
      },
      {
        ItemType: 1,
        LineNumber: 2,
        ItemCode: 'TR02',
        ItemName: 'Trà Thái Nguyên đặc biệt',
        UnitName: 'hộp',
        Quantity: 2,
        UnitPrice: 150_000,
        DiscountRate: 0,
        DiscountAmountOC: 0,
        AmountOC: 0,
        AmountWithoutVATOC: 0,
        VATRateName: '10%',
      },
    ],
    TaxRateInfo: [],
    ...overrides,
  };
  if (!overrides.TotalAmountOC) computeTotals(inv);
  return inv;
}
