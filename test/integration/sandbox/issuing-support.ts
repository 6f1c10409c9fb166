import { randomUUID } from 'node:crypto';
import { emptyDraft, emptyLine, issuingForm, type DraftLine, type InvoiceDraft } from '../../../common/money';
import type { IssuingInvoiceData } from '../../../common/model/issuing';
import type { Sandbox } from '../../../main/sandbox';
import type { ResultItem } from '../../../main/sandbox/operations/issue';
import { headers, unwrap, type Env } from './helpers';

/** "Today" on the sandbox clock the issuing tests use (Vietnam date of NOW). */
export const NOW = Date.parse('2026-11-21T03:00:00Z');
export const TODAY = '2026-11-21';

const line = (o: Partial<DraftLine>): DraftLine => ({ ...emptyLine(1), ...o });

/** The InvoiceData the app sends to issue a draft (common/money/issuing.ts), from a small counter sale. */
export function issuingData(o: Partial<InvoiceDraft> = {}): IssuingInvoiceData {
  const draft = emptyDraft({
    RefID: randomUUID(),
    InvDate: TODAY,
    InvSeries: '1C26TAA',
    InvoiceName: 'Hóa đơn giá trị gia tăng',
    PaymentMethodName: 'TM/CK',
    BuyerLegalName: 'Công ty TNHH Thương mại Hồ Tây',
    BuyerTaxCode: '0101234567',
    BuyerAddress: 'Số 5 Thụy Khuê, Phường Tây Hồ, Hà Nội',
    BuyerFullName: 'Trần Văn Nam',
    BuyerEmail: 'ketoan@hotay.example.vn',
    lines: [
      line({ ItemCode: 'CF01', ItemName: 'Cà phê rang xay', UnitName: 'gói', Quantity: '3', UnitPrice: '185000', VATRateName: '8%' }),
      line({ ItemCode: 'TR02', ItemName: 'Trà Thái Nguyên', UnitName: 'hộp', Quantity: '2', UnitPrice: '150000', DiscountRate: '5', VATRateName: '10%' }),
    ],
    ...o,
  });
  return issuingForm(draft).data;
}

export interface IssueOptions {
  signType?: number;
  /** Default: the sandbox certificate for SignType 2 and 3; null leaves CertificateSN out. */
  cert?: string | null;
}

export function issueBody(sb: Sandbox, invoices: unknown[], opts: IssueOptions = {}): Record<string, unknown> {
  const signType = opts.signType ?? 2;
  const cert = opts.cert === undefined ? (signType === 2 || signType === 3 ? sb.certificate().CertificateSN : null) : opts.cert;
  return { SignType: signType, ...(cert === null ? {} : { CertificateSN: cert }), InvoiceData: invoices, PublishInvoiceData: null };
}

/** POST to the bare base path (the issue operation). */
export async function postIssue(sb: Sandbox, body: unknown, token: string | null = sb.devToken): Promise<{ status: number; env: Env; text: string }> {
  const res = await fetch(sb.baseUrl, { method: 'POST', headers: headers(token), body: JSON.stringify(body) });
  const text = await res.text();
  let env: Env = {};
  try {
    env = JSON.parse(text) as Env;
  } catch {
    /* not JSON */
  }
  return { status: res.status, env, text };
}

/** The result items of an issue answer, whatever the casing and encoding. */
export function resultItems(env: Env): ResultItem[] {
  const raw = unwrap(env.publishInvoiceResult ?? env.PublishInvoiceResult);
  if (!Array.isArray(raw)) throw new Error(`no result list in ${JSON.stringify(env)}`);
  return raw.map(
    (item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k.charAt(0).toUpperCase() + k.slice(1), v])) as ResultItem,
  );
}

/** Issues and returns the items; throws unless the call itself succeeded. */
export async function issue(sb: Sandbox, invoices: unknown[], opts: IssueOptions = {}): Promise<ResultItem[]> {
  const { status, env } = await postIssue(sb, issueBody(sb, invoices, opts));
  if (status !== 200 || env.success !== true) throw new Error(`issue failed: ${status} ${JSON.stringify(env)}`);
  return resultItems(env);
}

export type StatusEntry = Record<string, unknown> & { RefID: string; TransactionID: string; InvNo: string; InvoiceCode: string | null; SendTaxStatus: number };

export async function status(sb: Sandbox, ids: unknown[], query: string): Promise<StatusEntry[]> {
  const res = await fetch(`${sb.baseUrl}/status?${query}`, { method: 'POST', headers: headers(sb.devToken), body: JSON.stringify(ids) });
  const env = (await res.json()) as Env;
  if (res.status !== 200 || env.success !== true) throw new Error(`status failed: ${res.status} ${JSON.stringify(env)}`);
  return unwrap(env.data) as StatusEntry[];
}
