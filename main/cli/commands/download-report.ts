import path from 'node:path';
import type { DownloadItemView } from '../../../common/calls/downloads';
import type { JobsRepository } from '../../services/downloads';

/** One line of `einvoice download --json`'s `items`. */
export interface ReportItem {
  transactionId: string;
  status: 'saved' | 'failed' | 'skipped';
  file: string | null;
  errorCode: string | null;
  message: string | null;
}

const PAGE = 500;

/**
 * `einvoice download --json` written as the job runs: the one document
 * `{"jobId":…,"folder":…,"items":[…],"saved":n,"failed":n,"skipped":n}`, its items in job order,
 * each written once every item before it has settled, read from the store a page at a time (never
 * the whole job in memory); the totals follow the last item. Nothing is written before the first
 * item, so a job refused at its first call still answers with the error document alone.
 */
export class StreamedReport {
  /** The seq of the next item to write. */
  private next = 0;
  private opened = false;
  private written = 0;
  readonly totals = { saved: 0, failed: 0, skipped: 0 };

  constructor(
    private readonly repo: JobsRepository,
    private readonly job: { id: string; folder: string },
    private readonly out: { write(text: string): unknown },
  ) {}

  get started(): boolean {
    return this.opened;
  }

  /** Writes the items settled since the last call, up to the first one still pending. */
  flush(): void {
    this.write(null);
  }

  /** Writes every item left (one not settled is reported failed with `interrupted`), then the totals and `extra` members. */
  end(interrupted: string, extra: Record<string, unknown> = {}): void {
    this.write(interrupted);
    if (!this.opened) this.open();
    const tail = { ...this.totals, ...extra };
    this.out.write(`],${JSON.stringify(tail).slice(1)}\n`);
  }

  private open(): void {
    this.opened = true;
    this.out.write(`{"jobId":${JSON.stringify(this.job.id)},"folder":${JSON.stringify(this.job.folder)},"items":[`);
  }

  private write(interrupted: string | null): void {
    // Items before the first unsettled one are read once each; nothing is read while it waits.
    const end = interrupted === null ? (this.repo.firstUnsettled(this.job.id) ?? Infinity) : Infinity;
    while (this.next < end) {
      const limit = Math.min(PAGE, end - this.next);
      const { items } = this.repo.page(this.job.id, this.next, limit);
      let chunk = '';
      let stopped = false;
      for (const i of items) {
        const item = this.item(i, interrupted);
        if (!item) {
          stopped = true;
          break;
        }
        if (!this.opened) this.open();
        chunk += `${this.written++ === 0 ? '' : ','}${JSON.stringify(item)}`;
        this.totals[item.status]++;
        this.next = i.seq + 1;
      }
      if (chunk !== '') this.out.write(chunk);
      if (stopped || items.length < limit) return;
    }
  }

  private item(i: DownloadItemView, interrupted: string | null): ReportItem | null {
    if (i.state === 'pending' || i.state === 'placing') {
      if (interrupted === null) return null;
      return { transactionId: i.transactionId, status: 'failed', file: null, errorCode: 'Interrupted', message: interrupted };
    }
    return {
      transactionId: i.transactionId,
      status: i.state,
      file: i.file ? path.join(this.job.folder, i.file) : null,
      errorCode: i.errorCode,
      message: i.message?.en ?? null,
    };
  }
}
