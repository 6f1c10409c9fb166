import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Bundles the CSV reader thread (main/services/emails/csv-worker.ts) into `dir`, as the app's build does; its path. */
export async function buildCsvWorker(dir: string): Promise<string> {
  const outfile = path.join(dir, 'email-csv.cjs');
  await build({
    entryPoints: [path.join(root, 'main/services/emails/csv-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
