import { z } from 'zod';
import { InvoiceKindSchema } from '../model/kind';
import { SignTypeSchema } from '../model/issuing';
import { BilingualSchema } from '../model/text';
import { attemptFields, call, noInput } from './define';

/**
 * The issue queue. Pressing Issue freezes the draft's issuing form and queues it; states:
 * queued → issuing (claimed, armed just before its request) → issued | failed (the service
 * refused it: known not issued) | unknown (the request may have issued it: settled only by a
 * status lookup by RefID, never by sending again).
 */
export const ISSUE_STATES = ['queued', 'issuing', 'issued', 'failed', 'unknown'] as const;
export const IssueStateSchema = z.enum(ISSUE_STATES);
export type IssueState = z.infer<typeof IssueStateSchema>;

/** What happens after an invoice is issued: its files downloaded, its email queued. */
export const FollowUpStateSchema = z.enum(['off', 'waiting', 'done', 'failed']);
export type FollowUpState = z.infer<typeof FollowUpStateSchema>;
/**
 * The download after issuing as the queue reports it: a waiting download is 'noFolder' while no
 * download folder is chosen in Settings (it is still waiting, and goes once a folder is chosen).
 */
export const IssueDownloadStateSchema = z.enum([...FollowUpStateSchema.options, 'noFolder']);
export type IssueDownloadState = z.infer<typeof IssueDownloadStateSchema>;

export const IssueEntrySchema = z.object({
  id: z.number().int(),
  draftId: z.string().nullable(),
  refId: z.string(),
  invSeries: z.string(),
  invDate: z.string(),
  kind: InvoiceKindSchema,
  signType: SignTypeSchema,
  buyerName: z.string(),
  buyerEmail: z.string(),
  /** TotalAmount (converted) as a decimal string. */
  total: z.string(),
  currency: z.string(),
  state: IssueStateSchema,
  transactionId: z.string().nullable(),
  invNo: z.string().nullable(),
  /** The tax authority's code (with-code invoices); may come after the invoice is issued. */
  invoiceCode: z.string().nullable(),
  issuedAt: z.string().nullable(),
  ...attemptFields,
  /** Failed, and its draft was reopened for editing (it goes out again as a new invoice): kept as history. */
  reopened: z.boolean(),
  download: IssueDownloadStateSchema,
  email: FollowUpStateSchema,
  /** The email queue entry of this invoice, when one was queued. */
  emailId: z.number().int().nullable(),
});
export type IssueEntry = z.infer<typeof IssueEntrySchema>;

export const IssueRunnerStatusSchema = z.object({
  /** idle: nothing due; issuing: requests in flight; offline: waiting for the connection; paused: waiting for sign-in; backoff: waiting after a transient error. */
  state: z.enum(['idle', 'issuing', 'offline', 'paused', 'backoff']),
  nextAttemptAt: z.string().nullable(),
  lastError: BilingualSchema.nullable(),
});
export type IssueRunnerStatus = z.infer<typeof IssueRunnerStatusSchema>;

export const IssueQueueStatusSchema = z.object({
  counts: z.record(IssueStateSchema, z.number().int()),
  total: z.number().int(),
  runner: IssueRunnerStatusSchema,
});
export type IssueQueueStatus = z.infer<typeof IssueQueueStatusSchema>;

export const CertificateSchema = z.object({
  certificateSN: z.string(),
  taxCode: z.string().nullable(),
  userName: z.string().nullable(),
  authOrganizeName: z.string().nullable(),
  effectiveTime: z.string().nullable(),
  expirationTime: z.string().nullable(),
});

const Id = z.object({ id: z.number().int().positive() }).strict();

export const issuingCalls = {
  /**
   * Queues a draft for issuing (online or not). The draft is checked as the service would check
   * it; on success it becomes read-only. `emails`: addresses typed at issue time (else BuyerEmail).
   */
  'issuing.queue': call(z.object({ draftId: z.string().min(1).max(100), emails: z.string().max(4000).optional() }).strict(), IssueEntrySchema),
  'issuing.list': call(
    z
      .object({
        states: z.array(IssueStateSchema).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        offset: z.number().int().min(0).optional(),
      })
      .strict(),
    z.object({ items: z.array(IssueEntrySchema), total: z.number().int() }),
  ),
  'issuing.get': call(Id, IssueEntrySchema.nullable()),
  'issuing.status': call(noInput, IssueQueueStatusSchema),
  /** Asks the service about invoices whose outcome is unknown (all of them, or these). */
  'issuing.check': call(
    z.object({ ids: z.array(z.number().int()).max(1000).optional() }).strict(),
    z.object({ settled: z.number().int(), unknown: z.number().int() }),
  ),
  /** A failed invoice the service refused for a passing reason: queued again, same RefID. */
  'issuing.retry': call(Id, IssueEntrySchema),
  /** A failed invoice: its draft opens for editing again, with a new RefID. */
  'issuing.reopen': call(Id, z.object({ draftId: z.string() })),
  /** Starts a pass now (after the connection came back, say). */
  'issuing.flush': call(noInput, IssueQueueStatusSchema),
  'issuing.certificates': call(noInput, z.object({ items: z.array(CertificateSchema) })),
} as const;

export const issuingEvents = {
  'issuing.changed': z.object({ ids: z.array(z.number().int()) }),
} as const;
