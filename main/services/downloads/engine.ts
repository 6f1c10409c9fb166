import fs from 'node:fs';
import path from 'node:path';
import { describeErrorCode, isAuthCode } from '../../../common/envelope';
import type { Bilingual, DownloadDataType } from '../../../common/model';
import type { DownloadOptions, FetchedBytes } from '../api/client';
import { apiErrors, isApiError, TRANSIENT_KINDS, type ApiError } from '../api/errors';
import type { DownloadResult } from '../api/normalise';
import { fileNameFor, numbered, resolveInside, TEMP_PREFIX } from './names';
import type { ItemOutcome, ItemRow, JobCounts, JobRow, JobsRepository } from './repository';
import { DEFAULT_ZIP_LIMITS, readZipSafely, writeEntries, ZipRefused, type ZipLimits } from './zip';

/** The part of the service client the engine uses (ApiClient satisfies it). */
export interface DownloadClient {
  download(ids: readonly string[], opts?: DownloadOptions): Promise<DownloadResult>;
  fetchBytes(link: string, opts?: { signal?: AbortSignal }): Promise<FetchedBytes>;
}

export interface EngineProgress {
  counts: JobCounts;
  /** Bytes per second over the recent window. */
  rate: number;
  itemsPerSecond: number;
  etaSeconds: number | null;
}

export interface EngineOptions {
  repo: JobsRepository;
  client: DownloadClient;
  job: JobRow;
  /** Download calls in flight at once (default 4). */
  concurrency?: number;
  /** IDs per call (default and maximum 50). */
  batchSize?: number;
  /** Extra rounds for a batch whose call failed transiently after the client's own retries (default 3). */
  batchRetries?: number;
  /** First wait between those rounds (default 1 s, doubling). */
  retryDelayMs?: number;
  zipLimits?: ZipLimits;
  /** Called at most every `progressIntervalMs` (default 100 ms) and once at the end. */
  onProgress?: (progress: EngineProgress) => void;
  progressIntervalMs?: number;
  /** fsync files and the folder (default true; tests of other things may turn it off). */
  durable?: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export type EngineOutcome =
  | { kind: 'done' }
  | { kind: 'stopped' }
  /** The service refused the sign-in: the job waits for a new token. */
  | { kind: 'auth'; error: ApiError };

interface Ready {
  item: ItemRow;
  temp: string;
  bytes: number;
  isDir: boolean;
}

class AuthStop extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

const MAX_BATCH = 50;

/** Worth another round: the kinds the client retries (a broken answer included), but not a 404/501. */
function transient(error: ApiError): boolean {
  if (!TRANSIENT_KINDS.has(error.kind)) return false;
  return !(error.kind === 'unavailable' && (error.httpStatus === 404 || error.httpStatus === 501));
}

function message(en: string, vi: string): Bilingual {
  return { en, vi };
}

function failure(item: ItemRow, errorCode: string, text: Bilingual, attempt = true): ItemOutcome {
  return { seq: item.seq, status: 'failed', errorCode, message: text, attempt };
}

function apiFailure(item: ItemRow, error: ApiError): ItemOutcome {
  const code = error.serviceCode ?? `api.${error.kind}`;
  return failure(item, code, message(error.message, error.messageVi));
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.promises.lstat(p);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs one download job to the end (or until stopped): batches of at most 50 IDs, a bounded
 * number of calls in flight, every file written under a temporary name in the target folder,
 * fsynced, recorded as `placing` with its final name, renamed, then recorded as `saved` — so a
 * half-written file never carries a final name and a restart never fetches a saved item again.
 * Outcomes are committed once per batch.
 */
export class DownloadEngine {
  private readonly controller = new AbortController();
  private readonly opts: Required<Pick<EngineOptions, 'concurrency' | 'batchSize' | 'batchRetries' | 'retryDelayMs' | 'progressIntervalMs' | 'durable'>> & EngineOptions;
  private readonly job: JobRow;
  private readonly folder: string;
  private readonly used = new Set<string>();
  /** Names present in the folder (listed at start, plus what this run placed); lower case, since Windows and macOS folders ignore case. */
  private readonly existing = new Set<string>();
  private counts!: JobCounts;
  private readonly samples: Array<{ t: number; bytes: number; done: number }> = [];
  private lastEmit = 0;
  private emitTimer: NodeJS.Timeout | undefined;
  private running: Promise<EngineOutcome> | undefined;

  constructor(options: EngineOptions) {
    this.opts = {
      concurrency: 4,
      batchSize: MAX_BATCH,
      batchRetries: 3,
      retryDelayMs: 1_000,
      progressIntervalMs: 100,
      durable: true,
      ...options,
    };
    this.opts.batchSize = Math.max(1, Math.min(MAX_BATCH, Math.trunc(this.opts.batchSize)));
    this.opts.concurrency = Math.max(1, Math.min(16, Math.trunc(this.opts.concurrency)));
    this.job = options.job;
    this.folder = path.resolve(options.job.folder);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops taking new work and aborts calls in flight; items not finished stay pending. */
  stop(): void {
    this.controller.abort();
  }

  run(): Promise<EngineOutcome> {
    this.running ??= this.execute();
    return this.running;
  }

  private get type(): DownloadDataType {
    return this.job.type;
  }

  private get unzip(): boolean {
    return this.job.type === 'All' && this.job.unzip;
  }

  private tempPath(seq: number, suffix = ''): string {
    return path.join(this.folder, `${TEMP_PREFIX}${this.job.id.slice(0, 8)}-${seq}${suffix}`);
  }

  private async execute(): Promise<EngineOutcome> {
    const { repo } = this.opts;
    await fs.promises.mkdir(this.folder, { recursive: true });
    await this.recoverPlacing();
    await this.removeTemps();
    for (const name of repo.usedNames(this.job.id)) this.used.add(name.toLowerCase());
    // One listing of the folder up front; names this job creates are tracked in `used`.
    for (const name of await fs.promises.readdir(this.folder)) this.existing.add(name.toLowerCase());
    this.counts = repo.counts(this.job.id);
    this.sample();

    const queue: ItemRow[][] = [];
    const pending = repo.itemsWithStatus(this.job.id, 'pending');
    for (let i = 0; i < pending.length; i += this.opts.batchSize) queue.push(pending.slice(i, i + this.opts.batchSize));

    let authError: ApiError | undefined;
    const onError = (batch: ItemRow[], error: unknown) => {
      if (error instanceof AuthStop) {
        authError ??= error.error;
        this.controller.abort();
        return;
      }
      if (this.signal.aborted) return;
      // Anything unexpected (disk full, permission denied…) fails the batch's items with the reason.
      const text = error instanceof Error ? error.message : String(error);
      this.opts.log?.('error', `download batch failed: ${text}`);
      this.commit(
        batch.map((item) => failure(item, (error as NodeJS.ErrnoException).code ?? 'WriteFailed', message(`Could not save the file: ${text}`, `Không lưu được tệp: ${text}`))),
      );
    };
    // Calls in flight are bounded by the workers; saving a batch overlaps the next call, with at
    // most `concurrency` batches waiting to be saved (bounded memory).
    const saving = new Set<Promise<void>>();
    const worker = async () => {
      while (!this.signal.aborted && authError === undefined) {
        const batch = queue.shift();
        if (!batch) return;
        let result: Extract<DownloadResult, { kind: 'items' }> | null;
        try {
          result = await this.fetchBatch(batch, queue);
        } catch (error) {
          onError(batch, error);
          continue;
        }
        if (!result) continue;
        const answer = result;
        const job = this.storeBatch(batch, answer)
          .catch((error: unknown) => onError(batch, error))
          .finally(() => saving.delete(job));
        saving.add(job);
        while (saving.size >= this.opts.concurrency) await Promise.race(saving);
      }
    };
    try {
      await Promise.all(Array.from({ length: this.opts.concurrency }, () => worker()));
      while (saving.size > 0) await Promise.race(saving);
    } finally {
      await this.removeTemps();
      this.emit(true);
    }
    if (authError) return { kind: 'auth', error: authError };
    if (this.signal.aborted) return { kind: 'stopped' };
    return { kind: 'done' };
  }

  /** After a crash: finish renames that were decided, or send the item back to pending. */
  private async recoverPlacing(): Promise<void> {
    const placing = this.opts.repo.itemsWithStatus(this.job.id, 'placing');
    if (placing.length === 0) return;
    const outcomes: ItemOutcome[] = [];
    for (const item of placing) {
      const temp = this.tempPath(item.seq);
      let final: string | null;
      try {
        final = item.file ? resolveInside(this.folder, item.file) : null;
      } catch {
        final = null;
      }
      if (final && (await exists(temp))) {
        await this.place(temp, final, this.unzip, item.seq);
        outcomes.push({ seq: item.seq, status: 'saved', file: item.file, bytes: await sizeOf(final) });
      } else if (final && (await exists(final))) {
        outcomes.push({ seq: item.seq, status: 'saved', file: item.file, bytes: await sizeOf(final) });
      } else {
        outcomes.push({ seq: item.seq, status: 'pending' });
      }
    }
    if (this.opts.durable) await this.syncFolder();
    this.opts.repo.record(this.job.id, outcomes);
  }

  /** Deletes every temporary name of this job in the folder (crash leftovers, aborted writes). */
  private async removeTemps(): Promise<void> {
    const prefix = `${TEMP_PREFIX}${this.job.id.slice(0, 8)}-`;
    let names: string[];
    try {
      names = await fs.promises.readdir(this.folder);
    } catch {
      return;
    }
    await Promise.all(names.filter((n) => n.startsWith(prefix)).map((n) => fs.promises.rm(path.join(this.folder, n), { recursive: true, force: true })));
  }

  private async callWithRetries<T>(fn: () => Promise<T>): Promise<T> {
    for (let round = 0; ; round++) {
      try {
        return await fn();
      } catch (error) {
        if (!isApiError(error)) throw error;
        if (error.kind === 'auth' || (error.serviceCode && isAuthCode(error.serviceCode))) throw new AuthStop(error);
        if (this.signal.aborted || !transient(error) || round >= this.opts.batchRetries) throw error;
        const wait = Math.max(error.retryAfterMs ?? 0, this.opts.retryDelayMs * 2 ** round);
        this.opts.log?.('warn', `download: ${error.kind}, round ${round + 1}/${this.opts.batchRetries} in ${wait} ms`);
        await sleep(wait, this.signal);
        if (this.signal.aborted) throw error;
      }
    }
  }

  /** Asks the service for one batch; null when the batch was settled or re-queued here. */
  private async fetchBatch(batch: ItemRow[], queue: ItemRow[][]): Promise<Extract<DownloadResult, { kind: 'items' }> | null> {
    const ids = batch.map((i) => i.transactionId);
    let result: DownloadResult;
    try {
      result = await this.callWithRetries(async () => {
        const r = await this.opts.client.download(ids, { type: this.type, kind: this.job.kind, signal: this.signal });
        // An answer without a single item for a non-empty request is a broken answer: ask again.
        if (r.kind === 'items' && r.items.length === 0) throw apiErrors.malformed('the answer holds no items', { operation: 'download' });
        return r;
      });
    } catch (error) {
      if (error instanceof AuthStop || this.signal.aborted) throw error;
      if (isApiError(error)) {
        // Some deployments refuse a batch size with HTTP 400 or InvoiceQuantityTooLarge: halve it.
        if (batch.length > 1 && error.kind === 'rejected' && (error.serviceCode === 'InvoiceQuantityTooLarge' || error.httpStatus === 400)) {
          const half = Math.ceil(batch.length / 2);
          queue.unshift(batch.slice(0, half), batch.slice(half));
          return null;
        }
        this.commit(batch.map((item) => apiFailure(item, error)));
        return null;
      }
      throw error;
    }
    if (result.kind === 'link') {
      // One viewer link for the whole call: only unambiguous for a single ID, so ask one by one.
      if (batch.length > 1) {
        queue.unshift(...batch.map((item) => [item]));
        return null;
      }
      return { kind: 'items', envelopeSuccess: true, items: [{ transactionId: ids[0]!, content: null, errorCode: null, link: result.url }] };
    }
    return result;
  }

  /** Writes one answered batch: temp files (in parallel), names decided and recorded, renames, outcomes committed. */
  private async storeBatch(batch: ItemRow[], result: Extract<DownloadResult, { kind: 'items' }>): Promise<void> {
    const byId = new Map<string, (typeof result.items)[number]>();
    for (const it of result.items) if (!byId.has(it.transactionId)) byId.set(it.transactionId, it);
    // Some deployments change the case of IDs: fall back to a case-insensitive match.
    const byLower = new Map<string, (typeof result.items)[number]>();
    for (const it of result.items) if (!byLower.has(it.transactionId.toLowerCase())) byLower.set(it.transactionId.toLowerCase(), it);

    const outcomes: ItemOutcome[] = [];
    const contents: Array<{ item: ItemRow; bytes: Uint8Array }> = [];
    for (const item of batch) {
      const answer = byId.get(item.transactionId) ?? byLower.get(item.transactionId.toLowerCase());
      if (!answer) {
        outcomes.push(failure(item, 'NotReturned', message('The service did not return this invoice in its answer.', 'Dịch vụ không trả về hóa đơn này trong kết quả.')));
        continue;
      }
      if (answer.errorCode) {
        const d = describeErrorCode(answer.errorCode);
        outcomes.push(failure(item, answer.errorCode, message(d.en, d.vi)));
        continue;
      }
      let content: Uint8Array | string | null = answer.content;
      if (content === null && answer.link) {
        if (this.signal.aborted) continue; // stays pending
        try {
          const fetched = await this.callWithRetries(() => this.opts.client.fetchBytes(answer.link!, { signal: this.signal }));
          content = fetched.bytes;
        } catch (error) {
          if (error instanceof AuthStop) throw error;
          if (this.signal.aborted) continue;
          if (isApiError(error)) {
            outcomes.push(apiFailure(item, error));
            continue;
          }
          throw error;
        }
      }
      if (content === null || content.length === 0) {
        outcomes.push(failure(item, 'EmptyContent', message('The service returned no content for this invoice.', 'Dịch vụ không trả về nội dung cho hóa đơn này.')));
        continue;
      }
      contents.push({ item, bytes: typeof content === 'string' ? Buffer.from(content, 'utf8') : content });
    }

    const written = await Promise.all(
      contents.map(async ({ item, bytes }): Promise<Ready | ItemOutcome> => {
        const temp = this.tempPath(item.seq);
        if (!this.unzip) {
          await this.writeFile(temp, bytes);
          return { item, temp, bytes: bytes.length, isDir: false };
        }
        let entries;
        try {
          entries = readZipSafely(bytes, this.opts.zipLimits ?? DEFAULT_ZIP_LIMITS);
        } catch (error) {
          if (error instanceof ZipRefused) return failure(item, error.code, message(error.en, error.vi));
          throw error;
        }
        await fs.promises.rm(temp, { recursive: true, force: true });
        await fs.promises.mkdir(temp);
        return { item, temp, bytes: await writeEntries(temp, entries), isDir: true };
      }),
    );
    const ready: Ready[] = [];
    for (const w of written) {
      if ('temp' in w) ready.push(w);
      else outcomes.push(w);
    }

    // Decide final names (policy for an existing file), record them, then rename.
    const placing: Array<Ready & { final: string; name: string }> = [];
    const taken = (name: string) => this.used.has(name.toLowerCase()) || this.existing.has(name.toLowerCase());
    for (const r of ready) {
      const base = fileNameFor(r.item.transactionId, this.type, this.unzip);
      let name = base;
      if (this.used.has(name.toLowerCase())) {
        // Another ID of this job already has this name (IDs differing only in letter case).
        for (let n = 2; taken(name); n++) name = numbered(base, n, r.isDir);
      } else if (this.existing.has(name.toLowerCase())) {
        if (this.job.existing === 'skip') {
          await fs.promises.rm(r.temp, { recursive: true, force: true });
          outcomes.push({ seq: r.item.seq, status: 'skipped', file: name, bytes: 0, attempt: true });
          continue;
        }
        if (this.job.existing === 'keepBoth') {
          for (let n = 2; taken(name); n++) name = numbered(base, n, r.isDir);
        }
      }
      this.used.add(name.toLowerCase());
      placing.push({ ...r, name, final: resolveInside(this.folder, name) });
    }
    if (placing.length > 0) {
      this.opts.repo.record(
        this.job.id,
        placing.map((p) => ({ seq: p.item.seq, status: 'placing', file: p.name, bytes: p.bytes })),
      );
      await Promise.all(placing.map((p) => this.place(p.temp, p.final, p.isDir, p.item.seq)));
      for (const p of placing) this.existing.add(p.name.toLowerCase());
      if (this.opts.durable) await this.syncFolder();
    }
    this.commit([...outcomes, ...placing.map((p): ItemOutcome => ({ seq: p.item.seq, status: 'saved', file: p.name, bytes: p.bytes, attempt: true }))]);
  }

  private async writeFile(file: string, bytes: Uint8Array): Promise<void> {
    const handle = await fs.promises.open(file, 'w');
    try {
      let offset = 0;
      while (offset < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
        offset += bytesWritten;
      }
      if (this.opts.durable) await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** Renames a finished temp file/folder to its final name (replacing an existing one). */
  private async place(temp: string, final: string, isDir: boolean, seq: number): Promise<void> {
    if (!isDir) {
      await fs.promises.rename(temp, final);
      return;
    }
    if (await exists(final)) {
      const old = this.tempPath(seq, '.old');
      await fs.promises.rm(old, { recursive: true, force: true });
      await fs.promises.rename(final, old);
      await fs.promises.rename(temp, final);
      await fs.promises.rm(old, { recursive: true, force: true });
      return;
    }
    await fs.promises.rename(temp, final);
  }

  private async syncFolder(): Promise<void> {
    if (process.platform === 'win32') return;
    try {
      const handle = await fs.promises.open(this.folder, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    } catch {
      // Some file systems refuse to fsync a directory; the files themselves were synced.
    }
  }

  private commit(outcomes: ItemOutcome[]): void {
    if (outcomes.length === 0) return;
    this.opts.repo.record(this.job.id, outcomes);
    for (const o of outcomes) {
      this.counts.pending--;
      if (o.status === 'saved') {
        this.counts.saved++;
        this.counts.bytes += o.bytes ?? 0;
      } else if (o.status === 'skipped') this.counts.skipped++;
      else if (o.status === 'failed') this.counts.failed++;
    }
    this.sample();
    this.emit(false);
  }

  private sample(): void {
    const t = performance.now();
    this.samples.push({ t, bytes: this.counts.bytes, done: this.counts.saved + this.counts.skipped + this.counts.failed });
    while (this.samples.length > 2 && t - this.samples[0]!.t > 5_000) this.samples.shift();
  }

  /** The current counts, rate and time left. */
  progress(): EngineProgress {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    let rate = 0;
    let itemsPerSecond = 0;
    if (first && last && last.t - first.t > 50) {
      const secs = (last.t - first.t) / 1000;
      rate = Math.max(0, (last.bytes - first.bytes) / secs);
      itemsPerSecond = Math.max(0, (last.done - first.done) / secs);
    }
    const left = this.counts.pending + this.counts.placing;
    const etaSeconds = left === 0 ? 0 : itemsPerSecond > 0 ? left / itemsPerSecond : null;
    return { counts: { ...this.counts }, rate, itemsPerSecond, etaSeconds };
  }

  private emit(force: boolean): void {
    const cb = this.opts.onProgress;
    if (!cb) return;
    const now = performance.now();
    if (force || now - this.lastEmit >= this.opts.progressIntervalMs) {
      if (this.emitTimer) clearTimeout(this.emitTimer);
      this.emitTimer = undefined;
      this.lastEmit = now;
      cb(this.progress());
      return;
    }
    // Throttled: make sure the latest counts still go out shortly.
    this.emitTimer ??= setTimeout(() => {
      this.emitTimer = undefined;
      this.lastEmit = performance.now();
      cb(this.progress());
    }, this.opts.progressIntervalMs - (now - this.lastEmit));
  }
}

async function sizeOf(p: string): Promise<number> {
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
