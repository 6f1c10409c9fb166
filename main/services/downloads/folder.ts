import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../../common/errors';

function badFolder(folder: string, why: { en: string; vi: string }): AppError {
  return new AppError('download_folder', {
    en: `The folder "${folder}" cannot be used: ${why.en}`,
    vi: `Không dùng được thư mục "${folder}": ${why.vi}`,
  });
}

/** Checks and creates the target folder of a job; returns its absolute path. */
export async function prepareFolder(folder: string): Promise<string> {
  const trimmed = folder.trim();
  if (!path.isAbsolute(trimmed)) {
    throw badFolder(folder, {
      en: 'type a full path (for example C:\\Invoices or /home/me/invoices).',
      vi: 'hãy nhập đường dẫn đầy đủ (ví dụ C:\\HoaDon hoặc /home/toi/hoadon).',
    });
  }
  const abs = path.resolve(trimmed);
  try {
    await fs.promises.mkdir(abs, { recursive: true });
    const st = await fs.promises.stat(abs);
    if (!st.isDirectory()) throw new Error('not a folder');
    await fs.promises.access(abs, fs.constants.W_OK);
  } catch (error) {
    const detail = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw badFolder(folder, { en: `it is not a writable folder (${detail}).`, vi: `đây không phải thư mục ghi được (${detail}).` });
  }
  return abs;
}
