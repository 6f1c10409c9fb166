import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import Decimal from 'decimal.js';
import { zipSync, strToU8 } from 'fflate';
import zlib from 'node:zlib';
import {
  CustomFontEmbedder,
  CustomFontSubsetEmbedder,
  PDFContext,
  PDFDocument,
  PDFFont,
  PDFHexString,
  PDFName,
  PDFString,
  type PDFPage,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import { SANDBOX_SELLER, type SandboxInvoice } from './data';
import { createRng } from './prng';

export type DownloadDataType = 'Xml' | 'Pdf' | 'Html' | 'All';
export const DOWNLOAD_DATA_TYPES: readonly DownloadDataType[] = ['Xml', 'Pdf', 'Html', 'All'];

// ---------------------------------------------------------------------------------------------
// Font: found once, parsed once per process, embedded as a subset per document.

const FONT_FILES = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' } as const;

/** Where the shipped fonts are: explicit dir, $EINVOICE_FONT_DIR, or assets/fonts above the code, argv[1] or cwd. */
function findFontDir(explicit?: string): string {
  const candidates: string[] = [];
  if (explicit) candidates.push(explicit);
  if (process.env.EINVOICE_FONT_DIR) candidates.push(process.env.EINVOICE_FONT_DIR);
  const starts: string[] = [];
  if (typeof __dirname !== 'undefined') starts.push(__dirname);
  if (process.argv[1]) starts.push(path.dirname(path.resolve(process.argv[1])));
  starts.push(process.cwd());
  const resources = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  if (resources) starts.push(resources, path.join(resources, 'app.asar.unpacked'));
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 6; i++) {
      candidates.push(path.join(dir, 'assets', 'fonts'));
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  for (const c of candidates) if (fs.existsSync(path.join(c, FONT_FILES.regular))) return c;
  throw new Error(`sandbox: font ${FONT_FILES.regular} not found (looked in ${candidates.slice(0, 4).join(', ')} …); set EINVOICE_FONT_DIR`);
}

type FkFont = ReturnType<typeof fontkit.create>;
type FkGlyph = ReturnType<FkFont['glyphForCodePoint']>;

interface LoadedFont {
  name: string;
  bytes: Uint8Array;
  font: FkFont;
  glyphs: Map<number, FkGlyph>;
  scale: number;
}

const fontCache = new Map<string, LoadedFont>();

function loadFont(file: string, name: string): LoadedFont {
  let f = fontCache.get(file);
  if (!f) {
    const bytes = new Uint8Array(fs.readFileSync(file));
    const font = fontkit.create(bytes);
    f = { name, bytes, font, glyphs: new Map(), scale: 1000 / font.unitsPerEm };
    fontCache.set(file, f);
  }
  return f;
}

function glyphFor(f: LoadedFont, cp: number): FkGlyph {
  let g = f.glyphs.get(cp);
  if (!g) {
    g = f.font.glyphForCodePoint(cp);
    f.glyphs.set(cp, g);
  }
  return g;
}

interface SubsetInternals {
  subset: { includeGlyph(glyph: FkGlyph): number };
  glyphs: FkGlyph[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
  encodeText(text: string): PDFHexString;
  widthOfTextAtSize(text: string, size: number): number;
}

function encodeInto(embedder: SubsetInternals, f: LoadedFont, text: string): string {
  let hex = '';
  for (const ch of text.normalize('NFC')) {
    const glyph = glyphFor(f, ch.codePointAt(0) ?? 32);
    const sid = embedder.subset.includeGlyph(glyph);
    embedder.glyphs[sid - 1] = glyph;
    embedder.glyphIdMap.set(glyph.id, sid);
    hex += sid.toString(16).toUpperCase().padStart(4, '0');
  }
  embedder.glyphCache.invalidate();
  return hex;
}

function widthOf(f: LoadedFont, text: string, size: number): number {
  let w = 0;
  for (const ch of text.normalize('NFC')) w += glyphFor(f, ch.codePointAt(0) ?? 32).advanceWidth;
  return (w * f.scale * size) / 1000;
}

/**
 * Embeds an already-parsed font as a per-document subset. pdf-lib's own path re-parses the
 * 750 KB font and runs full OpenType shaping for every string; Vietnamese NFC text needs
 * neither (DejaVu has every precomposed letter), so glyphs come straight from the cmap.
 */
function embedSubset(doc: PDFDocument, f: LoadedFont): PDFFont {
  const embedder = Reflect.construct(CustomFontSubsetEmbedder, [f.font, f.bytes, f.name]) as unknown as SubsetInternals;
  embedder.encodeText = function encodeText(text: string): PDFHexString {
    return PDFHexString.of(encodeInto(this, f, text));
  };
  embedder.widthOfTextAtSize = (text: string, size: number): number => widthOf(f, text, size);
  const internals = doc as unknown as { fonts: PDFFont[] };
  const font = PDFFont.of(doc.context.nextRef(), doc, embedder as unknown as CustomFontSubsetEmbedder);
  internals.fonts.push(font);
  return font;
}

/** Every character the sandbox's own documents use: ASCII, all Vietnamese letters, a few signs. */
function masterCharset(): string {
  let out = '';
  for (let c = 32; c < 127; c++) out += String.fromCharCode(c);
  const bases = 'aăâeêioôơuưyAĂÂEÊIOÔƠUƯY';
  const marks = ['', '\u0300', '\u0301', '\u0309', '\u0303', '\u0323'];
  for (const b of bases) for (const m of marks) out += (b + m).normalize('NFC');
  return out + 'đĐ–—…“”‘’•·₫€°×÷±\u00a0';
}

interface MasterFont {
  chars: Set<number>;
  sidHex: Map<number, string>;
  fontFile: Uint8Array;
  fontFileLength: number;
  cmap: Uint8Array;
  widths: (number | number[])[];
  descriptor: Record<string, unknown>;
}

const masters = new Map<LoadedFont, Promise<MasterFont>>();

/**
 * One fixed subset per font (all Vietnamese letters + ASCII), serialised and compressed once
 * per process. Every catalogue PDF embeds these same bytes, so a cold render costs only the
 * page content; text outside the set falls back to a per-document subset.
 */
function masterFor(f: LoadedFont): Promise<MasterFont> {
  let p = masters.get(f);
  if (!p) {
    p = (async () => {
      const embedder = Reflect.construct(CustomFontSubsetEmbedder, [f.font, f.bytes, f.name]) as unknown as SubsetInternals & {
        serializeFont(): Promise<Uint8Array>;
        computeWidths(): (number | number[])[];
        embedUnicodeCmap(ctx: PDFContext): PDFRef;
      };
      const chars = new Set<number>();
      const sidHex = new Map<number, string>();
      for (const ch of masterCharset()) {
        const cp = ch.codePointAt(0) ?? 32;
        chars.add(cp);
        sidHex.set(cp, encodeInto(embedder, f, ch));
      }
      const raw = await embedder.serializeFont();
      const ctx = PDFContext.create();
      const cmapStream = ctx.lookup(embedder.embedUnicodeCmap(ctx)) as PDFRawStream;
      const font = f.font as unknown as {
        italicAngle: number;
        ascent: number;
        descent: number;
        capHeight: number;
        xHeight: number;
        bbox: { minX: number; minY: number; maxX: number; maxY: number };
        post: { isFixedPitch: number | boolean };
        head: { macStyle: { italic: boolean } };
        'OS/2'?: { sFamilyClass: number };
      };
      const familyClass = font['OS/2']?.sFamilyClass ?? 0;
      let flags = 1 << 2; // symbolic, as pdf-lib sets it
      if (font.post.isFixedPitch) flags |= 1;
      if (familyClass >= 1 && familyClass <= 7) flags |= 1 << 1;
      if (familyClass === 10) flags |= 1 << 3;
      if (font.head.macStyle.italic) flags |= 1 << 6;
      const sc = f.scale;
      return {
        chars,
        sidHex,
        fontFile: new Uint8Array(zlib.deflateSync(raw)),
        fontFileLength: raw.length,
        cmap: cmapStream.contents,
        widths: embedder.computeWidths(),
        descriptor: {
          Type: 'FontDescriptor',
          FontName: f.name,
          Flags: flags,
          FontBBox: [font.bbox.minX * sc, font.bbox.minY * sc, font.bbox.maxX * sc, font.bbox.maxY * sc],
          ItalicAngle: font.italicAngle,
          Ascent: font.ascent * sc,
          Descent: font.descent * sc,
          CapHeight: (font.capHeight || font.ascent) * sc,
          XHeight: (font.xHeight || 0) * sc,
          StemV: 0,
        },
      };
    })();
    masters.set(f, p);
  }
  return p;
}

function embedMaster(doc: PDFDocument, f: LoadedFont, m: MasterFont): PDFFont {
  const embedder = Object.create(CustomFontEmbedder.prototype) as Record<string, unknown>;
  Object.assign(embedder, {
    font: f.font,
    scale: f.scale,
    fontData: f.bytes,
    fontName: f.name,
    customName: f.name,
    baseFontName: f.name,
    encodeText(text: string): PDFHexString {
      let hex = '';
      for (const ch of text.normalize('NFC')) hex += m.sidHex.get(ch.codePointAt(0) ?? 32) ?? '0000';
      return PDFHexString.of(hex);
    },
    widthOfTextAtSize: (text: string, size: number): number => widthOf(f, text, size),
    async embedIntoContext(context: PDFContext, ref?: PDFRef): Promise<PDFRef> {
      const fileRef = context.register(context.stream(m.fontFile, { Filter: 'FlateDecode', Length1: m.fontFileLength }));
      const descRef = context.register(context.obj({ ...m.descriptor, FontFile2: fileRef } as never));
      const cidRef = context.register(
        context.obj({
          Type: 'Font',
          Subtype: 'CIDFontType2',
          CIDToGIDMap: 'Identity',
          BaseFont: f.name,
          CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
          FontDescriptor: descRef,
          W: m.widths,
        }),
      );
      const cmapRef = context.register(context.stream(m.cmap, { Filter: 'FlateDecode' }));
      const dict = context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: f.name, Encoding: 'Identity-H', DescendantFonts: [cidRef], ToUnicode: cmapRef });
      if (ref) {
        context.assign(ref, dict);
        return ref;
      }
      return context.register(dict);
    },
  });
  const internals = doc as unknown as { fonts: PDFFont[] };
  const font = PDFFont.of(doc.context.nextRef(), doc, embedder as unknown as CustomFontEmbedder);
  internals.fonts.push(font);
  return font;
}

/** True when every character of the invoice's text is in the master subset. */
function coveredBy(m: MasterFont, inv: SandboxInvoice, extra = ''): boolean {
  for (const ch of (JSON.stringify(inv) + extra).normalize('NFC')) if (!m.chars.has(ch.codePointAt(0) ?? 0)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Text helpers

export function formatAmount(value: number | string, currency = 'VND'): string {
  const d = new Decimal(value);
  const fixed = d.abs().toFixed(currency === 'VND' ? 0 : 2);
  const [int = '0', frac] = fixed.split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${d.isNegative() ? '-' : ''}${grouped}${frac ? `,${frac}` : ''}`;
}

function formatQty(value: number): string {
  return new Decimal(value).toString().replace('.', ',');
}

function dateParts(iso: string): { d: string; m: string; y: string } {
  const [y = '', m = '', d = ''] = iso.split('-');
  return { d, m, y };
}

function escapeXml(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function str(v: unknown): string {
  return v === undefined || v === null ? '' : String(v);
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : Number(v ?? 0) || 0;
}

// ---------------------------------------------------------------------------------------------
// XML (a TT78-like layout) and HTML

function renderXml(inv: SandboxInvoice): string {
  const lines = inv.OriginalInvoiceDetail.map(
    (l) =>
      `      <HHDVu><TChat>${l.ItemType}</TChat><STT>${l.LineNumber}</STT><MHHDVu>${escapeXml(l.ItemCode)}</MHHDVu><THHDVu>${escapeXml(l.ItemName)}</THHDVu><DVTinh>${escapeXml(l.UnitName)}</DVTinh><SLuong>${l.Quantity}</SLuong><DGia>${l.UnitPrice}</DGia><TLCKhau>${l.DiscountRate}</TLCKhau><STCKhau>${l.DiscountAmountOC}</STCKhau><ThTien>${l.AmountWithoutVATOC}</ThTien><TSuat>${escapeXml(l.VATRateName)}</TSuat></HHDVu>`,
  ).join('\n');
  const rates = inv.TaxRateInfo.map(
    (t) => `        <LTSuat><TSuat>${escapeXml(t.VATRateName)}</TSuat><ThTien>${t.AmountWithoutVATOC}</ThTien><TThue>${t.VATAmountOC}</TThue></LTSuat>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<HDon>
  <DLHDon Id="data">
    <TTChung>
      <PBan>2.1.0</PBan>
      <THDon>${escapeXml(inv.InvoiceName)}</THDon>
      <KHMSHDon>${escapeXml(inv.InvSeries.slice(0, 1))}</KHMSHDon>
      <KHHDon>${escapeXml(inv.InvSeries.slice(1))}</KHHDon>
      <SHDon>${escapeXml(inv.InvNo ?? '')}</SHDon>
      <NLap>${escapeXml(inv.InvDate)}</NLap>
      <DVTTe>${escapeXml(inv.CurrencyCode)}</DVTTe>
      <TGia>${inv.ExchangeRate}</TGia>
      <HTTToan>${escapeXml(inv.PaymentMethodName)}</HTTToan>
      <MTCuu>${escapeXml(inv.TransactionID ?? '')}</MTCuu>
      <RefID>${escapeXml(inv.RefID)}</RefID>
    </TTChung>
    <NDHDon>
      <NBan>
        <Ten>${escapeXml(SANDBOX_SELLER.name)}</Ten>
        <MST>${SANDBOX_SELLER.taxCode}</MST>
        <DChi>${escapeXml(SANDBOX_SELLER.address)}</DChi>
        <SDThoai>${escapeXml(SANDBOX_SELLER.phone)}</SDThoai>
        <STKNHang>${SANDBOX_SELLER.bankAccount}</STKNHang>
        <TNHang>${escapeXml(SANDBOX_SELLER.bankName)}</TNHang>
      </NBan>
      <NMua>
        <Ten>${escapeXml(inv.BuyerLegalName)}</Ten>
        <MST>${escapeXml(inv.BuyerTaxCode)}</MST>
        <DChi>${escapeXml(inv.BuyerAddress)}</DChi>
        <MKHang>${escapeXml(inv.BuyerCode)}</MKHang>
        <SDThoai>${escapeXml(inv.BuyerPhoneNumber)}</SDThoai>
        <DCTDTu>${escapeXml(inv.BuyerEmail)}</DCTDTu>
        <HVTNMHang>${escapeXml(inv.BuyerFullName)}</HVTNMHang>
        <STKNHang>${escapeXml(inv.BuyerBankAccount)}</STKNHang>
        <TNHang>${escapeXml(inv.BuyerBankName)}</TNHang>
      </NMua>
      <DSHHDVu>
${lines}
      </DSHHDVu>
      <TToan>
        <THTTLTSuat>
${rates}
        </THTTLTSuat>
        <TgTCThue>${inv.TotalAmountWithoutVATOC}</TgTCThue>
        <TgTThue>${inv.TotalVATAmountOC}</TgTThue>
        <TTCKTMai>${inv.TotalDiscountAmountOC}</TTCKTMai>
        <TgTTTBSo>${inv.TotalAmountOC}</TgTTTBSo>
        <TgTTTBChu>${escapeXml(inv.TotalAmountInWords)}</TgTTTBChu>
      </TToan>
    </NDHDon>
  </DLHDon>
  <MCCQT>${inv.kind === 'withoutCode' ? '' : `M1-${inv.InvSeries.slice(2, 4)}-SBX00-${escapeXml(inv.TransactionID ?? '')}`}</MCCQT>
</HDon>
`;
}

function renderHtml(inv: SandboxInvoice): string {
  const { d, m, y } = dateParts(inv.InvDate);
  const cur = inv.CurrencyCode;
  const rows = inv.OriginalInvoiceDetail.map(
    (l) =>
      `<tr><td>${l.LineNumber}</td><td>${escapeXml(l.ItemName)}</td><td>${escapeXml(l.UnitName)}</td><td class="n">${l.ItemType === 4 ? '' : formatQty(l.Quantity)}</td><td class="n">${l.ItemType === 4 ? '' : formatAmount(l.UnitPrice, cur)}</td><td class="n">${l.ItemType === 4 ? '' : formatAmount(l.AmountWithoutVATOC, cur)}</td><td>${escapeXml(l.VATRateName)}</td></tr>`,
  ).join('\n');
  return `<!DOCTYPE html>
<html lang="vi">
<head>
<meta charset="utf-8">
<title>${escapeXml(inv.InvoiceName)} ${escapeXml(inv.InvSeries)} ${escapeXml(inv.InvNo ?? '')}</title>
<style>body{font-family:"DejaVu Sans",Arial,sans-serif;font-size:13px;margin:24px}h1{text-align:center;font-size:20px}table{border-collapse:collapse;width:100%}td,th{border:1px solid #888;padding:3px 6px}.n{text-align:right}</style>
</head>
<body>
<p><b>${escapeXml(SANDBOX_SELLER.name)}</b><br>Mã số thuế: ${SANDBOX_SELLER.taxCode}<br>Địa chỉ: ${escapeXml(SANDBOX_SELLER.address)}</p>
<h1>${escapeXml(inv.InvoiceName).toUpperCase()}</h1>
<p style="text-align:center">Ngày ${d} tháng ${m} năm ${y}<br>Ký hiệu: ${escapeXml(inv.InvSeries)} &nbsp; Số: ${escapeXml(inv.InvNo ?? '')}<br>Mã tra cứu: ${escapeXml(inv.TransactionID ?? '')}</p>
<p>Họ tên người mua hàng: ${escapeXml(inv.BuyerFullName)}<br>Tên đơn vị: ${escapeXml(inv.BuyerLegalName)}<br>Mã số thuế: ${escapeXml(inv.BuyerTaxCode)}<br>Địa chỉ: ${escapeXml(inv.BuyerAddress)}<br>Hình thức thanh toán: ${escapeXml(inv.PaymentMethodName)}</p>
<table>
<thead><tr><th>STT</th><th>Tên hàng hóa, dịch vụ</th><th>Đơn vị tính</th><th>Số lượng</th><th>Đơn giá</th><th>Thành tiền</th><th>Thuế suất</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p>Cộng tiền hàng: ${formatAmount(inv.TotalAmountWithoutVATOC, cur)}<br>Tiền thuế GTGT: ${formatAmount(inv.TotalVATAmountOC, cur)}<br><b>Tổng cộng tiền thanh toán: ${formatAmount(inv.TotalAmountOC, cur)} ${escapeXml(cur)}</b><br>Số tiền viết bằng chữ: ${escapeXml(inv.TotalAmountInWords)}</p>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// PDF

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

const A4: [number, number] = [595.28, 841.89];
const FIXED_DATE = new Date(Date.UTC(2020, 0, 1));

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
    }
  }
  fit(text: string, width: number, size: number, font: PDFFont): string {
    if (font.widthOfTextAtSize(text, size) <= width) return text;
    let t = text;
    while (t.length > 1 && font.widthOfTextAtSize(`${t}…`, size) > width) t = t.slice(0, -1);
    return `${t}…`;
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

interface LoadedFonts {
  regular: LoadedFont;
  bold: LoadedFont;
}

export function loadFonts(fontDir?: string): LoadedFonts {
  const dir = findFontDir(fontDir);
  const regular = loadFont(path.join(dir, FONT_FILES.regular), 'DejaVuSans');
  const boldFile = path.join(dir, FONT_FILES.bold);
  const bold = fs.existsSync(boldFile) ? loadFont(boldFile, 'DejaVuSans-Bold') : regular;
  return { regular, bold };
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
  w.text(`Địa chỉ: ${SANDBOX_SELLER.address}`, 40, { width: right - 40 });
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
  w.text(`Họ tên người mua hàng: ${str(inv.BuyerFullName)}`, 40, { width: right - 40 });
  w.line();
  w.text(`Tên đơn vị: ${str(inv.BuyerLegalName)}`, 40, { width: right - 40 });
  w.line();
  w.text(`Mã số thuế: ${str(inv.BuyerTaxCode)}`, 40);
  w.text(`Mã khách hàng: ${str(inv.BuyerCode)}`, 300);
  w.line();
  w.text(`Địa chỉ: ${str(inv.BuyerAddress)}`, 40, { width: right - 40 });
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
    w.line(4);
    w.rule();
    w.line(10);
  };
  header();
  const lines = Array.isArray(inv.OriginalInvoiceDetail) ? inv.OriginalInvoiceDetail : [];
  for (const l of lines) {
    w.ensure(16);
    const note = num(l.ItemType) === 4;
    w.text(String(l.LineNumber ?? ''), cols.stt, { size: 8.5 });
    w.text(str(l.ItemName), cols.name, { size: 8.5, width: cols.unit - cols.name - 6 });
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
    w.line(13);
  }
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
  w.text(`Số tiền viết bằng chữ: ${str(inv.TotalAmountInWords)}`, 40, { width: right - 40 });
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

function renderZip(inv: SandboxInvoice, xml: string, pdf: Uint8Array): Uint8Array {
  const id = inv.TransactionID ?? inv.RefID;
  const mtime = /^\d{4}-\d{2}-\d{2}$/.test(inv.InvDate) ? new Date(`${inv.InvDate}T09:00:00`) : FIXED_DATE;
  return zipSync(
    {
      [`${id}.xml`]: [strToU8(xml), { level: 6, mtime }],
      [`${id}.pdf`]: [pdf, { level: 0, mtime }],
    },
    { mtime },
  );
}

// ---------------------------------------------------------------------------------------------
// Bounded LRU of rendered bytes, with in-flight de-duplication.

export class ByteLru {
  private map = new Map<string, Uint8Array>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  constructor(private readonly maxBytes: number) {}
  get(key: string): Uint8Array | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
      this.hits++;
    } else this.misses++;
    return v;
  }
  set(key: string, value: Uint8Array): void {
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.length;
      this.map.delete(key);
    }
    if (value.length > this.maxBytes) return;
    this.map.set(key, value);
    this.bytes += value.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.length;
    }
  }
  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
  get size(): number {
    return this.map.size;
  }
  get totalBytes(): number {
    return this.bytes;
  }
}

interface RendererOptions {
  fontDir?: string;
  padKb?: number;
  cacheMb?: number;
}

/** Renders catalogue invoices; every type is cached by TransactionID as bytes. */
export class InvoiceRenderer {
  readonly cache: ByteLru;
  private inflight = new Map<string, Promise<Buffer>>();
  private fontsLoaded?: LoadedFonts;
  /** Time spent producing renders that missed the cache (sum of wall times; renders may overlap). */
  renderMs = 0;
  constructor(private readonly opts: RendererOptions = {}) {
    this.cache = new ByteLru((opts.cacheMb ?? 512) * 1024 * 1024);
  }
  get fonts(): LoadedFonts {
    this.fontsLoaded ??= loadFonts(this.opts.fontDir);
    return this.fontsLoaded;
  }
  /** The file bytes of one invoice in one type (Xml/Html as UTF-8). */
  async render(inv: SandboxInvoice, type: DownloadDataType): Promise<Uint8Array> {
    const wire = await this.wire(inv, type);
    return isBinary(type) ? new Uint8Array(Buffer.from(wire.toString('latin1'), 'base64')) : wire;
  }
  /**
   * The form Download puts on the wire, cached: base64 (ASCII bytes) for Pdf/All, UTF-8 for
   * Xml/Html. Keeping base64 lets a response be assembled by copying, with no re-encoding.
   */
  wire(inv: SandboxInvoice, type: DownloadDataType): Promise<Buffer> {
    const key = `${inv.TransactionID ?? inv.RefID}|${type}`;
    const hit = this.cache.get(key);
    if (hit) return Promise.resolve(hit as Buffer);
    let p = this.inflight.get(key);
    if (!p) {
      p = this.produce(inv, type).then(
        (bytes) => {
          const wire = isBinary(type)
            ? Buffer.from(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), 'latin1')
            : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          this.cache.set(key, wire);
          this.inflight.delete(key);
          return wire;
        },
        (error: unknown) => {
          this.inflight.delete(key);
          throw error;
        },
      );
      this.inflight.set(key, p);
    }
    return p;
  }
  private async produce(inv: SandboxInvoice, type: DownloadDataType): Promise<Uint8Array> {
    const t0 = performance.now();
    try {
      switch (type) {
        case 'Xml':
          return strToU8(renderXml(inv));
        case 'Html':
          return strToU8(renderHtml(inv));
        case 'Pdf':
          return await renderPdf(inv, this.fonts, { padKb: this.opts.padKb ?? 0 });
        case 'All':
          return renderZip(inv, renderXml(inv), await this.render(inv, 'Pdf'));
      }
    } finally {
      this.renderMs += performance.now() - t0;
    }
  }
  renderPreview(inv: SandboxInvoice): Promise<Uint8Array> {
    return renderPdf(inv, this.fonts, { preview: true });
  }
  /** The paper copy converted from an issued invoice (not cached: converter and date vary). */
  renderPaper(inv: SandboxInvoice, paper: { converter: string; date: string }): Promise<Uint8Array> {
    return renderPdf(inv, this.fonts, { paper });
  }
}

export function isBinary(type: DownloadDataType): boolean {
  return type === 'Pdf' || type === 'All';
}
