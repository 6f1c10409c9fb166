import { z } from 'zod';
import { WireFlag, WireInteger, WireNumber, WireText } from './wire';

/**
 * InvoiceData (docs/service.md#invoicedata): the request body of Preview, and what a draft serialises to.
 * Every object is loose: fields the service adds later pass through untouched.
 * The service does not say which fields are required; the schema requires only the identity,
 * the lines and the tax-rate rows, which our client always sends. Business rules (a tax code
 * makes BuyerLegalName/BuyerAddress required, …) live in common/rules and common/validation.
 */

/** Allowed ItemType values (docs/invoice-rules.md#line-kinds--itemtype). */
export const ItemType = {
  Goods: 1,
  Promotion: 2,
  TradeDiscount: 3,
  Note: 4,
  SpecialGoods: 5,
} as const;
export type ItemType = (typeof ItemType)[keyof typeof ItemType];
export const ITEM_TYPES: readonly ItemType[] = [1, 2, 3, 4, 5];

/** Element of OriginalInvoiceDetail. */
export const InvoiceLineSchema = z.looseObject({
  ItemType: WireInteger,
  LineNumber: WireInteger,
  ItemCode: WireText,
  ItemName: WireText,
  UnitName: WireText,
  Quantity: WireNumber.nullish(),
  UnitPrice: WireNumber.nullish(),
  DiscountRate: WireNumber.nullish(),
  DiscountAmountOC: WireNumber.nullish(),
  AmountOC: WireNumber.nullish(),
  AmountWithoutVATOC: WireNumber.nullish(),
  /** A percentage label: `0%`, `5%`, `8%`, `10%`, `KCT`, `KKKNT`, `KHAC:x%`. */
  VATRateName: WireText,
});
export type InvoiceLine = z.infer<typeof InvoiceLineSchema>;

/** Element of TaxRateInfo: one row per VAT rate. */
export const TaxRateInfoSchema = z.looseObject({
  VATRateName: z.string(),
  AmountWithoutVATOC: WireNumber,
  VATAmountOC: WireNumber,
});
export type TaxRateInfo = z.infer<typeof TaxRateInfoSchema>;

export const InvoiceDataSchema = z.looseObject({
  RefID: z.string(),
  InvSeries: z.string(),
  InvoiceName: WireText,
  /** `YYYY-MM-DD`, a calendar date in Vietnam (UTC+7). */
  InvDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'),
  CurrencyCode: z.string(),
  ExchangeRate: WireNumber.nullish(),
  PaymentMethodName: WireText,
  IsTicket: WireFlag,
  BuyerLegalName: WireText,
  BuyerTaxCode: WireText,
  BuyerAddress: WireText,
  BuyerCode: WireText,
  BuyerPhoneNumber: WireText,
  BuyerEmail: WireText,
  BuyerFullName: WireText,
  BuyerBankAccount: WireText,
  BuyerBankName: WireText,
  TotalAmountWithoutVATOC: WireNumber,
  TotalVATAmountOC: WireNumber,
  TotalDiscountAmountOC: WireNumber,
  TotalAmountOC: WireNumber,
  TotalAmountInWords: WireText,
  OriginalInvoiceDetail: z.array(InvoiceLineSchema),
  TaxRateInfo: z.array(TaxRateInfoSchema),
  // Decree 70 buyer identity and seller outlet (sent only when filled).
  BuyerIDNumber: WireText,
  BuyerPassport: WireText,
  BuyerBudgetCode: WireText,
  SellerShopCode: WireText,
  SellerShopName: WireText,
  // A replacement (1) or adjustment (2) and its original: see correction.ts.
  ReferenceType: WireInteger.nullish(),
  OrgInvoiceType: WireInteger.nullish(),
  OrgInvTemplateNo: z.union([z.string(), z.number()]).nullish(),
  OrgInvSeries: WireText,
  OrgInvNo: z.union([z.string(), z.number()]).nullish(),
  OrgInvDate: WireText,
  InvoiceNote: WireText,
});
export type InvoiceData = z.infer<typeof InvoiceDataSchema>;

/** The buyer's fields of an InvoiceData, as plain text (the shape drafts and the sandbox keep). */
export interface InvoiceBuyerText {
  BuyerLegalName: string;
  BuyerTaxCode: string;
  BuyerAddress: string;
  BuyerCode: string;
  BuyerPhoneNumber: string;
  BuyerEmail: string;
  BuyerFullName: string;
  BuyerBankAccount: string;
  BuyerBankName: string;
}
