import { z } from 'zod';
import { WireFlag, WireInteger, WireNumber, WireText } from './wire';
import { InvoiceDataSchema, InvoiceLineSchema } from './invoice';

/**
 * The issuing form of InvoiceData: what preview sends, plus the converted (VND) amounts, the
 * per-line SortOrder, the decimal digits the figures are rounded to, the summary flag of the
 * template and the optional email to the buyer. Built by common/money/issuing.ts.
 */

/**
 * Sign types the app issues with: 2 HSM (a certificate from get-certificates), 5 cash register
 * (no signature), 3 and 6 their asynchronous variants (settled by status). 1 (USB token) needs a
 * signing tool on the PC and is refused; 4 (tickets signed later) is not offered.
 */
export const SIGN_TYPES = [2, 5, 3, 6] as const;
export const SignTypeSchema = z.union([z.literal(2), z.literal(5), z.literal(3), z.literal(6)]);
export type SignType = (typeof SIGN_TYPES)[number];
/** Sign types that need a CertificateSN. */
export const CERTIFICATE_SIGN_TYPES: readonly SignType[] = [2, 3];
/** Sign types whose answer comes later: the invoice is settled by a status lookup. */
export const ASYNC_SIGN_TYPES: readonly SignType[] = [3, 6];
/** The service's recommended batch (the hard limit is 50). */
export const MAX_ISSUE_BATCH = 30;

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
