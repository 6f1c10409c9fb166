import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { LogFile } from '../logging/log-file';

export interface DiagnosticsFacts {
  version: string;
  host: string;
  /** Extra, non-secret facts (database schema version, profile kind, counts…). */
  extra?: () => Record<string, unknown>;
}

/**
 * "Export diagnostics": the logs (redacted once more on the way out, in case a line predates a
 * secret being known) and version facts, zipped into dataDir/diagnostics/. No database, no
 * keychain entry, no settings value that could hold a credential goes in.
 */
export function exportDiagnostics(
  log: LogFile,
  facts: DiagnosticsFacts,
  outDir: string,
  now: () => Date = () => new Date(),
): { path: string; bytes: number; files: string[] } {
  const entries: Record<string, Uint8Array> = {};
  for (const file of log.files()) {
    entries[`logs/${path.basename(file)}`] = strToU8(log.redact(fs.readFileSync(file, 'utf8')));
  }
  const about = {
    app: facts.version,
    host: facts.host,
    node: process.versions.node,
    electron: process.versions.electron ?? null,
    chrome: process.versions.chrome ?? null,
    platform: process.platform,
    release: os.release(),
    arch: process.arch,
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    exportedAt: now().toISOString(),
    ...facts.extra?.(),
  };
  entries['about.json'] = strToU8(log.redact(JSON.stringify(about, null, 2)));
  const zip = zipSync(entries, { level: 6 });
  fs.mkdirSync(outDir, { recursive: true });
  const stamp = now().toISOString().replace(/[:.]/g, '-');
  const target = path.join(outDir, `einvoice-diagnostics-${stamp}.zip`);
  const temp = `${target}.partial`;
  fs.writeFileSync(temp, zip);
  fs.renameSync(temp, target);
  return { path: target, bytes: zip.byteLength, files: Object.keys(entries) };
}
