import type { SendEmailParameter } from '../../../common/model';
import { normaliseEmailList } from './batching';

/** `data: ""` exactly as the integration document shows it; a missing or null `data` stays unknown. */
export function isEmptyAnswer(data: unknown): boolean {
  return typeof data === 'string' && data.trim() === '';
}

export function pickLink(data: unknown): string | null {
  if (typeof data === 'string' && /^https?:\/\//i.test(data.trim())) return data.trim();
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [k, v] of Object.entries(data)) {
      if (/^(link|url|previewlink|data)$/i.test(k) && typeof v === 'string' && /^https?:\/\//i.test(v.trim())) return v.trim();
    }
  }
  return null;
}

/** The body as docs/service.md#send-email--sendemail describes it: addresses `;`-separated, BCCEmail only when filled. */
export function toWireEmailParameter(p: SendEmailParameter): Record<string, unknown> {
  const { SendEmailDatas, IsInvoiceCode, IsInvoiceCalculatingMachine, ...rest } = p;
  return {
    ...rest,
    SendEmailDatas: SendEmailDatas.map((d) => {
      const { BCCEmail, CCEmail, ReceiverEmail, ...other } = d;
      const out: Record<string, unknown> = { ...other, ReceiverEmail: normaliseEmailList(ReceiverEmail) };
      const cc = normaliseEmailList(CCEmail);
      out.CCEmail = cc === '' ? null : cc;
      const bcc = normaliseEmailList(BCCEmail);
      if (bcc !== '') out.BCCEmail = bcc;
      return out;
    }),
    IsInvoiceCode,
    IsInvoiceCalculatingMachine: IsInvoiceCalculatingMachine ?? false,
  };
}
