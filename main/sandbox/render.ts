import { zipSync, strToU8 } from 'fflate';
import type { SandboxInvoice } from './data';
import { loadFonts, type LoadedFonts } from './render-fonts';
import { FIXED_DATE, renderPdf } from './render-pdf';
import { renderHtml, renderXml } from './render-text';

export type DownloadDataType = 'Xml' | 'Pdf' | 'Html' | 'All';
export const DOWNLOAD_DATA_TYPES: readonly DownloadDataType[] = ['Xml', 'Pdf', 'Html', 'All'];

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
