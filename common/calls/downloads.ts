import { z } from 'zod';
import { DownloadDataTypeSchema } from '../model/download';
import { DEFAULT_INVOICE_KIND, InvoiceKindSchema } from '../model/kind';
import { BilingualSchema } from '../model/text';
import { call, noInput } from './define';

export const ExistingPolicySchema = z.enum(['skip', 'overwrite', 'keepBoth']);
export type ExistingPolicy = z.infer<typeof ExistingPolicySchema>;

export const JobStatusSchema = z.enum(['ready', 'running', 'paused', 'done', 'cancelled']);
export type JobStatus = z.infer<typeof JobStatusSchema>;

/** Where one item of a job stands (the email queue's entries have a `state` too). */
export const ItemStateSchema = z.enum(['pending', 'placing', 'saved', 'skipped', 'failed']);
export type ItemState = z.infer<typeof ItemStateSchema>;

const count = z.number().int().nonnegative();

/** A job's items by outcome; `done` is saved + skipped + failed. */
const JOB_COUNTS = { total: count, saved: count, skipped: count, failed: count, done: count };

/** One job with its counts; the same shape is the payload of `downloads.progress`. */
export const DownloadJobSchema = z.object({
  id: z.string(),
  type: DownloadDataTypeSchema,
  kind: InvoiceKindSchema,
  folder: z.string(),
  existing: ExistingPolicySchema,
  unzip: z.boolean(),
  status: JobStatusSchema,
  ...JOB_COUNTS,
  /** Bytes written by this run and earlier ones. */
  bytes: count,
  /** Bytes per second over the last seconds (0 when idle). */
  rate: z.number().nonnegative(),
  /** Items per second over the last seconds. */
  itemsPerSecond: z.number().nonnegative(),
  /** Seconds left at the current pace; null when unknown. */
  etaSeconds: z.number().nonnegative().nullable(),
  lastError: BilingualSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DownloadJob = z.infer<typeof DownloadJobSchema>;

export const DownloadItemSchema = z.object({
  seq: count,
  transactionId: z.string(),
  state: ItemStateSchema,
  /** Name inside the job's folder (a file, or a folder for an extracted zip). */
  file: z.string().nullable(),
  bytes: count,
  errorCode: z.string().nullable(),
  message: BilingualSchema.nullable(),
});
export type DownloadItemView = z.infer<typeof DownloadItemSchema>;

const jobId = z.object({ jobId: z.string().min(1).max(100) }).strict();

export const downloadsCalls = {
  /**
   * Creates a job from pasted text / an imported TXT-CSV (`idsText`) and/or a list of IDs;
   * duplicates and blanks are dropped and counted. Starts it unless `start: false`.
   */
  'downloads.create': call(
    z
      .object({
        ids: z.array(z.string().max(1000)).max(100_000).optional(),
        idsText: z.string().max(20_000_000).optional(),
        /** The imported file's name (a `.csv` is read as CSV). */
        fileName: z.string().max(500).optional(),
        type: DownloadDataTypeSchema,
        kind: InvoiceKindSchema.default(DEFAULT_INVOICE_KIND),
        folder: z.string().min(1).max(4000),
        existing: ExistingPolicySchema.default('skip'),
        unzip: z.boolean().default(false),
        start: z.boolean().default(true),
      })
      .strict(),
    z.object({ job: DownloadJobSchema, added: count, duplicates: count, blanks: count }),
  ),
  'downloads.list': call(noInput, z.object({ jobs: z.array(DownloadJobSchema) })),
  'downloads.get': call(jobId, DownloadJobSchema),
  /** A window of a job's items (the virtualised table asks for what it shows). */
  'downloads.items': call(
    z
      .object({
        jobId: z.string().min(1).max(100),
        offset: count.default(0),
        limit: z.number().int().min(1).max(1000).default(200),
        state: ItemStateSchema.optional(),
      })
      .strict(),
    z.object({ total: count, items: z.array(DownloadItemSchema) }),
  ),
  'downloads.start': call(jobId, DownloadJobSchema),
  'downloads.pause': call(jobId, DownloadJobSchema),
  'downloads.cancel': call(jobId, DownloadJobSchema),
  /** Puts the failed items back to pending and starts the job again. */
  'downloads.retryFailed': call(jobId, DownloadJobSchema),
  'downloads.remove': call(jobId, z.object({ removed: z.boolean() })),
  /** The failed items as CSV (TransactionID, ErrorCode, message, message_vi). */
  'downloads.exportFailed': call(jobId, z.object({ csv: z.string(), fileName: z.string(), count })),
  /** Opens the job's folder in the file manager (desktop); elsewhere answers `opened: false`. */
  'downloads.openFolder': call(jobId, z.object({ opened: z.boolean(), folder: z.string() })),
  /** A folder dialog in the desktop app; the browser host answers `supported: false` (type a path). */
  'downloads.chooseFolder': call(
    z.object({ defaultPath: z.string().max(4000).optional() }).strict(),
    z.object({ supported: z.boolean(), folder: z.string().nullable() }),
  ),
} as const;

export const downloadsEvents = {
  /** A job's counts, rate and time left; at most ~10 per second per job, plus every status change. */
  'downloads.progress': DownloadJobSchema,
} as const;
