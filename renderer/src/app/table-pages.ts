/** Page reads at once: while the table scrolls fast, the pages it has passed are not read at all. */
const IN_FLIGHT = 2;
/** Pause before a page whose read failed is asked for again (ms). */
export const RETRY_MS = 1000;
/**
 * After a jump (the new rows share none with the ones shown before: the scroll bar dragged, End, a
 * fast fling), reads wait until the table has stayed this long without jumping again (ms): pages
 * only flown over are not read, so the frames of the jump are not spent reading them.
 */
export const SETTLE_MS = 60;
/**
 * Pages kept for the current query: past this, the pages farthest from the view go (read again if
 * the table comes back to them), so a long scroll through a large list does not hold the whole list
 * in the window's memory.
 */
export const KEPT_PAGES = 40;

/** A page's rows and, when the read tells it, the count of the whole list. */
export interface PageRead<T> {
  items: T[];
  total?: number;
}

type ReadPage<T> = (offset: number, limit: number) => Promise<PageRead<T>>;

export interface TablePagesOptions {
  pageSize: number;
  /** The first page this reads (1 when the screen reads the first one itself, with its counts). */
  firstPage?: number;
  onError: (error: unknown) => void;
}

/**
 * The pages of a long table's current query, kept outside React state: a page arriving re-renders
 * the table body (which subscribes), not the whole screen. Each load (a new query, or the same one
 * after the list changed) starts a new round: pages are read for it in the order the table needs
 * them (the rows in view first, then one page either side), at most two at a time.
 */
export class TablePages<T> {
  private pages = new Map<number, { round: number; rows: T[] }>();
  /** Pages being read for the current round. */
  private loading = new Set<number>();
  /** The last round a failed read was reported for: once per round, not at every retry. */
  private reported = -1;
  private round = 0;
  private key = '';
  private read: ReadPage<T> | null = null;
  /** The list's count, once known (from the caller, or from a page read). */
  private count: number | null = null;
  private view = { first: 0, last: 0 };
  /** The rows shown last for this query (none yet: its first rows are no jump). */
  private shown: { from: number; to: number } | null = null;
  private settling: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();
  private version = 0;
  readonly pageSize: number;
  private readonly firstPage: number;
  private readonly onError: (error: unknown) => void;

  constructor(options: TablePagesOptions) {
    this.pageSize = options.pageSize;
    this.firstPage = options.firstPage ?? 0;
    this.onError = options.onError;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** Changes whenever a page arrives, pages are dropped or the count changes. */
  getVersion = () => this.version;

  /** The list's count: from the caller, or from the last page read (null until one is in). */
  total(): number | null {
    return this.count;
  }

  /**
   * Reads query `key` (again): for another query every page goes; for the same one (the list has
   * changed) the pages in view stay on screen until their new rows arrive, the others go, and reads
   * still on their way are taken (their rows are no older than those shown). `total` is the list's
   * count if the caller knows it (null: the reads will tell).
   */
  load(key: string, total: number | null, read: ReadPage<T>): void {
    this.round++;
    this.read = read;
    this.loading.clear();
    if (key !== this.key) {
      this.forgetQuery(key, total);
    } else {
      if (total !== null) this.count = total;
      for (const p of this.pages.keys()) if (p < this.view.first || p > this.view.last) this.pages.delete(p);
    }
    this.changed();
    this.pump();
  }

  /** No query (the screen's filter cannot be read): no rows, no count, and answers still on their way are dropped. */
  clear(): void {
    this.round++;
    this.read = null;
    this.loading.clear();
    this.forgetQuery('', null);
    this.changed();
  }

  /** Nothing of the query before is kept for `key`: its pages, where it was scrolled, a wait after a jump. */
  private forgetQuery(key: string, total: number | null): void {
    this.stopSettling();
    this.key = key;
    this.view = { first: 0, last: 0 };
    this.shown = null;
    this.pages.clear();
    this.count = total;
  }

  /** The rows of page `p` of query `key`, if read. */
  rows(key: string, p: number): T[] | undefined {
    return key === this.key ? this.pages.get(p)?.rows : undefined;
  }

  /** Row `index` of the current query, if its page is read. */
  row(index: number): T | undefined {
    const p = Math.floor(index / this.pageSize);
    return this.pages.get(p)?.rows[index - p * this.pageSize];
  }

  /** Every row read for the current query (for the selection's states). */
  *all(): Iterable<T> {
    for (const { rows } of this.pages.values()) yield* rows;
  }

  /** The table shows rows `from`…`to` (bound: it is handed to the table as it is). */
  show = (from: number, to: number): void => {
    const jumped = this.shown !== null && (to < this.shown.from || from > this.shown.to);
    this.shown = { from, to };
    this.view = { first: Math.floor(from / this.pageSize), last: Math.floor(to / this.pageSize) };
    this.stopSettling();
    if (!jumped) return this.pump();
    this.settling = setTimeout(() => {
      this.settling = null;
      this.pump();
    }, SETTLE_MS);
  };

  private stopSettling(): void {
    if (this.settling === null) return;
    clearTimeout(this.settling);
    this.settling = null;
  }

  /** Drops the pages farthest from the view while more than KEPT_PAGES are kept. */
  private forgetFar(): void {
    if (this.pages.size <= KEPT_PAGES) return;
    const { first, last } = this.view;
    const distance = (p: number) => (p < first ? first - p : p > last ? p - last : 0);
    const far = [...this.pages.keys()].sort((a, b) => distance(b) - distance(a));
    for (const p of far.slice(0, this.pages.size - KEPT_PAGES)) this.pages.delete(p);
  }

  /** The pages still to read, most wanted first: those in view, then one page either side. */
  private wanted(): number[] {
    const { first, last } = this.view;
    // Until the count is known, only the first page is read (it tells the count).
    const lastPage = this.count === null ? this.firstPage : Math.max(0, Math.ceil(this.count / this.pageSize) - 1);
    const order: number[] = [];
    for (let p = first; p <= last; p++) order.push(p);
    order.push(last + 1, first - 1);
    if (this.count === null) order.unshift(this.firstPage);
    return [...new Set(order)].filter((p) => p >= this.firstPage && p <= lastPage && this.pages.get(p)?.round !== this.round && !this.loading.has(p));
  }

  private pump(): void {
    const read = this.read;
    if (!read || this.settling !== null) return;
    for (const p of this.wanted()) {
      if (this.loading.size >= IN_FLIGHT) return;
      const { round, key } = this;
      this.loading.add(p);
      read(p * this.pageSize, this.pageSize).then(
        ({ items, total }) => {
          if (key !== this.key) return;
          if (round === this.round) this.loading.delete(p);
          // An answer from before the list changed is shown until the new one comes (it is read again:
          // its round is old), but never replaces a newer one.
          if ((this.pages.get(p)?.round ?? -1) > round) return;
          this.pages.set(p, { round, rows: items });
          if (total !== undefined) this.count = total;
          this.forgetFar();
          this.changed();
          this.pump();
        },
        (error: unknown) => {
          if (round !== this.round) return;
          this.loading.delete(p);
          if (this.reported !== round) this.onError(error);
          this.reported = round;
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
