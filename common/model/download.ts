import { z } from 'zod';
import { WireText } from './wire';

/** Values of the Download query parameter `downloadDataType` (docs/service.md#download). */
export const DownloadDataType = { Xml: 'Xml', Pdf: 'Pdf', Html: 'Html', All: 'All' } as const;
export type DownloadDataType = (typeof DownloadDataType)[keyof typeof DownloadDataType];
export const DownloadDataTypeSchema = z.enum(['Xml', 'Pdf', 'Html', 'All']);

/**
 * DownloadInvoiceResult (docs/service.md#downloadinvoiceresult). The per-item content appears as `data`
 * or `Data` (docs/service.md#variants-and-quirks); the schema accepts both and exposes it as `data` (the original key is kept
 * too, since the object is loose). ErrorCode may be empty, null or missing: no error.
 */
export const DownloadInvoiceResultSchema = z.preprocess(
  (raw) => {
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      const o = raw as Record<string, unknown>;
      if (o.data === undefined && o.Data !== undefined) return { ...o, data: o.Data };
    }
    return raw;
  },
  z.looseObject({
    TransactionID: z.string(),
    data: WireText,
    ErrorCode: WireText,
  }),
);
export type DownloadInvoiceResult = z.infer<typeof DownloadInvoiceResultSchema>;
