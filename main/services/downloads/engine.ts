import fs from 'node:fs';
import path from 'node:path';
import { describeErrorCode } from '../../../common/envelope';
import type { DownloadDataType } from '../../../common/model';
import { apiErrors, isApiError, type ApiError } from '../api/errors';
import type { DownloadResult } from '../api/normalise';
import { placeFile, removeWithPrefix, syncFolder, writeFileFully } from './files';
import { recoverPlacing } from './recovery';
import { matchAnswers } from './matching';
import { fileNameFor, numbered, resolveInside, TEMP_PREFIX } from './names';
import { apiFailure, AuthStop, failure, message, withBatchRetries, writeFailure } from './outcomes';
import { OwnershipLost } from './ownership';
import { ProgressMeter } from './progress';
import type { ItemOutcome, ItemRow, JobRow } from './repository';
import { DEFAULT_ZIP_LIMITS, readZipSafely, writeEntries, ZipRefused } from './zip';

import type { EngineOptions, EngineOutcome } from './engine-options';
export type { DownloadClient, EngineOptions, EngineOutcome } from './engine-options';

const MAX_BATCH = 50;

interface Ready {
  item: ItemRow;
  temp: string;
  bytes: number;
  isDir: boolean;
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
  private readonly opts: Required<Pick<EngineOptions, 'concurrency' | 'batchSize' | 'batchRetries' | 'retryDelayMs' | 'progressIntervalMs' | 'durable'>> &
    EngineOptions;
  private readonly job: JobRow;
  private readonly folder: string;
  /** Names decided in this run and not yet recorded on their item (the store answers for the others); lower case. */
  private readonly reserved = new Set<string>();
  /** Items whose name is recorded (their attempt counted) and whose outcome is not committed yet. */
  private readonly counted = new Set<number>();
  /** Names in the folder when the run started; lower case, since Windows and macOS folders ignore case. */
  private readonly existing = new Set<string>();
  private meter!: ProgressMeter;
  private running: Promise<EngineOutcome> | undefined;
  /** Batches to ask again first (split after a refusal, or one by one after a viewer link). */
  private readonly again: ItemRow[][] = [];
  /** The last seq read from the store: pending items are read a batch at a time, never all at once. */
  private after = -1;
  private drained = false;
  /** Crash recovery and the folder listing: storing a batch waits for it. */
  private ready: Promise<void> = Promise.resolve();
  private prepared = false;
  /** The folder and this job's temporary-name prefix, joined once (a name per item is then one concatenation). */
  private readonly tempPrefix: string;

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
    this.tempPrefix = path.join(this.folder, `${TEMP_PREFIX}${this.job.id.slice(0, 8)}-`);
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
    return `${this.tempPrefix}${seq}${suffix}`;
  }

  private async execute(): Promise<EngineOutcome> {
    const { repo } = this.opts;
    await fs.promises.mkdir(this.folder, { recursive: true });
    // The row's counters are kept by triggers in every transaction that changes an item: nothing to recount.
    this.meter = new ProgressMeter(repo.counts(this.job.id), this.opts.onProgress, this.opts.progressIntervalMs);
    // Crash leftovers are settled while the first calls are in flight; no file is written before.
    this.ready = this.prepare();
    this.ready.catch(() => this.controller.abort());

    let authError: ApiError | undefined;
    const onError = (batch: ItemRow[], error: unknown) => {
      if (error instanceof AuthStop) {
        authError ??= error.error;
        this.controller.abort();
        return;
      }
      // Another process took the job over (this one was thought gone): stop writing at once.
      if (error instanceof OwnershipLost || this.signal.aborted) return this.controller.abort();
      // Anything unexpected (disk full, permission denied…) fails the batch's items with the reason.
      const text = error instanceof Error ? error.message : String(error);
      this.opts.log?.('error', `download batch failed: ${text}`);
      const code = (error as NodeJS.ErrnoException).code ?? 'WriteFailed';
      const reason = message(`Could not save the file: ${text}`, `Không lưu được tệp: ${text}`);
      // An item whose name was recorded has had its attempt counted already.
      this.commit(batch.map((item) => failure(item, code, reason, !this.counted.delete(item.seq))));
    };
    // Calls in flight are bounded by the workers; saving a batch overlaps the next call, with at
    // most `concurrency` batches waiting to be saved (bounded memory).
    const saving = new Set<Promise<void>>();
    const worker = async () => {
      while (!this.signal.aborted && authError === undefined) {
        let batch = this.nextBatch();
        if (!batch && !this.prepared) {
          // Items the recovery sends back to pending may come after the queue ran dry.
          await this.ready.catch(() => {});
          batch = this.nextBatch();
        }
        if (!batch) return;
        let result: Extract<DownloadResult, { kind: 'items' }> | null;
        try {
          result = await this.fetchBatch(batch);
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
      await this.ready.catch(() => {});
      await this.removeTemps();
      this.meter.emit(true);
    }
    await this.ready;
    if (authError) return { kind: 'auth', error: authError };
    if (this.signal.aborted) return { kind: 'stopped' };
    return { kind: 'done' };
  }

  /** The next batch: one to ask again, else the next pending items after the last one read (items in flight stay pending, so never twice). */
  private nextBatch(): ItemRow[] | undefined {
    const again = this.again.shift();
    if (again) return again;
    if (this.drained) return undefined;
    const batch = this.opts.repo.pendingAfter(this.job.id, this.after, this.opts.batchSize);
    if (batch.length === 0) {
      this.drained = true;
      return undefined;
    }
    this.after = batch[batch.length - 1]!.seq;
    return batch;
  }

  /** Settles crash leftovers, lists the folder once (names this job gives are asked of the store), takes the counts again. */
  private async prepare(): Promise<void> {
    try {
      const back = await recoverPlacing({
        repo: this.opts.repo,
        jobId: this.job.id,
        folder: this.folder,
        unzip: this.unzip,
        durable: this.opts.durable,
        tempPath: (seq, suffix) => this.tempPath(seq, suffix),
        // Sent back behind the reading position as it is when they are recorded: asked again from
        // here; those ahead of it are read in turn (judged per page, as the reader moves meanwhile).
        onSentBack: (page) => {
          const behind = page.filter((item) => item.seq <= this.after);
          for (let i = 0; i < behind.length; i += this.opts.batchSize) this.again.push(behind.slice(i, i + this.opts.batchSize));
        },
      });
      if (back.length > 0) this.drained = false;
      for (const name of await this.removeTemps()) this.existing.add(name.toLowerCase());
      Object.assign(this.meter.counts, this.opts.repo.counts(this.job.id));
    } finally {
      this.prepared = true;
    }
  }

  /** Deletes every temporary name of this job in the folder (crash leftovers, aborted writes). */
  private removeTemps(): Promise<string[]> {
    return removeWithPrefix(this.folder, `${TEMP_PREFIX}${this.job.id.slice(0, 8)}-`);
  }

  private place(temp: string, final: string, isDir: boolean, seq: number): Promise<void> {
    // The `.old` name is only used to replace a folder.
    return placeFile(temp, final, isDir, isDir ? this.tempPath(seq, '.old') : '');
  }

  /** Asks the service for one batch; null when the batch was settled or re-queued here. */
  private async fetchBatch(batch: ItemRow[]): Promise<Extract<DownloadResult, { kind: 'items' }> | null> {
    const ids = batch.map((i) => i.transactionId);
    let result: DownloadResult;
    try {
      result = await withBatchRetries(this.signal, this.opts, async () => {
        const r = await this.opts.client.download(ids, { type: this.type, kind: this.job.kind, signal: this.signal });
        // An answer without a single item for a non-empty request is a broken answer: ask again.
        if (r.kind === 'items' && r.items.length === 0) throw apiErrors.malformed('the answer holds no items', { operation: 'download' });
        return r;
      });
    } catch (error) {
      if (error instanceof AuthStop || this.signal.aborted) throw error;
      if (isApiError(error)) {
        // Some deployments refuse a batch size with HTTP 400 or InvoiceQuantityTooLarge, and an
        // answer past the client's ceiling is refused with no service code: halve the batch, down
        // to one ID, so only an invoice that is too large on its own fails (at most 2n-1 calls).
        if (
          batch.length > 1 &&
          error.kind === 'rejected' &&
          (error.serviceCode === 'InvoiceQuantityTooLarge' || error.httpStatus === 400 || !error.serviceCode)
        ) {
          const half = Math.ceil(batch.length / 2);
          this.again.unshift(batch.slice(0, half), batch.slice(half));
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
        this.again.unshift(...batch.map((item) => [item]));
        return null;
      }
      return { kind: 'items', envelopeSuccess: true, items: [{ transactionId: ids[0]!, content: null, errorCode: null, link: result.url }] };
    }
    return result;
  }

  /** Writes one answered batch: temp files (in parallel), names decided and recorded, renames, outcomes committed. */
  private async storeBatch(batch: ItemRow[], result: Extract<DownloadResult, { kind: 'items' }>): Promise<void> {
    await this.ready;
    const matches = matchAnswers(batch, result.items);
    const outcomes: ItemOutcome[] = [];
    const contents: Array<{ item: ItemRow; bytes: Uint8Array | string }> = [];
    for (const item of batch) {
      const match = matches.get(item.seq)!;
      if (!('answer' in match)) {
        outcomes.push(failure(item, match.errorCode, match.text));
        continue;
      }
      const answer = match.answer;
      if (answer.errorCode) {
        const d = describeErrorCode(answer.errorCode);
        outcomes.push(failure(item, answer.errorCode, message(d.en, d.vi)));
        continue;
      }
      let content: Uint8Array | string | null = answer.content;
      if (content === null && answer.link) {
        if (this.signal.aborted) continue; // stays pending
        try {
          const fetched = await withBatchRetries(this.signal, this.opts, () => this.opts.client.fetchBytes(answer.link!, { signal: this.signal }));
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
        outcomes.push(
          failure(item, 'EmptyContent', message('The service returned no content for this invoice.', 'Dịch vụ không trả về nội dung cho hóa đơn này.')),
        );
        continue;
      }
      contents.push({ item, bytes: content });
    }

    const written = await Promise.all(contents.map(({ item, bytes }) => this.writeTemp(item, bytes)));
    const ready: Ready[] = [];
    for (const w of written) {
      if ('temp' in w) ready.push(w);
      else outcomes.push(w);
    }

    // Decide final names (policy for an existing file), record them, then rename.
    const placing: Array<Ready & { final: string; name: string }> = [];
    const used = (name: string) => this.reserved.has(name.toLowerCase()) || this.opts.repo.nameTaken(this.job.id, name);
    const taken = (name: string) => used(name) || this.existing.has(name.toLowerCase());
    for (const r of ready) {
      const base = fileNameFor(r.item.transactionId, this.type, this.unzip);
      let name = base;
      if (used(name)) {
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
      this.reserved.add(name.toLowerCase());
      placing.push({ ...r, name, final: resolveInside(this.folder, name) });
    }
    if (placing.length > 0) {
      try {
        this.opts.repo.record(
          this.job.id,
          // The attempt is counted here: a crash after this point finishes the rename without asking again.
          placing.map((p) => ({ seq: p.item.seq, status: 'placing', file: p.name, bytes: p.bytes, attempt: true })),
        );
        for (const p of placing) this.counted.add(p.item.seq);
      } finally {
        // Recorded (the store answers for them now), or not recorded and never placed.
        for (const p of placing) this.reserved.delete(p.name.toLowerCase());
      }
      await Promise.all(placing.map((p) => this.place(p.temp, p.final, p.isDir, p.item.seq)));
      if (this.opts.durable) await syncFolder(this.folder);
    }
    this.commit([...outcomes, ...placing.map((p): ItemOutcome => ({ seq: p.item.seq, status: 'saved', file: p.name, bytes: p.bytes }))]);
    for (const p of placing) this.counted.delete(p.item.seq);
  }

  /**
   * One item's content under its temporary name (a folder when extracting). Whatever goes wrong
   * with it (a refused or unwritable archive, a failed write) fails this item only, and its
   * temporary file or folder is removed at once.
   */
  private async writeTemp(item: ItemRow, bytes: Uint8Array | string): Promise<Ready | ItemOutcome> {
    const temp = this.tempPath(item.seq);
    try {
      if (!this.unzip) return { item, temp, bytes: await writeFileFully(temp, bytes, this.opts.durable), isDir: false };
      const entries = readZipSafely(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes, this.opts.zipLimits ?? DEFAULT_ZIP_LIMITS);
      await fs.promises.rm(temp, { recursive: true, force: true });
      await fs.promises.mkdir(temp);
      return { item, temp, bytes: await writeEntries(temp, entries), isDir: true };
    } catch (error) {
      await fs.promises.rm(temp, { recursive: true, force: true }).catch(() => {});
      if (!(error instanceof ZipRefused))
        this.opts.log?.('error', `download: could not save item ${item.seq}: ${error instanceof Error ? error.message : String(error)}`);
      return writeFailure(item, error, this.unzip);
    }
  }

  private commit(outcomes: ItemOutcome[]): void {
    if (outcomes.length === 0) return;
    this.opts.repo.record(this.job.id, outcomes);
    const counts = this.meter.counts;
    for (const o of outcomes) {
      counts.pending--;
      if (o.status === 'saved') {
        counts.saved++;
        counts.bytes += o.bytes ?? 0;
      } else if (o.status === 'skipped') counts.skipped++;
      else if (o.status === 'failed') counts.failed++;
    }
    this.meter.sample();
    this.meter.emit(false);
  }
}
