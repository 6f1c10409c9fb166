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

/** One callback-style fs call as a promise (lighter per call than fs.promises: no FileHandle, no stats buffers). */
function call<T>(fn: (done: (error: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value))));
}

/**
 * Writes all of `content` (text as UTF-8) to `file`, fdatasync'ed when `durable`; returns the
 * bytes written. Text goes to the write call as it is: no Buffer per file waiting for a GC. The
 * steps (open, write, sync, close) chain their callbacks: one promise per file, not one per step.
 */
export function writeFileFully(file: string, content: Uint8Array | string, durable: boolean): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let fd = -1;
    let bytes = typeof content === 'string' ? null : content;
    let total = 0;
    let offset = 0;
    let failure: NodeJS.ErrnoException | null = null;
    const close = (error: NodeJS.ErrnoException | null) => {
      failure = error;
      fs.close(fd, (closeError) => {
        const e = failure ?? closeError;
        if (e) reject(e);
        else resolve(total);
      });
    };
    const wrote = (error: NodeJS.ErrnoException | null, written: number) => {
      if (error) return close(error);
      offset += written;
      if (offset < total) {
        // A short write (rare): the rest goes as bytes.
        bytes ??= Buffer.from(content as string, 'utf8');
        return fs.write(fd, bytes, offset, total - offset, null, wrote);
      }
      if (durable) fs.fdatasync(fd, close);
      else close(null);
    };
    fs.open(file, 'w', (error, opened) => {
      if (error) return reject(error);
      fd = opened;
      try {
        total = bytes ? bytes.length : Buffer.byteLength(content as string, 'utf8');
        if (bytes) fs.write(fd, bytes, 0, total, null, wrote);
        else fs.write(fd, content as string, null, 'utf8', wrote);
      } catch (thrown) {
        close(thrown as NodeJS.ErrnoException);
      }
    });
  });
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
  await call<void>((done) => fs.rename(temp, final, done));
}

export async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const fd = await call<number>((done) => fs.open(folder, 'r', done));
    try {
      await call<void>((done) => fs.fsync(fd, done));
    } finally {
      await call<void>((done) => fs.close(fd, done));
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
