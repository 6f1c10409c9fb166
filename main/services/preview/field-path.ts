import { DRAFT_HEADER_FIELDS, type InvoiceDraft } from '../../../common/money';
import type { Bilingual } from '../../../common/model';

const INVOICE_FIELDS = new Set<string>([...DRAFT_HEADER_FIELDS, 'TotalAmountInWords']);
const LINE_FIELDS = new Set(['ItemType', 'ItemCode', 'ItemName', 'UnitName', 'Quantity', 'UnitPrice', 'DiscountRate', 'DiscountAmountOC', 'VATRateName']);

function caseInsensitive(set: Set<string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const f of set) if (f.toLowerCase() === lower) return f;
  return undefined;
}

/**
 * The draft path a service error code names, so the form can jump there:
 * `RequireError_BuyerLegalName` → `BuyerLegalName`; `InvoiceDetail_UnitPrice` → the first line
 * whose UnitPrice is blank (else the first line); `TaxRateInfo_VATRateName` → the first line's
 * VAT rate. Null when the code names no field we know.
 */
export function fieldPathForCode(code: string | null | undefined, draft: InvoiceDraft): string | null {
  if (!code) return null;
  const required = /^RequireError_(.+)$/i.exec(code.trim());
  if (required) {
    const name = required[1]!;
    const field = caseInsensitive(INVOICE_FIELDS, name);
    if (field) return field === 'TotalAmountInWords' ? 'words' : field;
    const lineField = caseInsensitive(LINE_FIELDS, name);
    if (lineField) return linePath(draft, lineField);
    if (/^(OriginalInvoiceDetail|InvoiceDetail|lines?)$/i.test(name)) return 'lines';
    return null;
  }
  const detail = /^(?:InvoiceDetail|OriginalInvoiceDetail)_(.+)$/i.exec(code.trim());
  if (detail) {
    const lineField = caseInsensitive(LINE_FIELDS, detail[1]!);
    return lineField ? linePath(draft, lineField) : 'lines';
  }
  if (/^TaxRateInfo_VATRateName$/i.test(code.trim())) return linePath(draft, 'VATRateName');
  // `InvalidTaxCode` (the buyer's), `InvalidInvSeries`, `InvalidInvDate`, `InvalidRefID`…
  if (/^InvalidTaxCode$/i.test(code.trim())) return 'BuyerTaxCode';
  const invalid = /^Invalid(.+)$/i.exec(code.trim());
  if (invalid) {
    const field = caseInsensitive(INVOICE_FIELDS, invalid[1]!);
    if (field && field !== 'TotalAmountInWords') return field;
  }
  return null;
}

function linePath(draft: InvoiceDraft, field: string): string {
  if (draft.lines.length === 0) return 'lines';
  const blank = draft.lines.findIndex((l) => {
    if (l.ItemType === 4 && field !== 'ItemName') return false;
    const v = (l as unknown as Record<string, unknown>)[field];
    return typeof v === 'string' && v.trim() === '';
  });
  return `lines[${blank >= 0 ? blank : 0}].${field}`;
}

/**
 * What is wrong with the field a code names, in words the screen puts after the field's label
 * ("Ký hiệu hóa đơn: bắt buộc"); the code itself is shown small beside it.
 */
export function fieldProblemWords(code: string | null | undefined): Bilingual {
  const c = (code ?? '').trim();
  if (/^RequireError_/i.test(c)) return { en: 'required', vi: 'bắt buộc' };
  if (/^(?:InvoiceDetail|OriginalInvoiceDetail|TaxRateInfo)_/i.test(c))
    return { en: 'missing or not accepted by the service', vi: 'thiếu hoặc dịch vụ không chấp nhận' };
  return { en: 'not accepted by the service', vi: 'dịch vụ không chấp nhận' };
}
