import { unzipSync, strFromU8 } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../main/sandbox/data';
import { ByteLru, InvoiceRenderer } from '../../../main/sandbox/render';
import { loadFonts } from '../../../main/sandbox/render-fonts';
import { padPdf, renderPdf } from '../../../main/sandbox/render-pdf';
import { formatAmount } from '../../../main/sandbox/render-text';
import { sampleInvoiceData } from '../../support/sandbox-invoice';

const NOW = new Date('2026-11-21T10:00:00Z');
const cat = buildCatalogue(1, 120, NOW);
const fonts = loadFonts();

async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(doc, { mergePages: true });
  return text;
}

const vi = (s: string): string => s.normalize('NFC');

describe('PDF rendering', () => {
  it('renders catalogue invoices with correct Vietnamese text', async () => {
    const id = cat.list('withCode')[0] as string;
    const inv = cat.get(id)!;
    const text = vi(await pdfText(await renderPdf(inv, fonts)));
    expect(text).toContain('HÓA ĐƠN GIÁ TRỊ GIA TĂNG');
    expect(text).toContain('Công ty TNHH Cửa hàng Thử nghiệm Hóa đơn Điện tử');
    expect(text).toContain(inv.BuyerFullName);
    expect(text).toContain(`Mã tra cứu: ${id}`);
    expect(text).toContain(formatAmount(inv.TotalAmountOC, inv.CurrencyCode));
    expect(text).toContain(inv.TotalAmountInWords);
  });

  it('is byte-for-byte deterministic, also across renderers', async () => {
    const inv = cat.get(cat.list('cashRegister')[0] as string)!;
    const a = await renderPdf(inv, fonts, { padKb: 60 });
    const b = await new InvoiceRenderer({ padKb: 60 }).render(inv, 'Pdf');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('falls back to a per-document subset for characters outside the shared set', async () => {
    const inv = sampleInvoiceData({ BuyerFullName: 'Ωmega Nguyễn Văn Ánh ∑' });
    const fast = await renderPdf(inv, fonts, { preview: true });
    const text = vi(await pdfText(fast));
    expect(text).toContain('Ωmega Nguyễn Văn Ánh ∑');
    expect(text).toContain('BẢN XEM TRƯỚC');
    const slow = vi(await pdfText(await renderPdf(sampleInvoiceData(), fonts, { fastFont: false })));
    expect(slow).toContain('Nguyễn Thị Thu Hương');
    expect(slow).toContain('1.129.200');
  });

  it('a long item name or address goes on over more lines, whole, and the figures stay beside the name', async () => {
    const base = sampleInvoiceData();
    const [first, ...rest] = base.OriginalInvoiceDetail;
    const name =
      'Bộ quà tặng Tết gồm cà phê rang xay Buôn Ma Thuột, trà Thái Nguyên đặc biệt, bánh pía Sóc Trăng nhân sầu riêng trứng muối và hộp gỗ khắc tên khách hàng';
    const address =
      'Tầng 12, Tòa nhà Văn phòng Hoàng Gia, số 123 đường Nguyễn Thị Minh Khai, Phường Bến Thành, Quận 1, Thành phố Hồ Chí Minh, Việt Nam (giao hàng giờ hành chính)';
    const inv = sampleInvoiceData({ BuyerAddress: address, OriginalInvoiceDetail: [{ ...first!, ItemName: name }, ...rest] });
    const text = vi(await pdfText(await renderPdf(inv, fonts)));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`Địa chỉ: ${address}`);
    expect(text).not.toContain('…');
    // Every word of the name, in order; the line's figures on its first line, so before the name's end.
    const words = name.split(' ');
    let at = flat.indexOf('1 Bộ quà tặng');
    expect(at).toBeGreaterThan(0);
    for (const w of words) {
      const next = flat.indexOf(w, at);
      expect(next, w).toBeGreaterThanOrEqual(at);
      at = next + w.length;
    }
    const amount = formatAmount(Number(first!.AmountWithoutVATOC), 'VND');
    expect(flat.indexOf(amount)).toBeGreaterThan(flat.indexOf('1 Bộ quà tặng'));
    expect(flat.indexOf(amount)).toBeLessThan(flat.indexOf('khắc tên khách hàng'));
  });

  it('a word wider than its column goes on over the next line whole; lines past a page go on the next page, inside its margins', async () => {
    const [first, ...rest] = sampleInvoiceData().OriginalInvoiceDetail;
    const code = 'MãSảnPhẩm-ABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789-abcdefghijkl';
    const long = Array.from({ length: 120 }, (_, i) => `từ${i}`).join(' ');
    const many = Array.from({ length: 30 }, (_, i) => ({ ...first!, LineNumber: i + 3, ItemName: `Hàng số ${i} ${long}` }));
    const inv = sampleInvoiceData({ OriginalInvoiceDetail: [{ ...first!, ItemName: code }, ...rest, ...many] });
    const doc = await getDocumentProxy(new Uint8Array(await renderPdf(inv, fonts)));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).not.toContain('…');
    // In the name's column (x = 66) on the first page, the code's lines put together are the code.
    const column = ((await (await doc.getPage(1)).getTextContent()).items as Array<{ str: string; transform: number[] }>)
      .filter((i) => Math.abs(i.transform[4]! - 66) < 1)
      .map((i) => vi(i.str));
    const from = column.findIndex((t) => t.startsWith('MãSảnPhẩm'));
    const to = column.indexOf(vi(rest[0]!.ItemName));
    expect(to - from).toBeGreaterThan(1);
    expect(column.slice(from, to).join('')).toBe(code);
    expect(doc.numPages).toBeGreaterThan(2);
    for (let p = 1; p <= doc.numPages; p++) {
      const items = (await (await doc.getPage(p)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
      const ys = items.filter((i) => i.str.trim()).map((i) => i.transform[5]!);
      expect(Math.min(...ys), `page ${p}`).toBeGreaterThanOrEqual(40);
      expect(Math.max(...ys), `page ${p}`).toBeLessThanOrEqual(842 - 40);
    }
    // The last word of the last line's name is there, after every other line.
    expect(vi(text)).toContain('từ119');
  });

  it('a table that goes on over the next pages repeats its headings at the top of each', async () => {
    const [first] = sampleInvoiceData().OriginalInvoiceDetail;
    const many = Array.from({ length: 90 }, (_, i) => ({ ...first!, LineNumber: i + 1, ItemName: `Hàng số ${i + 1}` }));
    const doc = await getDocumentProxy(new Uint8Array(await renderPdf(sampleInvoiceData({ OriginalInvoiceDetail: many }), fonts)));
    expect(doc.numPages).toBeGreaterThan(2);
    const pages: Array<Array<{ str: string; y: number }>> = [];
    for (let p = 1; p <= doc.numPages; p++) {
      const items = (await (await doc.getPage(p)).getTextContent()).items as Array<{ str: string; transform: number[] }>;
      pages.push(items.filter((i) => i.str.trim()).map((i) => ({ str: vi(i.str), y: i.transform[5]! })));
    }
    // Every page holding lines of the table starts with its headings; the page after it does not.
    const withLines = pages.filter((items) => items.some((i) => /^Hàng số \d+$/.test(i.str)));
    expect(withLines.length).toBeGreaterThan(1);
    for (const items of withLines) {
      const heading = items.find((i) => i.str === vi('Tên hàng hóa, dịch vụ'));
      expect(heading).toBeDefined();
      const firstLine = Math.max(...items.filter((i) => /^Hàng số \d+$/.test(i.str)).map((i) => i.y));
      expect(heading!.y).toBeGreaterThan(firstLine);
      expect(items.filter((i) => ['STT', 'Thành tiền', 'Thuế suất'].includes(i.str)).length).toBe(3);
    }
    const last = pages[pages.length - 1]!;
    if (!last.some((i) => /^Hàng số \d+$/.test(i.str))) expect(last.some((i) => i.str === vi('Tên hàng hóa, dịch vụ'))).toBe(false);
    expect(pages.flat().filter((i) => /^Hàng số \d+$/.test(i.str))).toHaveLength(90);
  });

  it('decomposed (NFD) input still renders as precomposed letters', async () => {
    const inv = sampleInvoiceData({ BuyerFullName: 'Trần Thị Thảo'.normalize('NFD') });
    expect(vi(await pdfText(await renderPdf(inv, fonts)))).toContain('Trần Thị Thảo');
  });

  it('pads to about the requested size and stays a readable PDF', async () => {
    const inv = cat.get(cat.list('withCode')[1] as string)!;
    const padded = await renderPdf(inv, fonts, { padKb: 100 });
    expect(padded.length).toBeGreaterThan(100 * 1024 - 600);
    expect(padded.length).toBeLessThan(100 * 1024 + 600);
    expect(vi(await pdfText(padded))).toContain(inv.BuyerFullName);
    const tail = Buffer.from(padded.subarray(padded.length - 400)).toString('latin1');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(tail)?.[1]);
    expect(Buffer.from(padded.subarray(startxref, startxref + 4)).toString('latin1')).toBe('xref');
    const entry = /xref\n(\d+) 1\n(\d{10}) 00000 n \n/.exec(tail);
    const objOffset = Number(entry?.[2]);
    expect(Buffer.from(padded.subarray(objOffset, objOffset + 20)).toString('latin1')).toMatch(new RegExp(`^${entry?.[1]} 0 obj\n`));
    const small = await renderPdf(inv, fonts);
    expect(padPdf(small, 10, 'x')).toBe(small);
    expect(small.length).toBeLessThan(60 * 1024);
  });
});

describe('other types', () => {
  const r = new InvoiceRenderer();
  const id = cat.list('withoutCode')[0] as string;
  const inv = cat.get(id)!;

  it('XML is UTF-8 with the invoice content', async () => {
    const xml = strFromU8(await r.render(inv, 'Xml'));
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain(`<MTCuu>${id}</MTCuu>`);
    expect(xml).toContain(inv.BuyerFullName);
    expect(xml).toContain(`<TgTTTBSo>${inv.TotalAmountOC}</TgTTTBSo>`);
  });

  it('HTML is a UTF-8 page', async () => {
    const html = strFromU8(await r.render(inv, 'Html'));
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('HÓA ĐƠN GIÁ TRỊ GIA TĂNG');
    expect(html).toContain(inv.BuyerFullName);
  });

  it('All is a zip holding the same XML and PDF', async () => {
    const zip = unzipSync(await r.render(inv, 'All'));
    expect(Object.keys(zip).sort()).toEqual([`${id}.pdf`, `${id}.xml`]);
    expect(Buffer.from(zip[`${id}.pdf`]!).equals(Buffer.from(await r.render(inv, 'Pdf')))).toBe(true);
    expect(strFromU8(zip[`${id}.xml`]!)).toBe(strFromU8(await r.render(inv, 'Xml')));
    const again = await new InvoiceRenderer().render(inv, 'All');
    expect(Buffer.from(again).equals(Buffer.from(await r.render(inv, 'All')))).toBe(true);
  });

  it('caches rendered bytes', async () => {
    const before = r.cache.hits;
    await r.render(inv, 'Pdf');
    expect(r.cache.hits).toBe(before + 1);
  });
});

describe('ByteLru', () => {
  it('evicts least recently used entries beyond its byte bound', () => {
    const lru = new ByteLru(10);
    lru.set('a', new Uint8Array(4));
    lru.set('b', new Uint8Array(4));
    lru.get('a');
    lru.set('c', new Uint8Array(4));
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    expect(lru.totalBytes).toBe(8);
    lru.set('huge', new Uint8Array(11));
    expect(lru.get('huge')).toBeUndefined();
  });
});
