import { emailStatusFor, encodeData, type SandboxContext } from '../context';
import { kindFromFlags } from '../../../common/model/kind';
import { createRng, uuid } from '../prng';
import { TRANSACTION_ID, envelope, fail, type Reply } from '../reply';
import { getCI } from '../validate';
import { noErrorValue } from '../quirks';

const EMAIL = /^[^\s@;,<>()"]+@[^\s@;,<>()"]+\.[^\s@;,<>()".]{2,}$/;

/** The service splits address lists on `;` only: a `,` list stays one (invalid) address. */
function splitAddresses(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return value
    .split(';')
    .map((a) => a.trim())
    .filter(Boolean);
}

/** POST sendemail `{IsInvoiceCode, IsInvoiceCalculatingMachine, SendEmailDatas: [...]}` → one result per item. */
export function opSendEmail(ctx: SandboxContext, body: unknown): Reply {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('InvalidRequestBody', 400);
  const datas = getCI(body, 'SendEmailDatas');
  if (!Array.isArray(datas) || datas.length === 0) return fail('RequireError_SendEmailDatas');
  const isCode = getCI(body, 'IsInvoiceCode') === true;
  const isCalc = getCI(body, 'IsInvoiceCalculatingMachine') === true;
  const kind = kindFromFlags(isCode, isCalc);
  const results = datas.map((entry: unknown) => {
    const id = String(getCI(entry, 'TransactionID') ?? '');
    const inv = ctx.cat.get(id);
    const count = (ctx.emailCounts.get(id) ?? 0) + 1;
    ctx.emailCounts.set(id, count);
    const base = {
      TransactionID: id,
      RefID: inv?.RefID ?? '',
      RefDetailID: uuid(createRng(`refdetail:${ctx.seed}:${id}:${count}`)),
    };
    if (!TRANSACTION_ID.test(id)) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvalidTransactionID' };
    if (!inv || inv.kind !== kind) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvoiceNotExist' };
    if (inv.deleted) return { ...base, SendEmailStatus: 0, ErrorCode: 'InvoiceDeleted' };
    const to = splitAddresses(getCI(entry, 'ReceiverEmail'));
    const cc = splitAddresses(getCI(entry, 'CCEmail'));
    const bcc = splitAddresses(getCI(entry, 'BCCEmail'));
    const reply = String(getCI(entry, 'ReplyEmail') ?? '').trim();
    if (to.length === 0) return { ...base, SendEmailStatus: 2, ErrorCode: 'RequireError_ReceiverEmail' };
    if (![...to, ...cc, ...bcc].every((a) => EMAIL.test(a)) || (reply && !EMAIL.test(reply))) return { ...base, SendEmailStatus: 2, ErrorCode: 'InvalidEmail' };
    const status = emailStatusFor(ctx, id);
    ctx.emails.push({
      seq: ctx.emails.length + 1,
      at: ctx.now().toISOString(),
      TransactionID: id,
      kind,
      receiverName: String(getCI(entry, 'ReceiverName') ?? ''),
      to,
      cc,
      bcc,
      replyTo: reply,
      subject: `Hóa đơn điện tử số ${inv.InvNo ?? ''} ký hiệu ${inv.InvSeries} của ${inv.BuyerLegalName || inv.BuyerFullName}`,
      status,
    });
    return { ...base, SendEmailStatus: status, ErrorCode: noErrorValue(ctx.quirks.itemNoError) };
  });
  if (ctx.quirks.emailAnswer === 'emptyData') return { status: 200, envelope: envelope(true, '') };
  const answered = ctx.quirks.emailAnswer === 'noTransactionId' ? results.map(({ TransactionID: _id, ...rest }) => rest) : results;
  return { status: 200, envelope: envelope(!ctx.quirks.emailEnvelopeFailure, encodeData(ctx, answered)) };
}
