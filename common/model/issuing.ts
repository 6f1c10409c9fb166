import { z } from 'zod';
import { WireFlag, WireInteger, WireNumber, WireText } from './wire';
import { InvoiceDataSchema, InvoiceLineSchema } from './invoice';

/**
 * The issuing form of InvoiceData: what preview sends, plus the converted (VND) amounts, the
 * per-line SortOrder, the decimal digits the figures are rounded to, the summary flag of the
 * template and the optional email to the buyer. Built by common/money/issuing.ts.
 */

/** OptionUserDefined: decimal digits per kind of number (ExchangRate… is the service's spelling). */
export const OptionUserDefinedSchema = z.looseObject({
  QuantityDecimalDigits: WireInteger,
  UnitPriceOCDecimalDigits: WireInteger,
  AmountOCDecimalDigits: WireInteger,
  AmountDecimalDigits: WireInteger,
  CoefficientDecimalDigits: WireInteger,
  ExchangRateDecimalDigits: WireInteger,
  MainCurrency: z.string(),
});
export type OptionUserDefined = z.infer<typeof OptionUserDefinedSchema>;
export interface DecimalDigits {
  QuantityDecimalDigits: number;
  UnitPriceOCDecimalDigits: number;
  AmountOCDecimalDigits: number;
  AmountDecimalDigits: number;
  CoefficientDecimalDigits: number;
  ExchangRateDecimalDigits: number;
}

export const IssuingLineSchema = InvoiceLineSchema.extend({
  /** Printed line number; null for trade-discount (3) and note (4) lines. */
  SortOrder: WireInteger.nullable(),
  Amount: WireNumber,
  DiscountAmount: WireNumber,
  AmountWithoutVAT: WireNumber,
  VATAmountOC: WireNumber,
  VATAmount: WireNumber,
  /** null on a note line. */
  VATRateName: z.string().nullable(),
});
export type IssuingLine = z.infer<typeof IssuingLineSchema>;

export const IssuingInvoiceDataSchema = InvoiceDataSchema.extend({
  OriginalInvoiceDetail: z.array(IssuingLineSchema),
  TotalSaleAmountOC: WireNumber,
  TotalSaleAmount: WireNumber,
  TotalAmountWithoutVAT: WireNumber,
  TotalVATAmount: WireNumber,
  TotalDiscountAmount: WireNumber,
  TotalAmount: WireNumber,
  OptionUserDefined: OptionUserDefinedSchema,
  IsInvoiceSummary: WireFlag,
  IsSendEmail: WireFlag,
  ReceiverName: WireText,
  ReceiverEmail: WireText,
});
export type IssuingInvoiceData = z.infer<typeof IssuingInvoiceDataSchema>;
