import { z } from 'zod';
import { WireFlag, WireInteger, WireText } from './wire';

/** SendEmailData (spec §2.4). ReceiverEmail holds one or more addresses separated by `;`. */
export const SendEmailDataSchema = z.looseObject({
  TransactionID: z.string(),
  ReceiverName: WireText,
  ReceiverEmail: z.string(),
  CCEmail: WireText,
  /** In the spec's sample, not in its field list and not in every deployment: send only when filled. */
  BCCEmail: WireText,
  ReplyEmail: WireText,
});
export type SendEmailData = z.infer<typeof SendEmailDataSchema>;

/** SendEmailParameter (spec §2.4): the request body of Send email. One invoice kind per request. */
export const SendEmailParameterSchema = z.looseObject({
  SendEmailDatas: z.array(SendEmailDataSchema),
  IsInvoiceCode: z.boolean(),
  IsInvoiceCalculatingMachine: WireFlag,
});
export type SendEmailParameter = z.infer<typeof SendEmailParameterSchema>;

/** SendEmailStatus (spec §3). */
export const SendEmailStatus = {
  NotSent: 0,
  Sending: 1,
  SendError: 2,
  Sent: 3,
  Requested: 4,
} as const;
export type SendEmailStatus = (typeof SendEmailStatus)[keyof typeof SendEmailStatus];
export const SEND_EMAIL_STATUSES: readonly SendEmailStatus[] = [0, 1, 2, 3, 4];

export const SEND_EMAIL_STATUS_LABELS: Record<SendEmailStatus, { en: string; vi: string }> = {
  0: { en: 'Not sent', vi: 'Chưa gửi' },
  1: { en: 'Sending', vi: 'Đang gửi' },
  2: { en: 'Send error', vi: 'Gửi lỗi' },
  3: { en: 'Sent', vi: 'Đã gửi' },
  4: { en: 'Send requested', vi: 'Đã yêu cầu gửi' },
};

export const SendEmailStatusSchema = WireInteger.refine(
  (n): n is SendEmailStatus => n >= 0 && n <= 4,
  'must be a SendEmailStatus 0..4',
).transform((n) => n as SendEmailStatus);

/** SendEmailResult (spec §2.5). Judge each item by SendEmailStatus and ErrorCode, not the envelope. */
export const SendEmailResultSchema = z.looseObject({
  TransactionID: z.string(),
  RefID: WireText,
  RefDetailID: WireText,
  SendEmailStatus: SendEmailStatusSchema,
  ErrorCode: WireText,
});
export type SendEmailResult = z.infer<typeof SendEmailResultSchema>;
export const SendEmailResultListSchema = z.array(SendEmailResultSchema);

/** True when the item went out (or is queued by the service) without an error code. */
export function isSendEmailOk(r: Pick<SendEmailResult, 'SendEmailStatus' | 'ErrorCode'>): boolean {
  const noError = r.ErrorCode === undefined || r.ErrorCode === null || r.ErrorCode.trim() === '';
  return noError && (r.SendEmailStatus === SendEmailStatus.Sent || r.SendEmailStatus === SendEmailStatus.Requested || r.SendEmailStatus === SendEmailStatus.Sending);
}
