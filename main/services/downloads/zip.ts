import fs from 'node:fs';
import path from 'node:path';
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { safeComponent } from './names';

export interface ZipLimits {
  /** Stop once the entries would inflate beyond this many bytes in total (default 100 MB). */
  maxTotalBytes: number;
  /** At most this many entries (default 1 000). */
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxTotalBytes: 100 * 1024 * 1024, maxEntries: 1_000 };

type ZipProblem = 'UnsafeZipEntry' | 'ZipTooLarge' | 'ZipUnreadable';

export class ZipRefused extends Error {
  constructor(
    readonly code: ZipProblem,
    readonly en: string,
    readonly vi: string,
    /** For ZipTooLarge: how much was inflated before extraction stopped. */
    readonly inflatedBytes?: number,
  ) {
    super(en);
    this.name = 'ZipRefused';
  }
}

interface ZipEntry {
  /** Safe path components, relative to the extraction folder. */
  parts: string[];
  data: Uint8Array;
}

/**
 * Checks one entry name: `..`, absolute paths, drive letters and empty names are refused (null);
 * otherwise each component is made safe with {@link safeComponent}.
 */
export function safeEntryParts(name: string): string[] | null {
  const n = name.replace(/\\/g, '/');
  if (n.startsWith('/') || /^[a-zA-Z]:/.test(n) || n.includes('\0')) return null;
  const raw = n.split('/').filter((p) => p !== '' && p !== '.');
  if (raw.length === 0 || raw.some((p) => p === '..' || /^\.\.+$/.test(p.trim()))) return null;
  return raw.map((p) => safeComponent(p));
}

const SLICE = 16 * 1024;

/**
 * Reads a zip held in memory with a streaming inflater fed in small slices, so a zip bomb is
 * stopped after at most one slice's worth of output past the limit instead of filling memory.
 * Refuses the whole archive when any entry would escape the folder.
 */
export function readZipSafely(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let total = 0;
  let failure: ZipRefused | null = null;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  unzip.onfile = (file) => {
    if (failure) return;
    if (file.name.endsWith('/') || file.name.endsWith('\\')) return; // a folder entry
    const parts = safeEntryParts(file.name);
    if (!parts) {
      failure = new ZipRefused(
        'UnsafeZipEntry',
        `The archive holds an entry that would escape the folder (${JSON.stringify(file.name.slice(0, 80))}); nothing was extracted.`,
        `Tệp nén chứa mục sẽ ghi ra ngoài thư mục (${JSON.stringify(file.name.slice(0, 80))}); không giải nén gì.`,
      );
      return;
    }
    if (entries.length + 1 > limits.maxEntries) {
      failure = new ZipRefused('ZipTooLarge', `The archive has more than ${limits.maxEntries} entries.`, `Tệp nén có hơn ${limits.maxEntries} mục.`);
      return;
    }
    const chunks: Uint8Array[] = [];
    file.ondata = (err, chunk, final) => {
      if (failure) return;
      if (err) {
        failure = new ZipRefused('ZipUnreadable', `The archive is damaged (${err.message}).`, `Tệp nén bị hỏng (${err.message}).`);
        return;
      }
      total += chunk.length;
      if (total > limits.maxTotalBytes) {
        failure = new ZipRefused(
          'ZipTooLarge',
          `The archive would unpack to more than ${Math.round(limits.maxTotalBytes / 1048576)} MB; extraction stopped.`,
          `Tệp nén giải ra sẽ lớn hơn ${Math.round(limits.maxTotalBytes / 1048576)} MB; đã dừng giải nén.`,
          total,
        );
        file.terminate();
        return;
      }
      if (chunk.length > 0) chunks.push(chunk.slice());
      if (final) entries.push({ parts, data: concat(chunks) });
    };
    try {
      file.start();
    } catch (error) {
      failure = new ZipRefused(
        'ZipUnreadable',
        `The archive uses an unsupported format (${error instanceof Error ? error.message : String(error)}).`,
        `Tệp nén dùng định dạng không hỗ trợ.`,
      );
    }
  };
  try {
    for (let offset = 0; offset < bytes.length && !failure; offset += SLICE) {
      const end = Math.min(bytes.length, offset + SLICE);
      unzip.push(bytes.subarray(offset, end), end >= bytes.length);
    }
    if (bytes.length === 0) unzip.push(new Uint8Array(0), true);
  } catch (error) {
    if (!failure) {
      failure = new ZipRefused('ZipUnreadable', `The archive is damaged (${error instanceof Error ? error.message : String(error)}).`, 'Tệp nén bị hỏng.');
    }
  }
  if (failure) throw failure;
  if (entries.length === 0) throw new ZipRefused('ZipUnreadable', 'The archive holds no files.', 'Tệp nén không có tệp nào.');
  return entries;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * Writes checked entries under `dir` (which must exist), each path verified to stay inside it.
 * Two entries mapping to one path: the later one gets a numbered name. Files are fsynced.
 */
export async function writeEntries(dir: string, entries: readonly ZipEntry[]): Promise<number> {
  const root = path.resolve(dir);
  let bytes = 0;
  const used = new Set<string>();
  for (const entry of entries) {
    let rel = path.join(...entry.parts);
    for (let n = 2; used.has(rel.toLowerCase()); n++) rel = path.join(...entry.parts.slice(0, -1), `${n}-${entry.parts[entry.parts.length - 1]}`);
    used.add(rel.toLowerCase());
    const full = path.resolve(root, rel);
    const check = path.relative(root, full);
    if (!check || check.startsWith('..') || path.isAbsolute(check))
      throw new ZipRefused('UnsafeZipEntry', 'An entry would escape the folder.', 'Một mục sẽ ghi ra ngoài thư mục.');
    await fs.promises.mkdir(path.dirname(full), { recursive: true });
    const handle = await fs.promises.open(full, 'wx');
    try {
      await handle.writeFile(entry.data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    bytes += entry.data.length;
  }
  return bytes;
}
