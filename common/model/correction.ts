/**
 * Corrections. Since 1 June 2025 (Decree 70/2025/ND-CP, Circular 32/2025/TT-BTC) an issued
 * invoice is never cancelled: it is corrected by a replacement (ReferenceType 1) or an
 * adjustment (ReferenceType 2, lines may be negative), issued like any invoice with the fields
 * below. The service does not check that the original exists (the tax authority rejects a
 * wrong reference later), so these fields are always built here from an issued record read
 * from the service (status or paging), never typed.
 */
import { z } from 'zod';
import { WireInteger, WireText } from './wire';
import { emptyDraft, type InvoiceDraft } from '../money/draft';
import { parseSeries } from '../rules/series';
import { isCalendarDate } from '../rules/date';
import { problem, type Problem } from '../rules/problem';

export const ReferenceType = { Replacement: 1, Adjustment: 2 } as const;
export type CorrectionKind = (typeof ReferenceType)[keyof typeof ReferenceType];

/** OrgInvoiceType 1: the original is a Decree 123/2020 invoice. */
export const ORG_INVOICE_TYPE_DECREE_123 = 1;

export interface CorrectionFields {
  ReferenceType: CorrectionKind;
  OrgInvoiceType: number;
  /** The form digit of the original series (`1` of `1C26TAA`). */
  OrgInvTemplateNo: string;
  /** The other six characters (`C26TAA`). */
  OrgInvSeries: string;
  OrgInvNo: string;
  /** `YYYY-MM-DD`. */
  OrgInvDate: string;
  /** The reason for the correction. */
  InvoiceNote: string;
}

/** The fields of an issued invoice (status or paging result) a correction is built from. */
export const IssuedInvoiceRecordSchema = z.looseObject({
  RefID: WireText,
  TransactionID: WireText,
  InvSeries: z.string(),
  /** Status results carry the template number separately; used when InvSeries has six characters. */
  InvTempl: z.union([z.string(), z.number()]).nullish(),
  InvNo: z.union([z.string(), z.number()]),
  InvDate: z.string(),
  PublishStatus: WireInteger.nullish(),
  EInvoiceStatus: WireInteger.nullish(),
});
export type IssuedInvoiceRecord = z.infer<typeof IssuedInvoiceRecordSchema>;

export type CorrectionResult = { ok: true; fields: CorrectionFields } | { ok: false; code: string; message: string; messageVi: string };

/** `1C26TAA` → { templateNo "1", series "C26TAA" }; a six-character series takes the form digit from `templateNo`. */
export function splitOriginalSeries(series: string, templateNo?: string | number | null): { templateNo: string; series: string } | null {
  const s = parseSeries(series);
  if (!s.ok) return null;
  const six = s.normalised.slice(s.formDigit === null ? 0 : 1);
  if (s.formDigit !== null) return { templateNo: String(s.formDigit), series: six };
  const t = String(templateNo ?? '').trim();
  return /^[1-9]$/.test(t) ? { templateNo: t, series: six } : null;
}

const fail = (code: string, en: string, vi: string): CorrectionResult => ({ ok: false, code, message: en, messageVi: vi });

/** Builds the correction fields from an issued record; refuses a record that cannot be corrected. */
export function correctionFrom(input: unknown, kind: CorrectionKind, reason: string): CorrectionResult {
  const parsed = IssuedInvoiceRecordSchema.safeParse(input);
  if (!parsed.success) {
    return fail(
      'correction.record',
      'The original invoice record is incomplete (series, number or date missing).',
      'Bản ghi hóa đơn gốc thiếu thông tin (ký hiệu, số hoặc ngày).',
    );
  }
  const r = parsed.data;
  if (r.PublishStatus !== undefined && r.PublishStatus !== null && r.PublishStatus !== 1) {
    return fail(
      'correction.notIssued',
      'The original invoice has not been issued: only an issued invoice can be corrected.',
      'Hóa đơn gốc chưa được phát hành: chỉ hóa đơn đã phát hành mới được điều chỉnh hoặc thay thế.',
    );
  }
  // EInvoiceStatus: 2 cancelled, 7 replaced, 8 adjusted (status operation).
  if (r.EInvoiceStatus === 2 || r.EInvoiceStatus === 7) {
    return fail(
      'correction.replaced',
      'The original invoice was already replaced or cancelled: correct its replacement instead.',
      'Hóa đơn gốc đã bị thay thế hoặc hủy: hãy điều chỉnh/thay thế hóa đơn thay thế của nó.',
    );
  }
  if (kind === ReferenceType.Replacement && r.EInvoiceStatus === 8) {
    return fail(
      'correction.hasAdjustment',
      'The original invoice already has an adjustment: it can only be adjusted again, not replaced.',
      'Hóa đơn gốc đã có hóa đơn điều chỉnh: chỉ có thể điều chỉnh tiếp, không thể thay thế.',
    );
  }
  const split = splitOriginalSeries(r.InvSeries, r.InvTempl);
  if (!split) return fail('correction.series', `The original series "${r.InvSeries}" cannot be read.`, `Không đọc được ký hiệu hóa đơn gốc "${r.InvSeries}".`);
  const no = String(r.InvNo).trim();
  if (!/^\d{1,8}$/.test(no) || /^0+$/.test(no)) {
    return fail('correction.number', `The original invoice number "${no}" is not valid.`, `Số hóa đơn gốc "${no}" không hợp lệ.`);
  }
  const date = r.InvDate.trim().slice(0, 10);
  if (!isCalendarDate(date))
    return fail('correction.date', `The original invoice date "${r.InvDate}" is not valid.`, `Ngày hóa đơn gốc "${r.InvDate}" không hợp lệ.`);
  return {
    ok: true,
    fields: {
      ReferenceType: kind,
      OrgInvoiceType: ORG_INVOICE_TYPE_DECREE_123,
      OrgInvTemplateNo: split.templateNo,
      OrgInvSeries: split.series,
      OrgInvNo: no.padStart(8, '0'),
      OrgInvDate: date,
      InvoiceNote: reason.trim(),
    },
  };
}

/**
 * A new draft that corrects an issued invoice. A replacement starts from the original's
 * content (`original`, e.g. read back with draftFromInvoiceData) for the cashier to fix; an
 * adjustment keeps the buyer but starts with no lines: its lines are the differences.
 */
export function correctionDraft(
  record: unknown,
  kind: CorrectionKind,
  reason: string,
  init: { RefID: string; InvDate: string; InvSeries: string; original?: InvoiceDraft },
): { ok: true; draft: InvoiceDraft } | Extract<CorrectionResult, { ok: false }> {
  const c = correctionFrom(record, kind, reason);
  if (!c.ok) return c;
  const base = init.original ? structuredClone(init.original) : emptyDraft({ RefID: init.RefID, InvDate: init.InvDate });
  const draft: InvoiceDraft = { ...base, RefID: init.RefID, InvDate: init.InvDate, InvSeries: init.InvSeries, correction: c.fields };
  if (kind === ReferenceType.Adjustment) {
    draft.lines = [];
    draft.vatOverrides = {};
  }
  return { ok: true, draft };
}

/** Checks a correction draft's reference fields; no problems for an ordinary draft. */
export function correctionProblems(draft: InvoiceDraft): Problem[] {
  const c = draft.correction;
  if (!c) return [];
  const out: Problem[] = [];
  const at = (f: keyof CorrectionFields) => ['correction', f];
  if (c.ReferenceType !== 1 && c.ReferenceType !== 2) {
    out.push(
      problem(at('ReferenceType'), 'correction.kind', {
        en: 'A correction is either a replacement or an adjustment.',
        vi: 'Hóa đơn sửa sai phải là hóa đơn thay thế hoặc điều chỉnh.',
      }),
    );
  }
  if (typeof c.InvoiceNote !== 'string' || c.InvoiceNote.trim() === '') {
    out.push(problem(at('InvoiceNote'), 'correction.reason', { en: 'Give the reason for the correction.', vi: 'Cần nhập lý do điều chỉnh/thay thế.' }));
  }
  const series = splitOriginalSeries(`${String(c.OrgInvTemplateNo)}${String(c.OrgInvSeries)}`);
  if (!series || !/^\d{8}$/.test(String(c.OrgInvNo)) || !isCalendarDate(String(c.OrgInvDate)) || !Number.isInteger(c.OrgInvoiceType) || c.OrgInvoiceType < 1) {
    out.push(
      problem(['correction'], 'correction.reference', {
        en: 'The reference to the original invoice is incomplete: choose the original again from the issued invoices.',
        vi: 'Thông tin hóa đơn gốc không đầy đủ: hãy chọn lại hóa đơn gốc từ danh sách hóa đơn đã phát hành.',
      }),
    );
  } else if (isCalendarDate(draft.InvDate) && draft.InvDate < c.OrgInvDate) {
    out.push(
      problem(['InvDate'], 'correction.date', {
        en: `The correction's date ${draft.InvDate} is before the original invoice's date ${c.OrgInvDate}.`,
        vi: `Ngày hóa đơn ${draft.InvDate} trước ngày của hóa đơn gốc ${c.OrgInvDate}.`,
      }),
    );
  }
  return out;
}
