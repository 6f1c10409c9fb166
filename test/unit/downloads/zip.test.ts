import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readZipSafely, safeEntryParts, writeEntries, ZipRefused } from '../../../main/services/downloads/zip';
import { makeTempDir } from '../../support/temp-dir';

const enc = (s: string) => new TextEncoder().encode(s);

/** A zip whose entry names are written raw (fflate would keep them as given too). */
function zipWith(entries: Record<string, Uint8Array>, level: 0 | 9 = 9): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, [v, { level }]])) as never);
}

describe('safe zip extraction', () => {
  it('extracts an ordinary invoice zip byte for byte', async () => {
    const xml = enc('<HDon>é</HDon>');
    const pdf = new Uint8Array(5000).map((_, i) => i % 251);
    const entries = readZipSafely(zipWith({ 'X1.xml': xml, 'X1.pdf': pdf }));
    const tmp = makeTempDir('einvoice-zip-');
    try {
      await writeEntries(tmp.dir, entries);
      expect(fs.readFileSync(path.join(tmp.dir, 'X1.xml'))).toEqual(Buffer.from(xml));
      expect(fs.readFileSync(path.join(tmp.dir, 'X1.pdf'))).toEqual(Buffer.from(pdf));
    } finally {
      tmp.cleanup();
    }
  });

  it.each(['../evil.txt', 'a/../../evil.txt', '/etc/evil', 'C:/evil', '..\\evil.txt', 'ok/..'])('refuses an escaping entry %j', (name) => {
    const zip = zipWith({ 'ok.xml': enc('x'), [name]: enc('boom') });
    expect(() => readZipSafely(zip)).toThrow(ZipRefused);
    try {
      readZipSafely(zip);
    } catch (e) {
      expect((e as ZipRefused).code).toBe('UnsafeZipEntry');
    }
  });

  it('makes odd but harmless entry names safe', () => {
    expect(safeEntryParts('sub/CON.xml')).toEqual(['sub', expect.stringMatching(/^_CON\.xml~/)]);
    expect(safeEntryParts('./a.xml')).toEqual(['a.xml']);
    expect(safeEntryParts('../a')).toBeNull();
  });

  it('stops a zip bomb at the size limit without inflating it all', () => {
    const big = new Uint8Array(64 * 1024 * 1024); // 64 MB of zeros → ~64 KB deflated
    const zip = zipWith({ 'bomb.bin': big });
    expect(zip.length).toBeLessThan(200 * 1024);
    let error: unknown;
    try {
      readZipSafely(zip, { maxTotalBytes: 8 * 1024 * 1024, maxEntries: 100 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZipRefused);
    expect((error as ZipRefused).code).toBe('ZipTooLarge');
    // It stopped within one input slice's worth of output past the limit, far from all 64 MB.
    // (A heap measurement here would count uncollected garbage and depends on GC timing.)
    const inflated = (error as ZipRefused).inflatedBytes ?? Number.POSITIVE_INFINITY;
    expect(inflated).toBeGreaterThan(8 * 1024 * 1024);
    expect(inflated).toBeLessThan(8 * 1024 * 1024 + 20 * 1024 * 1024);
  });

  it('limits the number of entries and refuses garbage', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) many[`f${i}`] = enc('x');
    expect(() => readZipSafely(zipWith(many), { maxTotalBytes: 1e6, maxEntries: 10 })).toThrow(/more than 10 entries/);
    expect(() => readZipSafely(enc('not a zip at all'))).toThrow(ZipRefused);
  });
});
