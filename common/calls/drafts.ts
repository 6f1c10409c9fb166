import { z } from 'zod';
import { call } from './define';

/** Editable draft as the renderer holds it (common/money/draft.ts): decimal strings, never numbers. */
const Text = z.string().max(4000);
const Num = z.string().max(64);

export const DraftLineSchema = z.object({
  ItemType: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
  ItemCode: Text,
  ItemName: Text,
  UnitName: Text,
  Quantity: Num,
  UnitPrice: Num,
  DiscountRate: Num,
  DiscountAmountOC: Num,
  discountBy: z.enum(['rate', 'amount']),
  VATRateName: z.string().max(32),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export const InvoiceDraftSchema = z.object({
  RefID: z.string().max(100),
  InvSeries: z.string().max(32),
  InvoiceName: Text,
  InvDate: z.string().max(32),
  CurrencyCode: z.string().max(8),
  ExchangeRate: Num,
  PaymentMethodName: Text,
  IsTicket: z.boolean(),
  BuyerLegalName: Text,
  BuyerTaxCode: Text,
  BuyerAddress: Text,
  BuyerCode: Text,
  BuyerPhoneNumber: Text,
  BuyerEmail: Text,
  BuyerFullName: Text,
  BuyerBankAccount: Text,
  BuyerBankName: Text,
  lines: z.array(DraftLineSchema).max(5000),
  vatOverrides: z.record(z.string(), z.string().max(64)),
  extra: z.record(z.string(), z.unknown()).optional(),
  BuyerIDNumber: z.string().max(64).optional(),
  BuyerPassport: z.string().max(64).optional(),
  BuyerBudgetCode: z.string().max(64).optional(),
  SellerShopCode: z.string().max(100).optional(),
  SellerShopName: Text.optional(),
  correction: z
    .object({
      ReferenceType: z.union([z.literal(1), z.literal(2)]),
      OrgInvoiceType: z.number().int(),
      OrgInvTemplateNo: z.string().max(8),
      OrgInvSeries: z.string().max(16),
      OrgInvNo: z.string().max(16),
      OrgInvDate: z.string().max(32),
      InvoiceNote: Text,
    })
    .optional(),
});

/** What the drafting screen keeps beside the invoice itself. */
export const DraftMetaSchema = z.object({
  /** The cashier typed TotalAmountInWords by hand: it is no longer derived. */
  wordsEdited: z.boolean(),
  /** The hand-typed words (only meaningful when wordsEdited). */
  words: z.string().max(2000),
});

export const DraftSummarySchema = z.object({
  id: z.string(),
  buyerName: z.string(),
  buyerTaxCode: z.string(),
  invSeries: z.string(),
  invDate: z.string(),
  currency: z.string(),
  /** TotalAmountOC as a decimal string. */
  total: z.string(),
  lineCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastPreviewedAt: z.string().nullable(),
  revision: z.number().int(),
  /** Queued for issuing or issued: the draft is read-only while this is set. */
  issue: z.object({ id: z.number().int(), state: z.enum(['queued', 'issuing', 'issued', 'failed', 'unknown']), invNo: z.string().nullable() }).nullable(),
});
export type DraftSummary = z.infer<typeof DraftSummarySchema>;

export const DraftRecordSchema = DraftSummarySchema.extend({
  draft: InvoiceDraftSchema,
  meta: DraftMetaSchema,
});
export type DraftRecord = z.infer<typeof DraftRecordSchema>;

const Id = z.object({ id: z.string().min(1).max(100) }).strict();

export const DraftSortSchema = z.enum(['updated', 'created', 'date', 'buyer', 'total']);

export const draftsCalls = {
  'drafts.list': call(
    z
      .object({
        /** Matches buyer name, tax code, series, a total (digits) or a date (YYYY-MM-DD or part of it). */
        query: z.string().max(200).optional(),
        sort: DraftSortSchema.optional(),
        direction: z.enum(['asc', 'desc']).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
    z.object({ items: z.array(DraftSummarySchema), total: z.number().int() }),
  ),
  'drafts.get': call(Id, DraftRecordSchema),
  'drafts.create': call(z.object({ draft: InvoiceDraftSchema.partial().optional() }).strict(), DraftRecordSchema),
  /** Autosave and explicit save: one atomic write. `learn` feeds the catalogues (explicit saves). */
  'drafts.save': call(
    z
      .object({
        id: z.string().min(1).max(100),
        draft: InvoiceDraftSchema,
        meta: DraftMetaSchema.optional(),
        learn: z.boolean().optional(),
      })
      .strict(),
    DraftSummarySchema,
  ),
  /**
   * Autosave of a long draft: the header and only the lines that changed since the save that
   * gave `base` (the draft's revision then), its line count unchanged. Refused with
   * `draft_changed` when the stored draft is not that revision any more (another window, a
   * save whose answer was lost): the screen then saves the whole draft.
   */
  'drafts.saveChanges': call(
    z
      .object({
        id: z.string().min(1).max(100),
        base: z.number().int(),
        head: InvoiceDraftSchema.omit({ lines: true }),
        lineCount: z.number().int().min(0).max(5000),
        lines: z.array(z.object({ at: z.number().int().min(0).max(4999), line: DraftLineSchema }).strict()).max(5000),
        meta: DraftMetaSchema.optional(),
      })
      .strict(),
    DraftSummarySchema,
  ),
  'drafts.duplicate': call(Id, DraftRecordSchema),
  /** Moves the draft to the bin; `drafts.restore` undoes it. */
  'drafts.delete': call(Id, z.object({ id: z.string(), deletedAt: z.string() })),
  'drafts.restore': call(Id, DraftSummarySchema),
  /** The draft as InvoiceData (numbers, totals, TaxRateInfo, words). */
  'drafts.export': call(Id, z.object({ fileName: z.string(), invoice: z.record(z.string(), z.unknown()) })),
  'drafts.import': call(z.object({ invoice: z.unknown() }).strict(), DraftRecordSchema),
} as const;

export const draftsEvents = {
  'drafts.changed': z.object({ id: z.string(), kind: z.enum(['created', 'saved', 'deleted', 'restored', 'previewed']) }),
} as const;
