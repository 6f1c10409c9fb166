import type { EmailEntry } from '../../../common/calls/emails';

/**
 * Rows per page read from main: the table asks only for the pages around what it shows. The first
 * page alone fills the table (with its overscan) on screens up to about 2 000 px high; a smaller
 * page is less to answer, send and check on every open, sort and filter.
 */
export const EMAIL_PAGE = 50;

/** Page reads at once: while the table scrolls fast, the pages it has passed are not read at all. */
const IN_FLIGHT = 2;
/** Pause before a page whose read failed is asked for again (ms). */
export const RETRY_MS = 1000;

type ReadPage = (offset: number, limit: number) => Promise<EmailEntry[]>;

/**
 * The pages of the query after the first, kept outside React state: a page arriving re-renders the
 * table body (which subscribes), not the whole screen. Each head (the first page, read again on
 * every change of the queue or the query) starts a new round: pages are read for it, in the order
 * the table needs them (the rows in view first, then one page either side), at most two at a time.
 */
export class QueuePages {
  private pages = new Map<number, { round: number; rows: EmailEntry[] }>();
  private loading = new Set<number>();
  private round = 0;
  private key = '';
  private read: ReadPage | null = null;
  private lastPage = 0;
  private view = { first: 0, last: 0 };
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly onError: (error: unknown) => void) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Changes whenever a page arrives or pages are dropped. */
  getVersion = () => this.version;

  /**
   * A new head: for another query (`key`) every page goes; for the same query the pages in view stay
   * on screen until their new rows arrive, the others go.
   */
  newHead(key: string, total: number, read: ReadPage): void {
    this.round++;
    this.read = read;
    this.lastPage = Math.max(0, Math.ceil(total / EMAIL_PAGE) - 1);
    this.loading.clear();
    if (key !== this.key) {
      this.key = key;
      this.view = { first: 0, last: 0 };
      this.pages.clear();
    } else {
      for (const p of this.pages.keys()) if (p < this.view.first || p > this.view.last) this.pages.delete(p);
    }
    this.changed();
    this.pump();
  }

  /** The rows of page `p` (> 0) of query `key`, if read. */
  rows(key: string, p: number): EmailEntry[] | undefined {
    return key === this.key ? this.pages.get(p)?.rows : undefined;
  }

  /** Every row read for the current head (for the selection's states). */
  *all(): Iterable<EmailEntry> {
    for (const { rows } of this.pages.values()) yield* rows;
  }

  /** The table shows rows `from`…`to`. */
  show(from: number, to: number): void {
    this.view = { first: Math.floor(from / EMAIL_PAGE), last: Math.floor(to / EMAIL_PAGE) };
    this.pump();
  }

  /** The pages still to read, most wanted first: those in view, then one page either side. */
  private wanted(): number[] {
    const { first, last } = this.view;
    const order: number[] = [];
    for (let p = first; p <= last; p++) order.push(p);
    order.push(last + 1, first - 1);
    return order.filter((p) => p > 0 && p <= this.lastPage && this.pages.get(p)?.round !== this.round && !this.loading.has(p));
  }

  private pump(): void {
    const read = this.read;
    if (!read) return;
    for (const p of this.wanted()) {
      if (this.loading.size >= IN_FLIGHT) return;
      const round = this.round;
      this.loading.add(p);
      read(p * EMAIL_PAGE, EMAIL_PAGE).then(
        (rows) => {
          if (round !== this.round) return;
          this.loading.delete(p);
          this.pages.set(p, { round, rows });
          this.changed();
          this.pump();
        },
        (error: unknown) => {
          if (round !== this.round) return;
          this.loading.delete(p);
          this.onError(error);
          // Rows in view stay placeholders until read: tried again after a pause (not at once, so a
          // host that keeps refusing is not asked in a loop).
          setTimeout(() => {
            if (round === this.round) this.pump();
          }, RETRY_MS);
        },
      );
    }
  }

  private changed(): void {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
