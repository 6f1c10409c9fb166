import { createHash } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../../../common/errors';
import type { DownloadDataType } from '../../../common/model';

/** Windows device names: reserved with any extension and in any letter case. */
const RESERVED = /^(con|prn|aux|nul|clock\$|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
/** Separators, characters Windows forbids, and control characters (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g;
/** Invisible/bidi formatting characters that would make a name lie about itself. */
const FORMATTING = /[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** Room left for a `~hash`, ` (12)` and the extension within common 255-byte limits. */
const MAX_STEM_BYTES = 120;

/** The prefix of every temporary name the engine creates inside a target folder. */
export const TEMP_PREFIX = '.einvoice-part-';

export function extensionFor(type: DownloadDataType): string {
  switch (type) {
    case 'Xml':
      return '.xml';
    case 'Pdf':
      return '.pdf';
    case 'Html':
      return '.html';
    case 'All':
      return '.zip';
  }
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

function shortHash(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex').slice(0, 8);
}

/**
 * One safe path component made from untrusted text (a TransactionID, a zip entry's segment):
 * no separators, no control or formatting characters, no `.`/`..`, no leading dot (hidden files,
 * our temp prefix), no trailing dots or spaces (Windows strips them), no device names (CON, NUL,
 * COM1… even with an extension), at most {@link MAX_STEM_BYTES} bytes. When anything had to
 * change, a short hash of the original is appended so two different hostile IDs never end up
 * with the same name. Never empty.
 */
export function safeComponent(raw: string, maxBytes: number = MAX_STEM_BYTES): string {
  let s = raw.normalize('NFC').replace(FORMATTING, '').replace(FORBIDDEN, '_');
  s = s.replace(/^[\s.]+/, (m) => '_'.repeat(Math.min(m.length, 1)));
  s = s.replace(/[\s.]+$/, '');
  const stem = s.split('.')[0] ?? '';
  if (RESERVED.test(stem.trim())) s = `_${s}`;
  if (s === '') s = '_';
  const changed = s !== raw;
  const suffix = changed || Buffer.byteLength(s, 'utf8') > maxBytes ? `~${shortHash(raw)}` : '';
  if (suffix) s = truncateUtf8(s, maxBytes - suffix.length).replace(/[\s.]+$/, '') + suffix;
  return s;
}

/** The file (or, for an extracted zip, folder) name of one invoice: `<safe id><ext>`. */
export function fileNameFor(transactionId: string, type: DownloadDataType, unzip: boolean): string {
  const stem = safeComponent(transactionId);
  return type === 'All' && unzip ? stem : stem + extensionFor(type);
}

/** `name.pdf` → `name (2).pdf`; for a folder name (no extension) `name (2)`. */
export function numbered(name: string, n: number, isDir = false): string {
  if (isDir) return `${name} (${n})`;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

function outsideFolder(folder: string, name: string): AppError {
  return new AppError('download_unsafe_name', {
    en: `Refused to write "${name}": it would land outside the folder ${folder}.`,
    vi: `Từ chối ghi "${name}": tệp sẽ nằm ngoài thư mục ${folder}.`,
  });
}

/**
 * The absolute path of `name` directly inside `folder`, verified: a single component, not `.`/`..`,
 * resolving to a child of the folder. Throws otherwise (defence in depth behind safeComponent).
 */
export function resolveInside(folder: string, name: string): string {
  const base = path.resolve(folder);
  if (!name || name === '.' || name === '..' || name.includes('/') || name.includes('\\') || name.includes('\0')) {
    throw outsideFolder(base, name);
  }
  const full = path.resolve(base, name);
  const rel = path.relative(base, full);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel) || path.dirname(full) !== base) throw outsideFolder(base, name);
  return full;
}
