/** The issuing form of InvoiceData: hand-computed and BigInt-reference examples. */
import { describe, expect, it } from 'vitest';
import {
  emptyDraft,
  emptyLine,
  issuingForm,
  issuingOptionsFromSettings,
  serialiseDraft,
  draftFromInvoiceData,
  type DraftLine,
  type InvoiceDraft,
} from '../../../common/money';
import { IssuingInvoiceDataSchema, InvoiceDataSchema } from '../../../common/model';
import { DEFAULT_SETTINGS } from '../../../common/calls/settings';
import { convert, minor, pow10, roundDiv, scaled } from './bigint-reference';

const REF = '7a1c2f3e-4b5d-4e6f-8a9b-0c1d2e3f4a5b';
const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), ItemName: 'Hàng', ...o });

/** 3 rates (5 %, 8 %, 10 %), a trade discount, a promotion and a note, in USD at 25 150.5. */
function usdDraft(): InvoiceDraft {
  return emptyDraft({
    RefID: REF,
    InvDate: '2026-03-10',
    InvSeries: '1C26TAA',
    CurrencyCode: 'USD',
    ExchangeRate: '25150.5',
    lines: [
      // 3 × 19.99 = 59.97; 5 % = 2.9985 → 3.00; net 56.97; VAT 10 % = 5.697 → 5.70
      line({ Quantity: '3', UnitPrice: '19.99', DiscountRate: '5', VATRateName: '10%' }),
      // 2.5 × 123.45 = 308.625 → 308.63; VAT 8 % = 24.6904 → 24.69
      line({ Quantity: '2.5', UnitPrice: '123.45', VATRateName: '8%' }),
      // 1 × 1000.10; discount typed 10.05 → net 990.05; VAT 5 % = 49.5025 → 49.50
      line({ Quantity: '1', UnitPrice: '1000.10', DiscountAmountOC: '10.05', discountBy: 'amount', VATRateName: '5%' }),
      // trade discount 15.50, VAT 1.55, both subtracted from the 10 % row
      line({ ItemType: 3, ItemName: 'Chiết khấu', Quantity: '1', UnitPrice: '15.50', VATRateName: '10%' }),
      line({ ItemType: 4, ItemName: 'Ghi chú: giao hàng tại kho', Quantity: '', UnitPrice: '', VATRateName: '' }),
      line({ ItemType: 2, ItemName: 'Khuyến mại', Quantity: '1', UnitPrice: '5', VATRateName: '10%' }),
    ],
  });
}

/** Independent reference: every line in cents with BigInt, then the OC totals, then × rate. */
function reference(d: InvoiceDraft, rate: string) {
  const pct: Record<string, bigint> = { '5%': 5n, '8%': 8n, '10%': 10n };
  let gross = 0n;
  let discount = 0n;
  let without = 0n;
  let vat = 0n;
  for (const l of d.lines) {
    if (l.ItemType === 2 || l.ItemType === 4) continue;
    const [qu, qs] = scaled(l.Quantity);
    const [pu, ps] = scaled(l.UnitPrice);
    const amount = roundDiv(qu * pu * 100n, pow10(qs + ps));
    let disc = 0n;
    if (l.ItemType === 1 && l.discountBy === 'amount') disc = minor(l.DiscountAmountOC, 2);
    else if (l.ItemType === 1 && l.DiscountRate !== '') {
      const [ru, rs] = scaled(l.DiscountRate);
      disc = roundDiv(amount * ru, 100n * pow10(rs));
    }
    const net = amount - disc;
    const tax = roundDiv(net * pct[l.VATRateName]!, 100n);
    const sign = l.ItemType === 3 ? -1n : 1n;
    if (sign === 1n) {
      gross += amount;
      discount += disc;
    } else discount += net;
    without += sign * net;
    vat += sign * tax;
  }
  const total = without + vat;
  const conv = (x: bigint) => convert(x, 2, rate, 0);
  return {
    oc: { gross, discount, without, vat, total },
    vnd: {
      TotalSaleAmount: conv(gross),
      TotalDiscountAmount: conv(discount),
      TotalAmountWithoutVAT: conv(without),
      TotalVATAmount: conv(vat),
      TotalAmount: conv(total),
    },
  };
}

describe('issuingForm', () => {
  it('a 3-rate USD invoice at 25 150.5: converted totals match the BigInt reference', () => {
    const d = usdDraft();
    const { data } = issuingForm(d);
    const ref = reference(d, '25150.5');
    // OC figures worked out by hand in the comments of usdDraft.
    expect(ref.oc).toEqual({ gross: 136870n, discount: 2855n, without: 134015n, vat: 7834n, total: 141849n });
    // 1 418.49 × 25 150.5 = 35 675 732.745 → 35 675 733
    expect(ref.vnd.TotalAmount).toBe(35675733n);
    expect(minor(data.TotalSaleAmountOC, 2)).toBe(ref.oc.gross);
    expect(minor(data.TotalDiscountAmountOC, 2)).toBe(ref.oc.discount);
    expect(minor(data.TotalAmountWithoutVATOC, 2)).toBe(ref.oc.without);
    expect(minor(data.TotalVATAmountOC, 2)).toBe(ref.oc.vat);
    expect(minor(data.TotalAmountOC, 2)).toBe(ref.oc.total);
    for (const [k, v] of Object.entries(ref.vnd)) expect([k, minor(data[k as keyof typeof ref.vnd], 0)]).toEqual([k, v]);
    expect(data.TaxRateInfo.map((r) => r.VATRateName)).toEqual(['5%', '8%', '10%']);
    expect(data.ExchangeRate).toBe(25150.5);
    expect(data.TotalAmountInWords).toBe('Một nghìn bốn trăm mười tám đô la Mỹ bốn mươi chín xu');
  });

  it('lines: SortOrder for goods and promotions only, converted amounts, note line with VATRateName null', () => {
    const { data } = issuingForm(usdDraft());
    const l = data.OriginalInvoiceDetail;
    expect(l.map((x) => x.SortOrder)).toEqual([1, 2, 3, null, null, 4]);
    // line 1: AmountOC 59.97 × 25 150.5 = 1 508 275.485 → 1 508 275; VAT 5.70 → 143 357.85 → 143 358
    expect([l[0]!.Amount, l[0]!.DiscountAmount, l[0]!.AmountWithoutVAT, l[0]!.VATAmountOC, l[0]!.VATAmount]).toEqual([1508275, 75452, 1432824, 5.7, 143358]);
    const note = l[4]!;
    expect(note.VATRateName).toBeNull();
    expect(note.SortOrder).toBeNull();
    expect([note.Amount, note.VATAmount, note.AmountOC]).toEqual([0, 0, 0]);
    const json = JSON.parse(JSON.stringify(data)) as { OriginalInvoiceDetail: Record<string, unknown>[] };
    expect(json.OriginalInvoiceDetail[4]).toMatchObject({ ItemType: 4, VATRateName: null, SortOrder: null });
    // the trade-discount line: positive amounts, no SortOrder
    expect([l[3]!.SortOrder, l[3]!.Amount, l[3]!.VATAmount]).toEqual([null, 389833, 38983]);
  });

  it('carries everything preview sends, and parses with the issuing schema', () => {
    const d = usdDraft();
    const preview = serialiseDraft(d);
    const { data } = issuingForm(d);
    for (const [k, v] of Object.entries(preview)) {
      if (k === 'OriginalInvoiceDetail') continue;
      expect([k, data[k]]).toEqual([k, v]);
    }
    preview.OriginalInvoiceDetail.forEach((pl, i) => {
      const il = data.OriginalInvoiceDetail[i]!;
      for (const [k, v] of Object.entries(pl)) expect([i, k, il[k]]).toEqual([i, k, v]);
    });
    expect(IssuingInvoiceDataSchema.safeParse(JSON.parse(JSON.stringify(data))).success).toBe(true);
    // Preview stays as it was: no issuing fields in it.
    expect('TotalAmount' in preview || 'OptionUserDefined' in preview).toBe(false);
  });

  it('OptionUserDefined: from the settings, or what the draft needs as typed; MainCurrency VND', () => {
    const d = usdDraft();
    expect(issuingForm(d).data.OptionUserDefined).toEqual({
      QuantityDecimalDigits: 1,
      UnitPriceOCDecimalDigits: 2,
      AmountOCDecimalDigits: 2,
      AmountDecimalDigits: 0,
      CoefficientDecimalDigits: 4,
      ExchangRateDecimalDigits: 1,
      MainCurrency: 'VND',
    });
    const digits = {
      QuantityDecimalDigits: 3,
      UnitPriceOCDecimalDigits: 4,
      AmountOCDecimalDigits: 2,
      AmountDecimalDigits: 0,
      CoefficientDecimalDigits: 2,
      ExchangRateDecimalDigits: 2,
    };
    const f = issuingForm(d, { digits });
    expect(f.data.OptionUserDefined).toEqual({ ...digits, MainCurrency: 'VND' });
    expect(f.changed).toEqual([]);
  });

  it("OptionUserDefined follows the shop's settings: a fixed setting wins, an unset one follows the draft", () => {
    const d = usdDraft();
    const settings = { ...DEFAULT_SETTINGS, decimalDigits: { ...DEFAULT_SETTINGS.decimalDigits, QuantityDecimalDigits: 3, AmountDecimalDigits: 2 } };
    const f = issuingForm(d, issuingOptionsFromSettings(settings));
    expect(f.data.OptionUserDefined.QuantityDecimalDigits).toBe(3);
    expect(f.data.OptionUserDefined.AmountDecimalDigits).toBe(2);
    expect(f.data.OptionUserDefined.UnitPriceOCDecimalDigits).toBe(issuingForm(d).data.OptionUserDefined.UnitPriceOCDecimalDigits);
    expect(issuingForm(d, issuingOptionsFromSettings(DEFAULT_SETTINGS)).data).toEqual(issuingForm(d).data);
  });

  it('every figure is rounded to its digits before computing, and each change is listed', () => {
    const d = emptyDraft({
      RefID: REF,
      InvDate: '2026-03-10',
      CurrencyCode: 'USD',
      ExchangeRate: '25150.567',
      lines: [line({ Quantity: '1.2345', UnitPrice: '10.005', DiscountRate: '2.25', VATRateName: '10%' })],
    });
    const f = issuingForm(d, {
      digits: { QuantityDecimalDigits: 2, UnitPriceOCDecimalDigits: 2, CoefficientDecimalDigits: 1, ExchangRateDecimalDigits: 1, AmountDecimalDigits: 0 },
    });
    expect(f.changed).toEqual([
      { path: ['lines', 0, 'Quantity'], typed: '1.2345', sent: '1.23', digits: 2 },
      { path: ['lines', 0, 'UnitPrice'], typed: '10.005', sent: '10.01', digits: 2 },
      { path: ['lines', 0, 'DiscountRate'], typed: '2.25', sent: '2.3', digits: 1 },
      { path: ['ExchangeRate'], typed: '25150.567', sent: '25150.6', digits: 1 },
    ]);
    const l = f.data.OriginalInvoiceDetail[0]!;
    // 1.23 × 10.01 = 12.3123 → 12.31; 2.3 % = 0.28313 → 0.28; net 12.03; VAT 1.203 → 1.20
    expect([l.Quantity, l.UnitPrice, l.DiscountRate, l.AmountOC, l.DiscountAmountOC, l.AmountWithoutVATOC, l.VATAmountOC]).toEqual([
      1.23, 10.01, 2.3, 12.31, 0.28, 12.03, 1.2,
    ]);
    expect(f.data.ExchangeRate).toBe(25150.6);
    // 13.23 × 25 150.6 = 332 742.438 → 332 742
    expect(f.data.TotalAmount).toBe(332742);
    // The typed draft is left alone.
    expect(d.lines[0]!.Quantity).toBe('1.2345');
  });

  it('AmountDecimalDigits 2 keeps converted cents; a VND invoice converts to itself', () => {
    const d = usdDraft();
    const f = issuingForm(d, { digits: { AmountDecimalDigits: 2 } });
    // 1 418.49 × 25 150.5 = 35 675 732.745 → 35 675 732.75 (half-up)
    expect(f.data.TotalAmount).toBe(35675732.75);
    const vnd = emptyDraft({ RefID: REF, InvDate: '2026-03-10', lines: [line({ Quantity: '3', UnitPrice: '15500', DiscountRate: '5', VATRateName: '10%' })] });
    const v = issuingForm(vnd).data;
    expect([v.TotalSaleAmount, v.TotalDiscountAmount, v.TotalAmountWithoutVAT, v.TotalVATAmount, v.TotalAmount]).toEqual([46500, 2325, 44175, 4418, 48593]);
    expect([v.TotalSaleAmountOC, v.TotalAmountOC]).toEqual([46500, 48593]);
  });

  it('IsInvoiceSummary from the template; the email to the buyer only when asked; typed words win', () => {
    const d = usdDraft();
    expect(issuingForm(d, { template: { IsSendSummary: true } }).data.IsInvoiceSummary).toBe(true);
    expect(issuingForm(d, { template: { IsSendSummary: null } }).data.IsInvoiceSummary).toBe(false);
    const plain = issuingForm(d).data;
    expect(['IsSendEmail', 'ReceiverName', 'ReceiverEmail'].some((k) => k in plain)).toBe(false);
    const mailed = issuingForm(d, { sendEmail: { name: ' Nguyễn Văn A ', email: 'a@abc.vn, b@abc.vn' } }).data;
    expect([mailed.IsSendEmail, mailed.ReceiverName, mailed.ReceiverEmail]).toEqual([true, 'Nguyễn Văn A', 'a@abc.vn;b@abc.vn']);
    expect(issuingForm(d, { typedWords: ' Một nghìn bốn trăm mười tám đô la Mỹ bốn mươi chín xu chẵn ' }).data.TotalAmountInWords).toBe(
      'Một nghìn bốn trăm mười tám đô la Mỹ bốn mươi chín xu chẵn',
    );
  });

  it('Decree 70 fields and the correction reference reach preview and issuing, and read back', () => {
    const d = usdDraft();
    d.BuyerIDNumber = '001 099 012 345';
    d.BuyerPassport = 'B1234567';
    d.BuyerBudgetCode = '';
    d.SellerShopCode = 'CH02';
    d.SellerShopName = 'Cửa hàng Cầu Giấy';
    d.correction = {
      ReferenceType: 2,
      OrgInvoiceType: 1,
      OrgInvTemplateNo: '1',
      OrgInvSeries: 'C26TAA',
      OrgInvNo: '00000012',
      OrgInvDate: '2026-03-01',
      InvoiceNote: 'Điều chỉnh giảm đơn giá',
    };
    const preview = serialiseDraft(d);
    expect(preview).toMatchObject({
      BuyerIDNumber: '001099012345',
      BuyerPassport: 'B1234567',
      SellerShopCode: 'CH02',
      SellerShopName: 'Cửa hàng Cầu Giấy',
      ReferenceType: 2,
      OrgInvTemplateNo: '1',
      OrgInvSeries: 'C26TAA',
      OrgInvNo: '00000012',
      OrgInvDate: '2026-03-01',
      InvoiceNote: 'Điều chỉnh giảm đơn giá',
    });
    expect('BuyerBudgetCode' in preview).toBe(false);
    expect(issuingForm(d).data).toMatchObject({ BuyerIDNumber: '001099012345', OrgInvSeries: 'C26TAA' });
    const back = draftFromInvoiceData(InvoiceDataSchema.parse(JSON.parse(JSON.stringify(preview))));
    expect([back.BuyerIDNumber, back.SellerShopName, back.correction, back.extra]).toEqual(['001099012345', 'Cửa hàng Cầu Giấy', d.correction, undefined]);
    expect(serialiseDraft(back)).toEqual(preview);
  });
});
