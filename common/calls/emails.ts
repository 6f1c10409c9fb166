import { z } from 'zod';
import { DEFAULT_INVOICE_KIND, InvoiceKindSchema } from '../model/kind';
import { BilingualSchema } from '../model/text';
import { attemptFields, call, noInput } from './define';

/**
 * The email send queue (outbox). One entry per invoice to email. States:
 * queued → sending (claimed in a transaction) → sent (SendEmailStatus 3) | requested (4: the
 * service will send) | sendingAtService (1) | failed (2 or an ErrorCode) | unknown (the request
 * may have reached the service: never re-sent automatically). `cancelled`: stopped by the user.
 */
export const EMAIL_STATES = ['queued', 'sending', 'sent', 'requested', 'sendingAtService', 'failed', 'unknown', 'cancelled'] as const;
export const EmailStateSchema = z.enum(EMAIL_STATES);
export type EmailState = z.infer<typeof EmailStateSchema>;

export const EmailEntrySchema = z.object({
  id: z.number().int(),
  transactionId: z.string(),
  receiverName: z.string(),
  /** One or more addresses, `;`-separated. */
  receiverEmail: z.string(),
  ccEmail: z.string(),
  bccEmail: z.string(),
  replyEmail: z.string(),
  /** Decides the request flags: one kind per sendemail request. */
  kind: InvoiceKindSchema,
  state: EmailStateSchema,
  /** The service's SendEmailStatus for this invoice (0…4), null before an answer. */
  sendEmailStatus: z.number().int().nullable(),
  /** errorCode: the service's ErrorCode for this invoice (or the call's), null when none. */
  ...attemptFields,
  /** When the service acknowledged it (sent / requested / sending at service). */
  doneAt: z.string().nullable(),
});
export type EmailEntry = z.infer<typeof EmailEntrySchema>;

export const EmailCountsSchema = z.record(EmailStateSchema, z.number().int());
export type EmailCounts = z.infer<typeof EmailCountsSchema>;

/** What the sender is doing now. */
export const EmailSenderStatusSchema = z.object({
  /** idle: nothing due; flushing: sending; offline: waiting for the connection; paused: waiting for sign-in; backoff: waiting after a transient error. */
  state: z.enum(['idle', 'flushing', 'offline', 'paused', 'backoff']),
  nextAttemptAt: z.string().nullable(),
  lastError: BilingualSchema.nullable(),
  batchSize: z.number().int(),
});
export type EmailSenderStatus = z.infer<typeof EmailSenderStatusSchema>;

export const EmailQueueStatusSchema = z.object({
  counts: EmailCountsSchema,
  total: z.number().int(),
  sender: EmailSenderStatusSchema,
});
export type EmailQueueStatus = z.infer<typeof EmailQueueStatusSchema>;

const text = (max: number) => z.string().max(max);

/** One entry to enqueue (by hand, from the CLI, from a CSV row). */
export const EmailInputSchema = z
  .object({
    transactionId: text(200),
    receiverName: text(400).optional(),
    receiverEmail: text(4000),
    ccEmail: text(4000).optional(),
    bccEmail: text(4000).optional(),
    replyEmail: text(4000).optional(),
    kind: InvoiceKindSchema.default(DEFAULT_INVOICE_KIND),
  })
  .strict();
export type EmailInput = z.input<typeof EmailInputSchema>;

/** A rejected input: its line in the CSV (1-based, the header is line 1) or its index. */
export const EmailRejectSchema = z.object({
  line: z.number().int().nullable(),
  index: z.number().int().nullable(),
  transactionId: z.string().nullable(),
  reason: BilingualSchema,
});
export type EmailReject = z.infer<typeof EmailRejectSchema>;

/**
 * A row not queued because its invoice already has an entry that was sent, handed to the
 * service, has an unknown outcome, or is waiting: one history per invoice. `entryId` is that
 * entry; `emails.resend` with it sends the invoice again (after the user confirms).
 */
export const EmailSkipSchema = z.object({
  line: z.number().int().nullable(),
  index: z.number().int().nullable(),
  transactionId: z.string(),
  entryId: z.number().int(),
  state: EmailStateSchema,
  /** When the service acknowledged it (or the entry last changed), ISO. */
  at: z.string(),
  receiverEmail: z.string(),
  reason: BilingualSchema,
});
export type EmailSkip = z.infer<typeof EmailSkipSchema>;

export const EmailAddResultSchema = z.object({
  /** Entries queued by this call: new ones, and entries of invoices not sent before (failed, cancelled) queued again. */
  added: z.array(z.number().int()),
  rejected: z.array(EmailRejectSchema),
  skipped: z.array(EmailSkipSchema),
});
export type EmailAddResult = z.infer<typeof EmailAddResultSchema>;

export const EMAIL_SORT_KEYS = ['id', 'transactionId', 'receiverName', 'receiverEmail', 'state', 'updatedAt', 'attempts', 'kind'] as const;

export const EmailListRequestSchema = z
  .object({
    states: z.array(EmailStateSchema).max(EMAIL_STATES.length).optional(),
    /** Matched (case-insensitively) against TransactionID, name, addresses and error code. */
    search: text(200).optional(),
    sort: z.enum(EMAIL_SORT_KEYS).default('id'),
    dir: z.enum(['asc', 'desc']).default('desc'),
    offset: z.number().int().min(0).default(0),
    /** One page: the screen asks for the rows it shows, never the whole queue. */
    limit: z.number().int().min(1).max(1000).default(200),
  })
  .strict();

/** The same query for a selection: up to the whole queue, entry numbers and states only. */
export const EmailKeysRequestSchema = EmailListRequestSchema.extend({ limit: z.number().int().min(1).max(100_000).default(100_000) });

const idsRequest = z.object({ ids: z.array(z.number().int()).min(1).max(100_000) }).strict();
/** Why an entry was left as it was by retry / resend. */
export const EmailLeftSchema = z.object({
  id: z.number().int(),
  transactionId: z.string().nullable(),
  state: EmailStateSchema.nullable(),
  reason: BilingualSchema,
});
export type EmailLeft = z.infer<typeof EmailLeftSchema>;
const changedResponse = z.object({ changed: z.number().int(), skipped: z.number().int() });
const requeuedResponse = changedResponse.extend({ left: z.array(EmailLeftSchema) });

/** One earlier outcome of an entry, kept when the entry was queued again. */
export const EmailAttemptSchema = z.object({
  state: EmailStateSchema,
  sendEmailStatus: z.number().int().nullable(),
  errorCode: z.string().nullable(),
  receiverEmail: z.string(),
  ccEmail: z.string(),
  bccEmail: z.string(),
  message: z.string().nullable(),
  messageVi: z.string().nullable(),
  /** When that outcome was recorded, ISO. */
  at: z.string(),
});
export type EmailAttempt = z.infer<typeof EmailAttemptSchema>;

export const emailsCalls = {
  'emails.list': call(EmailListRequestSchema, z.object({ items: z.array(EmailEntrySchema), total: z.number().int(), counts: EmailCountsSchema })),
  /** Entry numbers and states of a query's rows (select all, a Shift+click range), in the list's order. */
  'emails.keys': call(EmailKeysRequestSchema, z.object({ ids: z.array(z.number().int()), states: z.array(EmailStateSchema) })),
  'emails.status': call(noInput, EmailQueueStatusSchema),
  'emails.add': call(z.object({ entries: z.array(EmailInputSchema).min(1).max(10_000) }).strict(), EmailAddResultSchema),
  /** CSV text (columns TransactionID, ReceiverName, ReceiverEmail, CCEmail, BCCEmail, ReplyEmail; `,` or `;`). */
  'emails.importCsv': call(
    z.object({ text: z.string().max(50_000_000), kind: InvoiceKindSchema }).strict(),
    EmailAddResultSchema.extend({ rows: z.number().int() }),
  ),
  'emails.exportCsv': call(
    z.object({ states: z.array(EmailStateSchema).max(EMAIL_STATES.length).optional(), search: text(200).optional() }).strict(),
    z.object({ csv: z.string(), fileName: z.string(), count: z.number().int() }),
  ),
  /** Back to the queue: failed and cancelled entries (never sent). Others are `left`, each with the reason. */
  'emails.retry': call(idsRequest, requeuedResponse),
  /**
   * "Send again", after the user confirmed: entries already sent, handed to the service, with an
   * unknown outcome, failed or cancelled go back to the queue; the earlier outcome stays in the
   * entry's history. Entries waiting or being sent are `left`, with the reason.
   */
  'emails.resend': call(idsRequest, requeuedResponse),
  /** An entry with its earlier outcomes, oldest first. */
  'emails.history': call(z.object({ id: z.number().int() }).strict(), z.object({ entry: EmailEntrySchema, attempts: z.array(EmailAttemptSchema) })),
  /** Not sent after all: queued, failed and unknown entries. */
  'emails.cancel': call(idsRequest, changedResponse),
  /** Deletes entries (never one being sent right now). */
  'emails.remove': call(idsRequest, changedResponse),
  /** Changes the recipients of an entry not yet sent. */
  'emails.update': call(
    z
      .object({
        id: z.number().int(),
        receiverName: text(400).optional(),
        receiverEmail: text(4000).optional(),
        ccEmail: text(4000).optional(),
        bccEmail: text(4000).optional(),
        replyEmail: text(4000).optional(),
      })
      .strict(),
    EmailEntrySchema,
  ),
  /** Send what is due now (the sender also does this by itself when online). */
  'emails.flush': call(noInput, EmailQueueStatusSchema),
} as const;

export const emailsEvents = {
  /** The queue changed (entries added, sent, failed…): counts and the sender's state. */
  'emails.changed': EmailQueueStatusSchema,
} as const;
