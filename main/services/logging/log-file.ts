import fs from 'node:fs';
import path from 'node:path';
import { redact } from '../api/redact';

export type LogLevel = 'info' | 'warn' | 'error';
export type Log = (level: LogLevel, message: string) => void;

export interface LogFileOptions {
  /** The folder the log lives in (dataDir/logs). */
  dir: string;
  fileName?: string;
  /** Rotate once the current file would pass this size. */
  maxBytes?: number;
  /** How many rotated files to keep (einvoice.1.log … einvoice.N.log). */
  keep?: number;
  now?: () => Date;
}

/**
 * A rotating log in the data folder. Every line is redacted before it is written (tokens,
 * passwords, email addresses, and any secret handed to `remember`), so a log file or a
 * diagnostics export never carries a credential. Appends are synchronous: a line is on disk
 * before the call returns, so the last words before a crash are kept.
 */
export class LogFile {
  readonly dir: string;
  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly now: () => Date;
  private readonly secrets = new Set<string>();
  private size: number;

  constructor(options: LogFileOptions) {
    this.dir = options.dir;
    this.file = path.join(options.dir, options.fileName ?? 'einvoice.log');
    this.maxBytes = options.maxBytes ?? 1024 * 1024;
    this.keep = options.keep ?? 5;
    this.now = options.now ?? (() => new Date());
    fs.mkdirSync(this.dir, { recursive: true });
    this.size = fs.existsSync(this.file) ? fs.statSync(this.file).size : 0;
  }

  /** A secret of this run (a pasted token, a password) that must never appear in a line. */
  remember(secret: string | undefined | null): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }

  redact(text: string): string {
    return redact(text, [...this.secrets]);
  }

  readonly write: Log = (level, message) => {
    const line = `${this.now().toISOString()} ${level.toUpperCase()} ${this.redact(message).replace(/\r?\n/g, ' ⏎ ')}\n`;
    const bytes = Buffer.byteLength(line);
    try {
      if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
      fs.appendFileSync(this.file, line);
      this.size += bytes;
    } catch {
      // A full disk or a locked file must never take the app down with it.
    }
  };

  /** The current and rotated files, newest first. */
  files(): string[] {
    const rotated = Array.from({ length: this.keep }, (_, i) => this.rotated(i + 1));
    return [this.file, ...rotated].filter((f) => fs.existsSync(f));
  }

  private rotated(index: number): string {
    const ext = path.extname(this.file);
    return path.join(this.dir, `${path.basename(this.file, ext)}.${index}${ext}`);
  }

  private rotate(): void {
    fs.rmSync(this.rotated(this.keep), { force: true });
    for (let i = this.keep - 1; i >= 1; i--) {
      if (fs.existsSync(this.rotated(i))) fs.renameSync(this.rotated(i), this.rotated(i + 1));
    }
    fs.renameSync(this.file, this.rotated(1));
    this.size = 0;
  }
}
