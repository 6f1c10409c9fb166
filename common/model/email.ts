import { z } from 'zod';
import { WireFlag, WireInteger, WireText } from './wire';

/** SendEmailData (docs/service.md#sendemailparameter-sendemaildata-sendemailresult). ReceiverEmail holds one or more addresses separated by `;`. */
export const SendEmailDataSchema = z.looseObject({
  TransactionID: z.string(),
  ReceiverName: WireText,
  ReceiverEmail: z.string(),
  CCEmail: WireText,
  /** In a published sample, not in every deployment's field list: send only when filled. */
  BCCEmail: WireText,
  ReplyEmail: WireText,
});
export type SendEmailData = z.infer<typeof SendEmailDataSchema>;

/** SendEmailParameter (docs/service.md#sendemailparameter-sendemaildata-sendemailresult): the request body of Send email. One invoice kind per request. */
export const SendEmailParameterSchema = z.looseObject({
  SendEmailDatas: z.array(SendEmailDataSchema),
  IsInvoiceCode: z.boolean(),
  IsInvoiceCalculatingMachine: WireFlag,
});
export type SendEmailParameter = z.infer<typeof SendEmailParameterSchema>;

/** SendEmailStatus (docs/service.md#sendemailparameter-sendemaildata-sendemailresult). */
export const SendEmailStatus = {
  NotSent: 0,
  Sending: 1,
  SendError: 2,
  Sent: 3,
  Requested: 4,
} as const;
export type SendEmailStatus = (typeof SendEmailStatus)[keyof typeof SendEmailStatus];

export const SendEmailStatusSchema = WireInteger.refine((n): n is SendEmailStatus => n >= 0 && n <= 4, 'must be a SendEmailStatus 0..4').transform(
  (n) => n as SendEmailStatus,
);

/** SendEmailResult (docs/service.md#sendemailparameter-sendemaildata-sendemailresult). Judge each item by SendEmailStatus and ErrorCode, not the envelope. */
export const SendEmailResultSchema = z.looseObject({
  TransactionID: z.string(),
  RefID: WireText,
  RefDetailID: WireText,
  SendEmailStatus: SendEmailStatusSchema,
  ErrorCode: WireText,
});
export type SendEmailResult = z.infer<typeof SendEmailResultSchema>;
