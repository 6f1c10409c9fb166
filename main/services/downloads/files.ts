import fs from 'node:fs';
import path from 'node:path';

/** File-system steps of saving a download: durable writes, renames into place, folder sync. */

export async function exists(p: string): Promise<boolean> {
  try {
    await fs.promises.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Writes all of `bytes` to `file`, fdatasync'ed when `durable`. */
export async function writeFileFully(file: string, bytes: Uint8Array, durable: boolean): Promise<void> {
  const handle = await fs.promises.open(file, 'w');
  try {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
    if (durable) await handle.datasync();
  } finally {
    await handle.close();
  }
}

/** Renames a finished temp file/folder to its final name, replacing an existing one (a folder via `oldTemp`). */
export async function placeFile(temp: string, final: string, isDir: boolean, oldTemp: string): Promise<void> {
  if (isDir && (await exists(final))) {
    await fs.promises.rm(oldTemp, { recursive: true, force: true });
    await fs.promises.rename(final, oldTemp);
    await fs.promises.rename(temp, final);
    await fs.promises.rm(oldTemp, { recursive: true, force: true });
    return;
  }
  await fs.promises.rename(temp, final);
}

export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await fs.promises.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems refuse to fsync a directory; the files themselves were synced.
  }
}

/**
 * Deletes every entry of `folder` whose name starts with `prefix` (crash leftovers, aborted
 * writes); returns the other names (empty when the folder cannot be read).
 */
export async function removeWithPrefix(folder: string, prefix: string): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(folder);
  } catch {
    return [];
  }
  await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => fs.promises.rm(path.join(folder, n), { recursive: true, force: true })));
  return names.filter((n) => !n.startsWith(prefix));
}

/** Bytes of a file, or of every file under a folder; 0 when it cannot be read. */
export async function sizeOf(p: string): Promise<number> {
  try {
    const st = await fs.promises.stat(p);
    if (!st.isDirectory()) return st.size;
    let total = 0;
    for (const entry of await fs.promises.readdir(p, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) total += (await fs.promises.stat(path.join(entry.parentPath, entry.name))).size;
    }
    return total;
  } catch {
    return 0;
  }
}
