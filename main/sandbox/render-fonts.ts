// The PDFs' fonts: found once, parsed once per process, embedded as a subset per document.
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import zlib from 'node:zlib';
import {
  CustomFontEmbedder,
  CustomFontSubsetEmbedder,
  PDFContext,
  PDFFont,
  PDFHexString,
  PDFString,
  type PDFDocument,
  type PDFRawStream,
  type PDFRef,
} from 'pdf-lib';
import type { SandboxInvoice } from './data';

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

export interface LoadedFont {
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
export function embedSubset(doc: PDFDocument, f: LoadedFont): PDFFont {
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

export interface MasterFont {
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
export function masterFor(f: LoadedFont): Promise<MasterFont> {
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

export function embedMaster(doc: PDFDocument, f: LoadedFont, m: MasterFont): PDFFont {
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
export function coveredBy(m: MasterFont, inv: SandboxInvoice, extra = ''): boolean {
  for (const ch of (JSON.stringify(inv) + extra).normalize('NFC')) if (!m.chars.has(ch.codePointAt(0) ?? 0)) return false;
  return true;
}

export interface LoadedFonts {
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
