import type { Bilingual, InvoiceKind } from '../../../common/model';
import { splitEmails } from '../../../common/rules/email';

/** The recipients of one email, addresses `;`-separated. */
export interface Recipients {
  receiverName: string;
  receiverEmail: string;
  ccEmail: string;
  bccEmail: string;
  replyEmail: string;
}

/** A new entry, already checked and normalised. */
export interface CleanInput extends Recipients {
  transactionId: string;
  kind: InvoiceKind;
}

interface RawInput {
  transactionId?: string | null;
  receiverName?: string | null;
  receiverEmail?: string | null;
  ccEmail?: string | null;
  bccEmail?: string | null;
  replyEmail?: string | null;
  kind: InvoiceKind;
}

/** A reason in both languages (a refusal, an error the user reads). */

const ADDRESS_FIELDS: ReadonlyArray<[keyof RawInput, string, string, boolean]> = [
  ['receiverEmail', 'ReceiverEmail', 'Email người nhận', true],
  ['ccEmail', 'CCEmail', 'Email CC', false],
  ['bccEmail', 'BCCEmail', 'Email BCC', false],
  ['replyEmail', 'ReplyEmail', 'Email trả lời', false],
];

/** Checks and normalises one entry; returns the clean entry or the reason it is refused. */
export function checkInput(raw: RawInput): { ok: true; value: CleanInput } | { ok: false; problem: Bilingual } {
  const transactionId = (raw.transactionId ?? '').trim();
  if (!transactionId) return { ok: false, problem: { en: 'TransactionID is empty.', vi: 'Thiếu mã tra cứu (TransactionID).' } };
  // A lone surrogate half is stored as U+FFFD: two such codes would become one invoice's twice.
  if (transactionId.length > 200 || /\s|\p{Surrogate}/u.test(transactionId)) {
    return {
      ok: false,
      problem: { en: `TransactionID "${transactionId.slice(0, 60)}" is not valid.`, vi: `Mã tra cứu "${transactionId.slice(0, 60)}" không hợp lệ.` },
    };
  }
  const out: Record<string, string> = {};
  for (const [key, en, vi, required] of ADDRESS_FIELDS) {
    const list = splitEmails((raw[key] as string | null | undefined) ?? '');
    if (list.invalid.length > 0) {
      const bad = list.invalid.map((a) => a.slice(0, 80)).join(', ');
      return { ok: false, problem: { en: `${en}: not a valid address: ${bad}.`, vi: `${vi}: địa chỉ không hợp lệ: ${bad}.` } };
    }
    if (required && list.addresses.length === 0) return { ok: false, problem: { en: `${en} is empty.`, vi: `${vi} đang trống.` } };
    out[key] = list.normalised;
  }
  return {
    ok: true,
    value: {
      transactionId,
      receiverName: (raw.receiverName ?? '').trim(),
      receiverEmail: out.receiverEmail ?? '',
      ccEmail: out.ccEmail ?? '',
      bccEmail: out.bccEmail ?? '',
      replyEmail: out.replyEmail ?? '',
      kind: raw.kind,
    },
  };
}

/** A number typed where the lookup code goes, and the register knows invoices of that number: their codes. */
export function numberNotLookupCode(typed: string, invoices: ReadonlyArray<{ invSeries: string; invNo: string; transactionId: string }>): Bilingual {
  const en = invoices.map((i) => `invoice ${i.invSeries} no. ${i.invNo}: ${i.transactionId}`).join('; ');
  const vi = invoices.map((i) => `hóa đơn ${i.invSeries} số ${i.invNo}: ${i.transactionId}`).join('; ');
  return {
    en: `"${typed}" is an invoice number, not a lookup code (TransactionID). The lookup code of ${en}.`,
    vi: `"${typed}" là số hóa đơn, không phải mã tra cứu (TransactionID). Mã tra cứu của ${vi}.`,
  };
}
