import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { InvoiceKind } from '../../../common/model';
import { CSV_CHUNK, readEmailCsv, type CsvReadEnd, type EncodedRows } from './csv';
import type { Log } from '../logging/log-file';
import type { CsvJob, CsvWorkerMessage } from './csv-worker';

/** The first chunk of a file read on the thread is small, so the database starts at once. */
export const FIRST_CHUNK = 2_000;
/** An idle reader thread is ended after this long (a second import soon after finds it warm). */
const KEEP_IDLE_MS = 60_000;

interface Job {
  onRows: (rows: EncodedRows) => void;
  /** Reads the file on this thread instead (the thread could not start; nothing was taken from it). */
  fallback: () => void;
  counter: Int32Array;
  resolve: (end: CsvReadEnd) => void;
  reject: (error: unknown) => void;
}

/**
 * Reads email CSVs and hands their good rows on in chunks, as readEmailCsv does. With `script` (the
 * built csv-worker) the reading and checking run on a thread of their own while `onRows` (the
 * database) works on the chunk before, so an import takes about the longer of the two instead of
 * their sum; the reader stays at most two chunks ahead, so no more than three are held. Without it,
 * or if the thread cannot start, everything runs on this thread. One file at a time; the thread
 * stays for a minute after a file (a second import finds it warm), then ends.
 */
export class CsvReader {
  private worker: Worker | null = null;
  private onThread = false;
  private closed = false;
  private job: Job | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private script: string | null,
    private readonly log?: Log,
  ) {}

  /** Did the last file's rows come from the thread? */
  get threaded(): boolean {
    return this.onThread;
  }

  read(text: string, kind: InvoiceKind, onRows: (rows: EncodedRows) => void, chunk = CSV_CHUNK): Promise<CsvReadEnd> {
    const run = this.queue.then(() => this.readOne(text, kind, onRows, chunk));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Ends the thread and refuses further files (at shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.endThread();
  }

  private async endThread(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = null;
    this.job?.reject(new Error('The CSV reader was closed before the end of the file.'));
    await worker?.terminate();
  }

  private readOne(text: string, kind: InvoiceKind, onRows: (rows: EncodedRows) => void, chunk: number): Promise<CsvReadEnd> | CsvReadEnd {
    if (this.closed) throw new Error('The CSV reader is closed.');
    const worker = this.thread();
    const inline = () => {
      this.onThread = false;
      return readEmailCsv(text, kind, onRows, chunk);
    };
    if (!worker) return inline();
    this.onThread = true;
    clearTimeout(this.idle);
    worker.ref();
    const taken = new SharedArrayBuffer(4);
    return new Promise<CsvReadEnd>((resolve, reject) => {
      const fallback = () => {
        try {
          resolve(inline());
        } catch (error) {
          reject(error);
        }
      };
      this.job = { onRows, fallback, counter: new Int32Array(taken), resolve, reject };
      const job: CsvJob = { text, kind, chunk, first: Math.min(FIRST_CHUNK, chunk), taken };
      worker.postMessage(job);
    }).finally(() => {
      this.job = null;
      if (this.worker !== worker) return;
      worker.unref();
      this.idle = setTimeout(() => void this.endThread(), KEEP_IDLE_MS);
      this.idle.unref();
    });
  }

  private thread(): Worker | null {
    if (this.worker || !this.script || !fs.existsSync(this.script)) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(this.script);
    } catch {
      return null;
    }
    let ready = false;
    worker.on('message', (m: CsvWorkerMessage) => {
      if (m.type === 'ready') ready = true;
      else if (this.worker === worker) this.received(m);
    });
    const lost = (error: unknown) => {
      if (this.worker !== worker) return; // ended by endThread(), which settled its file
      this.worker = null;
      if (ready) return this.job?.reject(error);
      this.script = null;
      this.log?.(
        'warn',
        `CSV imports are read on the importing thread: the reader thread could not start (${error instanceof Error ? error.message : String(error)}).`,
      );
      this.job?.fallback();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The CSV reader stopped (exit code ${code}).`)));
    this.worker = worker;
    return worker;
  }

  private received(m: Exclude<CsvWorkerMessage, { type: 'ready' }>): void {
    const job = this.job;
    if (!job) return;
    if (m.type === 'end') return job.resolve({ bad: m.bad, rows: m.rows });
    if (m.type === 'failed') return job.reject(new Error(m.message));
    try {
      job.onRows(m.rows);
    } catch (error) {
      // The thread is stopped mid-file (it may be waiting for this chunk to be taken): a new one next time.
      job.reject(error);
      void this.endThread();
      return;
    }
    Atomics.add(job.counter, 0, 1);
    Atomics.notify(job.counter, 0);
  }
}
