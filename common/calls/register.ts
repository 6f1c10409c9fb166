import { z } from 'zod';
import { InvoiceKindSchema } from '../model/kind';
import { FollowUpStateSchema } from './issuing';
import { call } from './define';

/**
 * The register of issued invoices: the ones this app issued and the ones issued elsewhere (the
 * web app, another counter), read from the service by date range. A screen lists and searches
 * it (`issued.list`), brings a range up to date (`issued.sync`, progress on `issued.syncProgress`),
 * opens one as the service shows it (`issued.view`), saves the converted paper copies
 * (`issued.paperCopy`) and starts a correction (`issued.draftCorrection`).
 */

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const Series = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[0-9A-Z]{6,7}$/, 'a series symbol such as 1C26TAA');
const TransactionId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a lookup code (TransactionID)');

/** 1 original, 2 cancelled, 3 replacement, 5 adjustment, 7 replaced, 8 adjusted (the service's EInvoiceStatus). */
export const E_INVOICE_STATUS = { original: 1, cancelled: 2, replacement: 3, adjustment: 5, replaced: 7, adjusted: 8 } as const;
/** 0 not sent to the tax authority, 1 sent, 2 accepted, 3 rejected, 4 notice invalid (SendTaxStatus). */
export const SEND_TAX_STATUS = { notSent: 0, sent: 1, accepted: 2, rejected: 3, noticeInvalid: 4 } as const;

export const IssuedInvoiceSchema = z.object({
  transactionId: z.string(),
  refId: z.string().nullable(),
  invSeries: z.string(),
  invNo: z.string(),
  /** YYYY-MM-DD. */
  invDate: z.string(),
  kind: InvoiceKindSchema,
  buyerName: z.string(),
  buyerTaxCode: z.string(),
  buyerEmail: z.string(),
  currency: z.string(),
  /** TotalAmount (converted) as a decimal string. */
  total: z.string(),
  totalWithoutVat: z.string(),
  totalVat: z.string(),
  /** The tax authority's code (with-code invoices); may come after the invoice is issued. */
  invoiceCode: z.string().nullable(),
  /** Null until the service has told (an invoice just issued here). */
  sendTaxStatus: z.number().int().nullable(),
  eInvoiceStatus: z.number().int().nullable(),
  /** 0 original, 1 replacement, 2 adjustment. */
  referenceType: z.number().int(),
  /** A correction: the original's series, number and date as it names them. */
  original: z.object({ series: z.string(), invNo: z.string(), invDate: z.string().nullable(), transactionId: z.string().nullable() }).nullable(),
  /** The correction issued for this invoice, once it is in the register. */
  correctedBy: z.string().nullable(),
  email: FollowUpStateSchema,
  download: FollowUpStateSchema,
  /** `queue`: issued by this app; `sync`: read from the service. */
  source: z.enum(['queue', 'sync']),
});
export type IssuedInvoice = z.infer<typeof IssuedInvoiceSchema>;

export const IssuedQuerySchema = z
  .object({
    from: Day,
    to: Day,
    series: z.array(Series).max(50).optional(),
    kind: InvoiceKindSchema.optional(),
    /** Part of the buyer's name or tax code, or the invoice number (diacritics and case ignored). */
    text: z.string().trim().max(200).optional(),
    offset: z.number().int().min(0).default(0),
    limit: z.number().int().min(1).max(1000).default(100),
  })
  .strict()
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] });
export type IssuedQuery = z.input<typeof IssuedQuerySchema>;

export const SyncRangeSchema = z
  .object({
    from: Day,
    to: Day,
    /** Default: all three kinds. */
    kinds: z.array(InvoiceKindSchema).min(1).max(3).optional(),
  })
  .strict()
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] });
export type SyncRange = z.input<typeof SyncRangeSchema>;

export const SyncSummarySchema = z.object({
  /** Day ranges read from the service, per kind (days already synced are skipped; the last two days are always read). */
  ranges: z.array(z.object({ kind: InvoiceKindSchema, from: z.string(), to: z.string() })),
  pagingRequests: z.number().int(),
  /** Invoices read (each counted once). */
  fetched: z.number().int(),
  added: z.number().int(),
  /** With-code invoices whose tax-authority status was asked again. */
  statusRefreshed: z.number().int(),
});
export type SyncSummary = z.infer<typeof SyncSummarySchema>;

export const SyncProgressSchema = z.object({
  phase: z.enum(['list', 'status', 'done']),
  kind: InvoiceKindSchema.nullable(),
  /** Invoices read so far in this range, and the service's count of it. */
  seen: z.number().int(),
  total: z.number().int(),
});
export type SyncProgress = z.infer<typeof SyncProgressSchema>;

export const registerCalls = {
  /** A page of the register, newest first, with the count of every match. */
  'issued.list': call(IssuedQuerySchema, z.object({ items: z.array(IssuedInvoiceSchema), total: z.number().int() })),
  'issued.get': call(z.object({ transactionId: TransactionId }).strict(), IssuedInvoiceSchema),
  /** Reads a date range from the service into the register, then refreshes the tax-authority status of recent with-code invoices. */
  'issued.sync': call(SyncRangeSchema, SyncSummarySchema),
  /**
   * Opens an issued invoice as the service shows it (publishview; the short-lived link is fetched
   * at once). The PDF is written to a temporary file in the data folder: its path comes back.
   */
  'issued.view': call(
    z.object({ transactionId: TransactionId }).strict(),
    /** Also shown the way a draft's preview is: `opened` in the desktop's preview window, else `path` of a page to open. */
    z.object({ file: z.string(), size: z.number().int(), contentType: z.string().nullable(), opened: z.boolean(), path: z.string().nullable() }),
  ),
  /** Saves the paper copies converted from issued invoices (one PDF each) into a folder. */
  'issued.paperCopy': call(
    z
      .object({
        transactionIds: z.array(TransactionId).min(1).max(1000),
        converter: z.string().trim().min(1, 'the name of the person converting').max(100),
        /** Default: today in Vietnam. */
        date: Day.optional(),
        folder: z.string().min(1).max(1000),
      })
      .strict(),
    z.object({
      written: z.array(z.object({ transactionId: z.string(), file: z.string() })),
      failed: z.array(z.object({ transactionId: z.string(), code: z.string().nullable(), message: z.string() })),
    }),
  ),
  /** A new draft correcting an issued invoice (adjust | replace), its reference filled from the register; a reason is required. */
  'issued.draftCorrection': call(
    z
      .object({
        transactionId: TransactionId,
        correction: z.enum(['adjust', 'replace']),
        reason: z.string().trim().min(1, 'the reason for the correction').max(500),
      })
      .strict(),
    z.object({ draftId: z.string() }),
  ),
} as const;

export const registerEvents = {
  'issued.syncProgress': SyncProgressSchema,
  /** The register changed (a sync page, an invoice issued here, a status refreshed). */
  'issued.changed': z.object({ count: z.number().int() }),
} as const;
