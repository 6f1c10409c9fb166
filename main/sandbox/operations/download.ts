import type { SandboxContext } from '../context';
import { kindFromFlags } from '../../../common/model/kind';
import type { SandboxInvoice } from '../data';
import { DOWNLOAD_DATA_TYPES, isBinary } from '../render';
import { mergePdfs } from '../render-pdf';
import { RAW_DATA, TRANSACTION_ID, envelope, fail, parseBool, qget, type Reply } from '../reply';

/** POST Download?downloadDataType=&invoiceWithCode=&invoiceCalcu= with a list of TransactionIDs. */
export async function opDownload(ctx: SandboxContext, query: URLSearchParams, body: unknown): Promise<Reply> {
  const { cat, renderer } = ctx;
  const withCode = parseBool(qget(query, 'invoiceWithCode'));
  const calc = parseBool(qget(query, 'invoiceCalcu'));
  if (withCode === 'bad' || calc === 'bad') return fail('InvalidRequestBody', 400);
  const typeRaw = qget(query, 'downloadDataType') || 'Pdf';
  const type = DOWNLOAD_DATA_TYPES.find((t) => t.toLowerCase() === typeRaw.toLowerCase());
  if (!type) return fail('InvalidDownloadDataType');
  if (!Array.isArray(body)) return fail('InvalidRequestBody', 400);
  if (body.length > ctx.quirks.maxDownloadIds) {
    if (ctx.quirks.tooManyIds === 'http400')
      return { status: 400, body: `Bad Request: at most ${ctx.quirks.maxDownloadIds} TransactionIDs per request`, contentType: 'text/plain; charset=utf-8' };
    return fail('InvoiceQuantityTooLarge');
  }
  const kind = kindFromFlags(withCode, calc);
  const items = body.map((raw: unknown) => {
    if (typeof raw !== 'string' || !TRANSACTION_ID.test(raw)) return { id: typeof raw === 'string' ? raw : JSON.stringify(raw), code: 'InvalidTransactionID' };
    const inv = cat.kindOf(raw) === kind ? cat.get(raw) : undefined;
    if (!inv) return { id: raw, code: 'InvoiceNotExist' };
    if (inv.deleted) return { id: raw, code: 'InvoiceDeleted' };
    return { id: raw, code: '', inv };
  });
  if (type === 'Pdf' && ctx.quirks.downloadPdfAsLink) {
    const good = items.filter((i) => i.inv);
    if (good.length === 0) return fail('InvoiceNotExist');
    const pdfs = await Promise.all(good.map((i) => renderer.render(i.inv as SandboxInvoice, 'Pdf')));
    const bytes = pdfs.length === 1 && pdfs[0] ? pdfs[0] : await mergePdfs(pdfs);
    return { status: 200, envelope: envelope(true, ctx.links.add('viewer', bytes)) };
  }
  // The list is assembled from pieces: structural JSON (escaped once per JSON-in-string
  // level) around the cached base64 bytes, which need no escaping at any level. Same bytes
  // as JSON.stringify would give, without re-encoding megabytes per request.
  const level = ctx.quirks.dataEncoding === 'object' ? 0 : ctx.quirks.dataEncoding === 'string' ? 1 : 2;
  const esc = (text: string): string => {
    let out = text;
    for (let i = 0; i < level; i++) out = JSON.stringify(out).slice(1, -1);
    return out;
  };
  const parts: (string | Buffer)[] = [];
  const open = level === 2 ? '"' + JSON.stringify('"').slice(1, -1) : level === 1 ? '"' : '';
  const close = level === 2 ? JSON.stringify('"').slice(1, -1) + '"' : level === 1 ? '"' : '';
  let pending = open + esc('[');
  const wires = await Promise.all(items.map((item) => (item.inv ? renderer.wire(item.inv, type) : Promise.resolve(null))));
  items.forEach((item, index) => {
    const field = ctx.quirks.itemDataField === 'mixed' ? (index % 2 === 0 ? 'data' : 'Data') : ctx.quirks.itemDataField;
    const wire = wires[index];
    pending += esc(`${index > 0 ? ',' : ''}{"TransactionID":${JSON.stringify(item.id)},"${field}":`);
    if (!wire) pending += esc('null');
    else if (isBinary(type)) {
      pending += esc('"');
      parts.push(pending, wire);
      pending = esc('"');
    } else pending += esc(JSON.stringify(wire.toString('utf8')));
    pending += esc(`,"ErrorCode":${JSON.stringify(item.code)}}`);
  });
  parts.push(pending + esc(']') + close);
  return { status: 200, envelope: envelope(true, RAW_DATA), rawData: parts };
}
