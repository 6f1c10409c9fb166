import { z } from 'zod';

/**
 * The three kinds of issued invoice (docs/service.md#invoice-kind). The service addresses a
 * kind by two flags; this module is the one place that translates between the two.
 */
export const INVOICE_KINDS = ['withCode', 'withoutCode', 'cashRegister'] as const;
export const InvoiceKindSchema = z.enum(INVOICE_KINDS);
export type InvoiceKind = z.infer<typeof InvoiceKindSchema>;

/**
 * The kind a download or an email starts with when nobody chose one: the app's forms, the
 * contract and the CLI agree. "Without code" because that is what the service itself assumes
 * when both flags are left out, so a script that names no kind keeps its meaning.
 */
export const DEFAULT_INVOICE_KIND: InvoiceKind = 'withoutCode';

/** The Download (and status, paper) query flags. */
export interface DownloadKindFlags {
  invoiceWithCode: boolean;
  invoiceCalcu: boolean;
}

/** The sendemail body flags. */
export interface EmailKindFlags {
  IsInvoiceCode: boolean;
  IsInvoiceCalculatingMachine: boolean;
}

/** Cash-register invoices carry a code (series `1C..M..`), so both flags are set for them. */
export function downloadFlags(kind: InvoiceKind): DownloadKindFlags {
  return { invoiceWithCode: kind !== 'withoutCode', invoiceCalcu: kind === 'cashRegister' };
}

export function emailFlags(kind: InvoiceKind): EmailKindFlags {
  return { IsInvoiceCode: kind !== 'withoutCode', IsInvoiceCalculatingMachine: kind === 'cashRegister' };
}

/** The service keys cash-register invoices by that flag alone: with it set, the code flag is ignored. */
export function kindFromFlags(withCode: boolean, cashRegister: boolean): InvoiceKind {
  if (cashRegister) return 'cashRegister';
  return withCode ? 'withCode' : 'withoutCode';
}
