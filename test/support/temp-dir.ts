import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A fresh folder under the system temp dir, removed by the returned cleanup. */
export function makeTempDir(prefix = 'einvoice-test-'): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
