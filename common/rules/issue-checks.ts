/**
 * Checks made when a draft is about to be issued, beyond the drafting check (validateDraft),
 * returned together with it, each with its path. The service is stricter at issuing than at
 * preview; these catch before sending what it would refuse (template, series and kind, 200
 * lines per invoice, several rates, a date before the series' last one, digits, words).
 */
import { problem, type Problem } from './problem';
import { parseSeries } from './series';
import { isCalendarDate } from './date';
import { splitEmails } from './email';
import { FIGURE_NAMES, validateDraft, type ValidateOptions, type ValidationResult } from '../validation';
import { issuingForm, type IssuingForm, type IssuingOptions } from '../money/issuing';
import type { InvoiceDraft } from '../money/draft';
import type { Bilingual } from '../model/text';

/** The service refuses longer invoices (`XMLTooLong`). */
export const MAX_LINES_PER_INVOICE = 200;

export interface IssueTemplate {
  InvSeries: string;
  Inactive?: boolean | null;
  IsSendSummary?: boolean | null;
  IsMoreVATRate?: boolean | null;
}

export interface IssueContext extends ValidateOptions, Omit<IssuingOptions, 'template'> {
  /** The template chosen for this invoice (from the templates list); null when none is chosen. */
  template: IssueTemplate | null;
  /** The last InvDate issued on each series, when known locally (series → `YYYY-MM-DD`). */
  lastIssuedDates?: Readonly<Record<string, string>>;
}

export interface IssueCheckResult extends ValidationResult {
  /** The issuing form that would be sent. */
  form: IssuingForm;
}

export function checkForIssue(draft: InvoiceDraft, context: IssueContext): IssueCheckResult {
  const v = validateDraft(draft, context);
  const form = issuingForm(draft, { ...context, template: context.template });
  const p: Problem[] = [...v.problems, ...templateProblems(draft, context, v)];

  const n = draft.lines.length;
  if (n > MAX_LINES_PER_INVOICE) {
    const parts = Math.ceil(n / MAX_LINES_PER_INVOICE);
    p.push(
      problem(['lines'], 'issue.tooManyLines', {
        en: `The invoice has ${n} lines; the service accepts at most ${MAX_LINES_PER_INVOICE}. Split it into ${parts} invoices.`,
        vi: `Hóa đơn có ${n} dòng; hệ thống chỉ nhận tối đa ${MAX_LINES_PER_INVOICE} dòng. Hãy tách thành ${parts} hóa đơn.`,
      }),
    );
  }

  const series = parseSeries(draft.InvSeries);
  const last = series.ok ? context.lastIssuedDates?.[series.normalised]?.slice(0, 10) : undefined;
  if (last && isCalendarDate(last) && isCalendarDate(draft.InvDate) && draft.InvDate < last) {
    p.push(
      problem(['InvDate'], 'issue.dateBeforeLast', {
        en: `The invoice date ${draft.InvDate} is before ${last}, the date of the last invoice issued on series ${series.ok ? series.normalised : ''}.`,
        vi: `Ngày hóa đơn ${draft.InvDate} trước ngày ${last} của hóa đơn đã phát hành gần nhất trong ký hiệu ${series.ok ? series.normalised : ''}.`,
      }),
    );
  }

  if ((form.data.TotalAmountInWords ?? '').trim() === '') {
    p.push(problem(['TotalAmountInWords'], 'issue.words', { en: 'The amount in words is missing.', vi: 'Chưa có số tiền viết bằng chữ.' }));
  }

  for (const [k, val] of Object.entries(context.digits ?? {})) {
    if (!(typeof val === 'number' && Number.isInteger(val) && val >= 0 && val <= 15)) {
      p.push(
        problem(['OptionUserDefined', k], 'issue.digitsSetting', {
          en: `The setting ${k} must be a whole number from 0 to 15.`,
          vi: `Thiết lập ${k} phải là số nguyên từ 0 đến 15.`,
        }),
      );
    }
  }
  for (const c of form.changed) {
    const key = String(c.path[c.path.length - 1]);
    const field = FIGURE_NAMES[key] ?? { en: key, vi: key };
    const where = typeof c.path[1] === 'number' ? { en: `Line ${c.path[1] + 1}: the `, vi: `Dòng ${c.path[1] + 1}: ` } : { en: 'The ', vi: '' };
    p.push(
      problem(c.path, 'issue.digits', {
        en: `${where.en}${field.en} ${c.typed} has more decimal places than the shop's setting allows (${c.digits}); it would be issued as ${c.sent}.`,
        vi: `${where.vi}${field.vi} ${c.typed} có nhiều chữ số thập phân hơn thiết lập cho phép (${c.digits}); sẽ được phát hành là ${c.sent}.`,
      }),
    );
  }

  if (form.inexact.length > 0) {
    const names = form.inexact.slice(0, 5).join(', ') + (form.inexact.length > 5 ? ' …' : '');
    p.push(
      problem(['ExchangeRate'], 'amount.tooLarge', {
        en: `Converted to VND, these amounts are too large to send exactly: ${names}.`,
        vi: `Khi quy đổi sang VND, các số tiền sau quá lớn để gửi chính xác: ${names}.`,
      }),
    );
  }

  if (context.sendEmail) {
    const list = splitEmails(context.sendEmail.email);
    if (list.addresses.length === 0 || list.invalid.length > 0) {
      p.push(
        problem(['ReceiverEmail'], 'email.format', {
          en: `The buyer's email for sending the invoice is not valid${list.invalid.length ? `: ${list.invalid.join('; ')}` : ''}.`,
          vi: `Email gửi hóa đơn cho người mua không hợp lệ${list.invalid.length ? `: ${list.invalid.join('; ')}` : ''}.`,
        }),
      );
    }
  }

  const errors = p.filter((x) => x.severity === 'error');
  const warnings = p.filter((x) => x.severity === 'warning');
  return { ok: errors.length === 0, problems: p, errors, warnings, computed: v.computed, form };
}

/**
 * Why a draft is not issued yet: its first error and how many more. The one wording of the refusal
 * the issue queue sends (`issue_check_failed`, also read by the command line) and of the editor's own check.
 */
export function issueBlocked(errors: ReadonlyArray<Pick<Problem, 'message' | 'messageVi'>>): Bilingual {
  const first = errors[0];
  if (!first) return { en: 'The invoice cannot be issued yet.', vi: 'Chưa phát hành được hóa đơn.' };
  const more = errors.length - 1;
  // The count goes inside the sentence, which then ends once: "…is not a number (and 1 more error)."
  const words = (w: string) => w.trim().replace(more > 0 ? /[.!?]+$/ : /\.+$/, '');
  const end = (w: string) => (/[!?]$/.test(w) ? w : `${w}.`);
  const en = words(first.message);
  const vi = words(first.messageVi);
  return {
    en: `The invoice cannot be issued yet: ${end(more > 0 ? `${en} (and ${more} more ${more === 1 ? 'error' : 'errors'})` : en)}`,
    vi: `Chưa phát hành được hóa đơn: ${end(more > 0 ? `${vi} (và ${more} lỗi khác)` : vi)}`,
  };
}

function templateProblems(draft: InvoiceDraft, context: IssueContext, v: ValidationResult): Problem[] {
  const out: Problem[] = [];
  const t = context.template;
  if (!t) {
    out.push(
      problem(['InvSeries'], 'issue.template', {
        en: 'Choose the invoice template (series) to issue with.',
        vi: 'Hãy chọn mẫu hóa đơn (ký hiệu) để phát hành.',
      }),
    );
    return out;
  }
  const chosen = parseSeries(t.InvSeries);
  const typed = parseSeries(draft.InvSeries);
  const name = chosen.ok ? chosen.normalised : t.InvSeries;
  if (t.Inactive === true) {
    out.push(
      problem(['InvSeries'], 'issue.templateInactive', {
        en: `Series ${name} is no longer in use: choose an active one.`,
        vi: `Ký hiệu ${name} đã ngừng sử dụng: hãy chọn ký hiệu đang hoạt động.`,
      }),
    );
  }
  if (!chosen.ok || !typed.ok || chosen.normalised !== typed.normalised) {
    out.push(
      problem(['InvSeries'], 'issue.templateSeries', {
        en: `The invoice's series "${draft.InvSeries.trim()}" is not the chosen template's series ${name}.`,
        vi: `Ký hiệu hóa đơn "${draft.InvSeries.trim()}" không phải ký hiệu của mẫu đã chọn ${name}.`,
      }),
    );
  } else if ((chosen.formDigit === 5) !== (draft.IsTicket === true)) {
    out.push(
      draft.IsTicket
        ? problem(['IsTicket'], 'issue.kind', {
            en: `A ticket needs an e-ticket series (form 5); ${name} is not one.`,
            vi: `Vé điện tử cần ký hiệu mẫu 5; ${name} không phải ký hiệu vé.`,
          })
        : problem(['IsTicket'], 'issue.kind', {
            en: `Series ${name} is for e-tickets: mark the invoice as a ticket or choose another series.`,
            vi: `Ký hiệu ${name} dành cho vé điện tử: hãy đánh dấu là vé hoặc chọn ký hiệu khác.`,
          }),
    );
  }
  if (v.computed.taxRates.length > 1 && t.IsMoreVATRate !== true) {
    out.push(
      problem(['TaxRateInfo'], 'issue.multiRate', {
        en: `The invoice has ${v.computed.taxRates.length} VAT rates (${v.computed.taxRates.map((r) => r.VATRateName).join(', ')}) but template ${name} allows one rate only.`,
        vi: `Hóa đơn có ${v.computed.taxRates.length} thuế suất (${v.computed.taxRates.map((r) => r.VATRateName).join(', ')}) nhưng mẫu ${name} chỉ cho phép một thuế suất.`,
      }),
    );
  }
  return out;
}
