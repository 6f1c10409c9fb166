// The invoice PDF: its options, size padding, page content written as raw operators, and merging.
import zlib from 'node:zlib';
import Decimal from 'decimal.js';
import { PDFDocument, PDFHexString, PDFName, type PDFFont, type PDFPage } from 'pdf-lib';
import { SANDBOX_SELLER, type SandboxInvoice } from './data';
import { createRng } from './prng';
import { coveredBy, embedMaster, embedSubset, masterFor, type LoadedFont, type LoadedFonts, type MasterFont } from './render-fonts';
import { dateParts, formatAmount, formatQty, num, str } from './render-text';

/** The heading of a paper copy converted from an e-invoice. */
export const PAPER_TITLE = 'HÓA ĐƠN CHUYỂN ĐỔI TỪ HÓA ĐƠN ĐIỆN TỬ';

interface PdfOptions {
  preview?: boolean;
  /** Grow the file to about this many KB with an incompressible padding object (0 = none). */
  padKb?: number;
  /** Seed for the padding bytes. */
  padSeed?: string;
  /** false = always embed a per-document subset (default: the shared Vietnamese subset when it covers the text). */
  fastFont?: boolean;
  /** The paper copy converted from the e-invoice (voucher-paper): its title, converter and date. */
  paper?: { converter: string; date: string };
}

const GRAPHEMES = new Intl.Segmenter('vi', { granularity: 'grapheme' });
const A4: [number, number] = [595.28, 841.89];
export const FIXED_DATE = new Date(Date.UTC(2020, 0, 1));

let padBlock: Uint8Array | undefined;
function padding(size: number, seed: string): Uint8Array {
  if (!padBlock) {
    const rng = createRng('pdf-padding');
    padBlock = new Uint8Array(1 << 20);
    for (let i = 0; i < padBlock.length; i += 4) {
      const v = Math.floor(rng() * 4294967296);
      padBlock[i] = v & 255;
      padBlock[i + 1] = (v >>> 8) & 255;
      padBlock[i + 2] = (v >>> 16) & 255;
      padBlock[i + 3] = (v >>> 24) & 255;
    }
  }
  const out = new Uint8Array(size);
  let offset = (createRng(seed)() * (padBlock.length - 1)) | 0;
  for (let done = 0; done < size;) {
    const n = Math.min(size - done, padBlock.length - offset);
    out.set(padBlock.subarray(offset, offset + n), done);
    done += n;
    offset = 0;
  }
  return out;
}

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0) & 255);

/**
 * Appends an incremental-update section holding one padding stream object, so a PDF reaches
 * a target size without re-serialising it. The result stays a valid PDF (ISO 32000 7.5.6).
 */
export function padPdf(pdf: Uint8Array, targetBytes: number, seed: string): Uint8Array {
  const overhead = 220;
  const padLen = targetBytes - pdf.length - overhead;
  if (padLen <= 0) return pdf;
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 2048))).toString('latin1');
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  const trailer = /trailer\s*<<([\s\S]*?)>>\s*startxref/.exec(tail);
  const size = trailer?.[1] ? /\/Size\s+(\d+)/.exec(trailer[1]) : null;
  const root = trailer?.[1] ? /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer[1]) : null;
  const info = trailer?.[1] ? /\/Info\s+(\d+\s+\d+\s+R)/.exec(trailer[1]) : null;
  if (!startxref?.[1] || !size?.[1] || !root?.[1]) return pdf;
  const objNum = Number(size[1]);
  const needsNl = pdf[pdf.length - 1] !== 0x0a;
  const head = latin1(`${needsNl ? '\n' : ''}${objNum} 0 obj\n<< /Type /EInvoiceSandboxPadding /Length ${padLen} >>\nstream\n`);
  const objOffset = pdf.length + (needsNl ? 1 : 0);
  const afterStream = latin1('\nendstream\nendobj\n');
  const xrefOffset = pdf.length + head.length + padLen + afterStream.length;
  const xref = latin1(
    `xref\n${objNum} 1\n${String(objOffset).padStart(10, '0')} 00000 n \ntrailer\n<< /Size ${objNum + 1} /Root ${root[1]}${info?.[1] ? ` /Info ${info[1]}` : ''} /Prev ${startxref[1]} >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
  );
  const out = new Uint8Array(xrefOffset + xref.length);
  out.set(pdf, 0);
  out.set(head, pdf.length);
  out.set(padding(padLen, seed), pdf.length + head.length);
  out.set(afterStream, pdf.length + head.length + padLen);
  out.set(xref, xrefOffset);
  return out;
}

/** Compact number for content-stream operators (at most 2 decimals, no trailing zeros). */
function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/**
 * Writes page content as raw PDF operators into one Flate stream per page: pdf-lib's drawText
 * builds an operator object graph per call, which dominated a cold render. Text is encoded by
 * the embedded fonts (glyph ids as hex), so extraction and the ToUnicode map work as usual.
 */
class PdfWriter {
  y = A4[1] - 48;
  page: PDFPage;
  /** Drawn at the top of every page started from here on (a table's headings while it runs). */
  onPage: (() => void) | undefined;
  private ops: string[] = [];
  private readonly keys = new Map<PDFFont, string>();
  constructor(
    readonly doc: PDFDocument,
    readonly regular: PDFFont,
    readonly bold: PDFFont,
  ) {
    this.page = this.newPage();
  }
  private newPage(): PDFPage {
    const page = this.doc.addPage(A4);
    this.keys.clear();
    [this.regular, this.bold].forEach((font, i) => {
      if (this.keys.has(font)) return;
      const key = `F${i + 1}`;
      page.node.setFontDictionary(PDFName.of(key), font.ref);
      this.keys.set(font, key);
    });
    return page;
  }
  private flush(): void {
    if (this.ops.length === 0) return;
    const data = zlib.deflateSync(Buffer.from(this.ops.join('\n'), 'latin1'));
    const stream = this.doc.context.stream(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), { Filter: 'FlateDecode' });
    this.page.node.addContentStream(this.doc.context.register(stream));
    this.ops = [];
  }
  finish(): void {
    this.flush();
  }
  ensure(space: number): void {
    if (this.y - space < 48) {
      this.flush();
      this.page = this.newPage();
      this.y = A4[1] - 48;
      this.onPage?.();
    }
  }
  fit(text: string, width: number, size: number, font: PDFFont): string {
    if (font.widthOfTextAtSize(text, size) <= width) return text;
    let t = text;
    while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
    return `${t}…`;
  }
  /**
   * `text` broken at spaces into lines no wider than `width`; a word wider than that (a code, an
   * address joined by dashes) goes on over the next lines, letter by letter. A no-break space joins.
   */
  wrap(text: string, width: number, size: number, font: PDFFont = this.regular): string[] {
    const fits = (t: string) => font.widthOfTextAtSize(t, size) <= width;
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/[^\S\u00a0]+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (fits(next)) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      for (const { segment } of GRAPHEMES.segment(word)) {
        if (line && !fits(line + segment)) {
          lines.push(line);
          line = '';
        }
        line += segment;
      }
    }
    if (line) lines.push(line);
    return lines;
  }
  /** A paragraph from `x` to `x + width`, wrapped: each line after the first goes `gap` lower (on a new page if need be). */
  para(text: string, x: number, width: number, gap: number, opts: { size?: number; bold?: boolean } = {}): void {
    const size = opts.size ?? 9.5;
    this.wrap(text, width, size, opts.bold ? this.bold : this.regular).forEach((l, i) => {
      if (i > 0) this.next(gap);
      this.text(l, x, opts);
    });
  }
  /** Down `gap` to the next line, on a new page when this one is full. */
  next(gap: number): void {
    this.ensure(gap);
    this.line(gap);
  }
  text(text: string, x: number, opts: { size?: number; bold?: boolean; width?: number; align?: 'left' | 'right' | 'center' } = {}): void {
    const size = opts.size ?? 9.5;
    const font = opts.bold ? this.bold : this.regular;
    const t = opts.width ? this.fit(text, opts.width, size, font) : text;
    if (!t) return;
    let dx = x;
    if (opts.align && opts.align !== 'left') {
      const w = font.widthOfTextAtSize(t, size);
      dx = opts.align === 'right' ? x - w : x - w / 2;
    }
    this.ops.push(`BT /${this.keys.get(font) ?? 'F1'} ${fmt(size)} Tf ${fmt(dx)} ${fmt(this.y)} Td ${font.encodeText(t).toString()} Tj ET`);
  }
  line(gap = 14): void {
    this.y -= gap;
  }
  rule(): void {
    const y = fmt(this.y + 10);
    this.ops.push(`q 0.5 w 0.5 0.5 0.5 RG 40 ${y} m ${fmt(A4[0] - 40)} ${y} l S Q`);
  }
}

export async function renderPdf(inv: SandboxInvoice, fonts: LoadedFonts, opts: PdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const [mRegular, mBold] = await Promise.all([masterFor(fonts.regular), masterFor(fonts.bold)]);
  const extra = opts.paper ? `${PAPER_TITLE} Người chuyển đổi ${opts.paper.converter} Ngày chuyển đổi` : '';
  const useMaster = opts.fastFont !== false && coveredBy(mRegular, inv, extra) && coveredBy(mBold, inv, extra);
  const embed = (f: LoadedFont, m: MasterFont): PDFFont => (useMaster ? embedMaster(doc, f, m) : embedSubset(doc, f));
  const regular = embed(fonts.regular, mRegular);
  const bold = fonts.bold === fonts.regular ? regular : embed(fonts.bold, mBold);
  const title = opts.preview ? `Bản xem trước ${str(inv.InvSeries)}` : `${str(inv.InvoiceName)} ${str(inv.InvSeries)} số ${str(inv.InvNo)}`;
  doc.setTitle(title);
  doc.setAuthor(SANDBOX_SELLER.name);
  doc.setCreator('eInvoice Desk sandbox');
  doc.setProducer('eInvoice Desk sandbox (pdf-lib)');
  const stamp = /^\d{4}-\d{2}-\d{2}$/.test(str(inv.InvDate)) ? new Date(`${inv.InvDate}T02:00:00Z`) : FIXED_DATE;
  doc.setCreationDate(stamp);
  doc.setModificationDate(stamp);
  const cur = str(inv.CurrencyCode) || 'VND';
  const w = new PdfWriter(doc, regular, bold);
  const right = A4[0] - 40;
  w.text(SANDBOX_SELLER.name, 40, { bold: true, size: 11 });
  w.line();
  w.text(`Mã số thuế: ${SANDBOX_SELLER.taxCode}`, 40);
  w.line();
  w.para(`Địa chỉ: ${SANDBOX_SELLER.address}`, 40, right - 40, 12);
  w.line();
  w.text(`Điện thoại: ${SANDBOX_SELLER.phone}   Tài khoản: ${SANDBOX_SELLER.bankAccount}`, 40);
  w.line(30);
  w.text((str(inv.InvoiceName) || 'Hóa đơn').toUpperCase(), A4[0] / 2, { bold: true, size: 16, align: 'center' });
  w.line(18);
  if (opts.preview) {
    w.text('BẢN XEM TRƯỚC – CHƯA PHÁT HÀNH', A4[0] / 2, { bold: true, size: 10, align: 'center' });
    w.line(14);
  }
  if (opts.paper) {
    w.text(PAPER_TITLE, A4[0] / 2, { bold: true, size: 11, align: 'center' });
    w.line(14);
  }
  const { d, m, y } = dateParts(str(inv.InvDate));
  w.text(`Ngày ${d} tháng ${m} năm ${y}`, A4[0] / 2, { align: 'center' });
  w.line();
  w.text(`Ký hiệu: ${str(inv.InvSeries)}    Số: ${str(inv.InvNo) || '(chưa cấp số)'}`, A4[0] / 2, { align: 'center' });
  w.line();
  if (inv.TransactionID) {
    w.text(`Mã tra cứu: ${inv.TransactionID}`, A4[0] / 2, { align: 'center' });
    w.line();
  }
  w.line(10);
  w.para(`Họ tên người mua hàng: ${str(inv.BuyerFullName)}`, 40, right - 40, 12);
  w.line();
  w.para(`Tên đơn vị: ${str(inv.BuyerLegalName)}`, 40, right - 40, 12);
  w.line();
  w.text(`Mã số thuế: ${str(inv.BuyerTaxCode)}`, 40);
  w.text(`Mã khách hàng: ${str(inv.BuyerCode)}`, 300);
  w.line();
  w.para(`Địa chỉ: ${str(inv.BuyerAddress)}`, 40, right - 40, 12);
  w.line();
  w.text(`Hình thức thanh toán: ${str(inv.PaymentMethodName)}`, 40);
  w.text(`Đồng tiền: ${cur}${num(inv.ExchangeRate) > 1 ? `   Tỷ giá: ${formatAmount(num(inv.ExchangeRate))}` : ''}`, 300);
  w.line(24);
  // A discounted line shows its discount, so quantity × price and the amount visibly agree.
  const cols = { stt: 40, name: 66, unit: 226, qty: 305, price: 370, disc: 430, amount: 495, vat: right };
  const header = (): void => {
    w.text('STT', cols.stt, { bold: true, size: 8.5 });
    w.text('Tên hàng hóa, dịch vụ', cols.name, { bold: true, size: 8.5 });
    w.text('ĐVT', cols.unit, { bold: true, size: 8.5 });
    w.text('Số lượng', cols.qty, { bold: true, size: 8.5, align: 'right' });
    w.text('Đơn giá', cols.price, { bold: true, size: 8.5, align: 'right' });
    w.text('Chiết khấu', cols.disc, { bold: true, size: 8.5, align: 'right' });
    w.text('Thành tiền', cols.amount, { bold: true, size: 8.5, align: 'right' });
    w.text('Thuế suất', cols.vat, { bold: true, size: 8.5, align: 'right' });
    // The rule goes under the headings (it is drawn 10 above where the writer stands).
    w.line(13);
    w.rule();
    w.line(4);
  };
  header();
  w.onPage = header;
  const lines = Array.isArray(inv.OriginalInvoiceDetail) ? inv.OriginalInvoiceDetail : [];
  for (const l of lines) {
    // A long name goes on under itself in its column (the figures stay on its first line).
    const name = w.wrap(str(l.ItemName), cols.unit - cols.name - 6, 8.5);
    // The whole line on one page where it fits on one (a longer name goes on over the next).
    w.ensure(16 + 10 * Math.min(Math.max(0, name.length - 1), 40));
    const note = num(l.ItemType) === 4;
    w.text(String(l.LineNumber ?? ''), cols.stt, { size: 8.5 });
    w.text(name[0] ?? '', cols.name, { size: 8.5 });
    if (!note) {
      const discount = num(l.DiscountAmountOC);
      const rate = num(l.DiscountRate);
      w.text(str(l.UnitName), cols.unit, { size: 8.5, width: 40 });
      w.text(formatQty(num(l.Quantity)), cols.qty, { size: 8.5, align: 'right' });
      w.text(formatAmount(num(l.UnitPrice), cur), cols.price, { size: 8.5, align: 'right' });
      if (discount > 0) w.text(`${rate > 0 ? `${formatQty(rate)}% ` : ''}${formatAmount(discount, cur)}`, cols.disc, { size: 8.5, align: 'right' });
      w.text(formatAmount(num(l.AmountWithoutVATOC ?? l.AmountOC), cur), cols.amount, { size: 8.5, align: 'right' });
      w.text(str(l.VATRateName), cols.vat, { size: 8.5, align: 'right' });
    }
    for (const part of name.slice(1)) {
      w.next(10);
      w.text(part, cols.name, { size: 8.5 });
    }
    w.line(13);
  }
  w.onPage = undefined;
  w.rule();
  w.line(6);
  const rates = Array.isArray(inv.TaxRateInfo) ? inv.TaxRateInfo : [];
  for (const t of rates) {
    w.ensure(14);
    w.text(
      `Thuế suất ${str(t.VATRateName)}: tiền hàng ${formatAmount(num(t.AmountWithoutVATOC), cur)}, tiền thuế ${formatAmount(num(t.VATAmountOC), cur)}`,
      66,
      { size: 8.5 },
    );
    w.line(12);
  }
  w.ensure(80);
  w.line(6);
  const total = (label: string, value: unknown, isBold = false): void => {
    w.text(label, 300, { bold: isBold });
    w.text(formatAmount(num(value), cur), right, { bold: isBold, align: 'right' });
    w.line();
  };
  // In invoice order: before discount, the discount, after it, VAT, total payable.
  total('Cộng tiền hàng (trước chiết khấu):', new Decimal(num(inv.TotalAmountWithoutVATOC)).plus(num(inv.TotalDiscountAmountOC)).toFixed());
  total('Chiết khấu:', inv.TotalDiscountAmountOC);
  total('Tiền hàng sau chiết khấu:', inv.TotalAmountWithoutVATOC);
  total('Tiền thuế GTGT:', inv.TotalVATAmountOC);
  total('Tổng cộng tiền thanh toán:', inv.TotalAmountOC, true);
  w.line(4);
  w.para(`Số tiền viết bằng chữ: ${str(inv.TotalAmountInWords)}`, 40, right - 40, 12);
  // The signatures together, on the next page if they do not fit on this one.
  w.ensure(opts.paper ? 130 : 60);
  w.line(34);
  w.text('Người mua hàng', 130, { bold: true, align: 'center' });
  w.text('Người bán hàng', 430, { bold: true, align: 'center' });
  w.line(12);
  w.text('(Ký, ghi rõ họ tên)', 130, { size: 8, align: 'center' });
  w.text(opts.preview ? '(Chưa ký)' : 'Ký bởi: ' + SANDBOX_SELLER.name, 430, { size: 8, align: 'center', width: 250 });
  if (opts.paper) {
    const c = dateParts(opts.paper.date);
    w.line(40);
    w.text('Người chuyển đổi', 430, { bold: true, align: 'center' });
    w.line(12);
    w.text(opts.paper.converter, 430, { align: 'center', width: 250 });
    w.line(12);
    w.text(`Ngày chuyển đổi: ${c.d}/${c.m}/${c.y}`, 430, { size: 8, align: 'center' });
  }
  w.finish();
  const bytes = await doc.save({ useObjectStreams: false });
  const target = (opts.padKb ?? 0) * 1024;
  return target > bytes.length ? padPdf(bytes, target, opts.padSeed ?? str(inv.TransactionID ?? inv.RefID)) : bytes;
}

/** One PDF holding the pages of several (the Pdf "viewer link" form of Download). */
export async function mergePdfs(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  out.setTitle('Hóa đơn điện tử');
  out.setProducer('eInvoice Desk sandbox (pdf-lib)');
  out.setCreationDate(FIXED_DATE);
  out.setModificationDate(FIXED_DATE);
  for (const p of parts) {
    const src = await PDFDocument.load(p, { updateMetadata: false });
    for (const page of await out.copyPages(src, src.getPageIndices())) out.addPage(page);
  }
  out.catalog.set(PDFName.of('Lang'), PDFHexString.fromText('vi'));
  return out.save({ useObjectStreams: false });
}
