import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EmailEntry } from '../../../common/calls/emails';
import { KEPT_PAGES, RETRY_MS, SETTLE_MS, TablePages, type PageRead } from '../../../renderer/src/app/table-pages';

const EMAIL_PAGE = 50;

afterEach(() => {
  vi.useRealTimers();
});
/** The email queue's pages: the first one is its head, read by the screen with the counts. */
const queuePages = (onError: (e: unknown) => void = () => {}) => new TablePages<EmailEntry>({ pageSize: EMAIL_PAGE, firstPage: 1, onError });

/** Page reads the test answers by hand, in any order, to see what the table asks for and when. */
function reads() {
  const open: Array<{ offset: number; answer: (rows: EmailEntry[]) => void; fail: (e: unknown) => void }> = [];
  const read = (offset: number, limit: number) => {
    expect(limit).toBe(EMAIL_PAGE);
    return new Promise<PageRead<EmailEntry>>((answer, fail) => open.push({ offset, answer: (rows) => answer({ items: rows }), fail }));
  };
  const pagesAsked = () => open.map((r) => r.offset / EMAIL_PAGE);
  /** Answers the read of page `p` with rows whose ids say the page and the round. */
  const answer = async (p: number, tag = '') => {
    const i = open.findIndex((r) => r.offset === p * EMAIL_PAGE);
    expect(i, `page ${p} asked`).toBeGreaterThanOrEqual(0);
    const [r] = open.splice(i, 1);
    r!.answer([{ id: p, transactionId: `${tag}${p}` } as EmailEntry]);
    await Promise.resolve();
    await Promise.resolve();
  };
  return { read, pagesAsked, answer, open };
}

describe('the email queue table reads its pages', () => {
  it('two at a time, the pages in view first, then one either side; none before the first or after the last', async () => {
    const r = reads();
    const pages = queuePages();
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    // At the top: page 0 is the head itself; page 1 is read ahead.
    expect(r.pagesAsked()).toEqual([1]);
    pages.show(3 * EMAIL_PAGE + EMAIL_PAGE / 2, 5 * EMAIL_PAGE + 10);
    expect(r.pagesAsked()).toEqual([1, 3]);
    await r.answer(1);
    expect(r.pagesAsked()).toEqual([3, 4]);
    await r.answer(3);
    await r.answer(4);
    expect(r.pagesAsked()).toEqual([5, 6]);
    await r.answer(5);
    await r.answer(6);
    expect(r.pagesAsked()).toEqual([2]);
    await r.answer(2);
    expect(r.pagesAsked()).toEqual([]);
    // A jump to the end: read once the table has stayed there for a moment.
    pages.show(9 * EMAIL_PAGE, 10 * EMAIL_PAGE - 1);
    expect(r.pagesAsked()).toEqual([]);
    await new Promise((done) => setTimeout(done, SETTLE_MS + 10));
    expect(r.pagesAsked()).toEqual([9, 8]);
  });

  it('while the table scrolls fast, pages it has passed are not read', async () => {
    vi.useFakeTimers();
    const r = reads();
    const pages = queuePages();
    pages.load('q', 1000 * EMAIL_PAGE, r.read);
    pages.show(0, 38);
    for (let p = 10; p < 500; p += 10) {
      pages.show(p * EMAIL_PAGE, p * EMAIL_PAGE + 30);
      await vi.advanceTimersByTimeAsync(SETTLE_MS / 4);
    }
    // Each stop shares no row with the one before (a jump): nothing is read while the jumps go on,
    // only page 1 (read ahead at the top, before the first jump).
    expect(r.pagesAsked()).toEqual([1]);
    await r.answer(1);
    expect(r.pagesAsked()).toEqual([]);
    // Once the table has stayed put, what is in view now, not what was passed.
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(r.pagesAsked()).toEqual([490, 491]);
  });

  it('a scroll that keeps some of the rows shown reads at once; a jump reads once the table stays put', async () => {
    vi.useFakeTimers();
    const r = reads();
    const pages = queuePages();
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    pages.show(0, 38);
    pages.show(30, 68);
    expect(r.pagesAsked()).toEqual([1, 2]);
    pages.show(6 * EMAIL_PAGE, 6 * EMAIL_PAGE + 38);
    await r.answer(1);
    await r.answer(2);
    // An answer arriving during the pause starts no read.
    expect(r.pagesAsked()).toEqual([]);
    await vi.advanceTimersByTimeAsync(SETTLE_MS - 1);
    expect(r.pagesAsked()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(r.pagesAsked()).toEqual([6, 7]);
  });

  it('keeps the pages near the view only: a scroll through the whole queue holds no more than KEPT_PAGES of it', async () => {
    const r = reads();
    const pages = queuePages();
    const last = 3 * KEPT_PAGES;
    pages.load('q', (last + 1) * EMAIL_PAGE, r.read);
    for (let p = 1; p <= last; p++) {
      // Each step keeps some rows of the one before (a scroll, not a jump).
      pages.show(p * EMAIL_PAGE - 20, p * EMAIL_PAGE + 30);
      while (r.open.length > 0) await r.answer(r.open[0]!.offset / EMAIL_PAGE);
    }
    const kept = [...pages.all()].map((e) => e.id).sort((a, b) => a - b);
    expect(kept).toHaveLength(KEPT_PAGES);
    // The ones kept are those nearest the end of the scroll; the first ones went.
    expect(kept[0]).toBe(last - KEPT_PAGES + 1);
    expect(pages.rows('q', last)).toBeDefined();
    expect(pages.rows('q', 1)).toBeUndefined();
    // A jump to the middle: the pages dropped for its rows are the farthest from it (the end), not the
    // ones read first.
    const middle = last / 2;
    pages.show(middle * EMAIL_PAGE - 20, middle * EMAIL_PAGE + 30);
    await new Promise((done) => setTimeout(done, SETTLE_MS + 10));
    while (r.open.length > 0) await r.answer(r.open[0]!.offset / EMAIL_PAGE);
    expect([...pages.all()]).toHaveLength(KEPT_PAGES);
    expect(pages.rows('q', middle)).toBeDefined();
    expect(pages.rows('q', last - KEPT_PAGES + 1)).toBeDefined();
    expect(pages.rows('q', last)).toBeUndefined();
  });

  it('a failed read is reported once per load, not at every retry', async () => {
    vi.useFakeTimers();
    const r = reads();
    const errors: unknown[] = [];
    const pages = queuePages((e) => errors.push(e));
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    for (let i = 0; i < 3; i++) {
      r.open.splice(0, 1)[0]!.fail(new Error('refused'));
      await vi.advanceTimersByTimeAsync(RETRY_MS);
    }
    expect(errors).toHaveLength(1);
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    // The read of this load (the one before it, still open, is not this load's).
    r.open.pop()!.fail(new Error('refused'));
    await vi.advanceTimersByTimeAsync(0);
    expect(errors).toHaveLength(2);
  });

  it('the list changing during a jump does not read the pages flown over; clear() stops the wait', async () => {
    vi.useFakeTimers();
    const r = reads();
    const pages = queuePages();
    pages.load('q', 100 * EMAIL_PAGE, r.read);
    pages.show(0, 38);
    await r.answer(1);
    pages.show(50 * EMAIL_PAGE, 50 * EMAIL_PAGE + 38);
    pages.load('q', 100 * EMAIL_PAGE, r.read);
    expect(r.pagesAsked()).toEqual([]);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(r.pagesAsked()).toEqual([50, 51]);
    await r.answer(50);
    await r.answer(51);
    const before = r.pagesAsked();
    pages.show(0, 38);
    pages.clear();
    await vi.advanceTimersByTimeAsync(SETTLE_MS * 2);
    expect(r.pagesAsked()).toEqual(before);
  });

  it('a change of the queue keeps the rows in view until their new ones arrive, and drops the rest; another query starts afresh', async () => {
    const r = reads();
    const pages = queuePages();
    let version = 0;
    pages.subscribe(() => (version = pages.getVersion()));
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    pages.show(2 * EMAIL_PAGE, 2 * EMAIL_PAGE + 30);
    await r.answer(1);
    await r.answer(2);
    await r.answer(3);
    expect(version).toBe(pages.getVersion());
    expect(pages.rows('q', 1)?.[0]?.transactionId).toBe('1');

    // The same query, a new head: page 2 (in view) stays until read again; 1 and 3 go.
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    expect(pages.rows('q', 2)?.[0]?.transactionId).toBe('2');
    expect(pages.rows('q', 1)).toBeUndefined();
    expect(r.pagesAsked()).toEqual([2, 3]);
    await r.answer(2, 'new');
    expect(pages.rows('q', 2)?.[0]?.transactionId).toBe('new2');
    expect([...pages.all()].map((e) => e.transactionId)).toEqual(['new2']);
    expect(r.pagesAsked()).toEqual([3, 1]);

    // Another query: nothing of the old one is shown, and an old answer arriving late is dropped.
    pages.load('other', 5 * EMAIL_PAGE, r.read);
    expect(pages.rows('q', 2)).toBeUndefined();
    expect(pages.rows('other', 2)).toBeUndefined();
    expect(r.pagesAsked()).toEqual([3, 1, 1]);
    await r.answer(3, 'late');
    await r.answer(1, 'late');
    expect(pages.rows('other', 3)).toBeUndefined();
    expect(pages.rows('other', 1)).toBeUndefined();
    await r.answer(1, 'other');
    expect(pages.rows('other', 1)?.[0]?.transactionId).toBe('other1');
  });

  it('a failed read is reported and read again when the table next asks', async () => {
    const r = reads();
    const errors: unknown[] = [];
    const pages = queuePages((e) => errors.push(e));
    pages.load('q', 3 * EMAIL_PAGE, r.read);
    r.open.shift()!.fail(new Error('offline'));
    await Promise.resolve();
    await Promise.resolve();
    expect(errors).toHaveLength(1);
    expect(r.pagesAsked()).toEqual([]);
    pages.show(0, 30);
    expect(r.pagesAsked()).toEqual([1]);
  });

  it('a page whose read failed is asked for again after a pause, not at once', async () => {
    vi.useFakeTimers();
    const r = reads();
    const errors: unknown[] = [];
    const pages = queuePages((e) => errors.push(e));
    pages.load('q', 10 * EMAIL_PAGE, r.read);
    expect(r.pagesAsked()).toEqual([1]);
    r.open.splice(0, 1)[0]!.fail(new Error('host gone'));
    await Promise.resolve();
    await Promise.resolve();
    expect(errors).toHaveLength(1);
    expect(r.pagesAsked()).toEqual([]);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(r.pagesAsked()).toEqual([1]);
    await r.answer(1);
    expect(pages.rows('q', 1)?.[0]?.id).toBe(1);
  });
});

describe('a table whose count comes with its pages (the register, a download job)', () => {
  /** Reads answered by hand, each telling the list's count `total`. */
  function counted(total: () => number) {
    const open: Array<{ offset: number; answer: () => void }> = [];
    const read = (offset: number, limit: number) =>
      new Promise<PageRead<{ id: number }>>((answer) =>
        open.push({
          offset,
          answer: () =>
            answer({ items: Array.from({ length: Math.max(0, Math.min(limit, total() - offset)) }, (_, i) => ({ id: offset + i })), total: total() }),
        }),
      );
    const answer = async (p: number) => {
      const i = open.findIndex((r) => r.offset === p * 200);
      expect(i, `page ${p} asked`).toBeGreaterThanOrEqual(0);
      open.splice(i, 1)[0]!.answer();
      await Promise.resolve();
      await Promise.resolve();
    };
    return { read, answer, asked: () => open.map((r) => r.offset / 200) };
  }

  it('reads the first page alone until the count is known, then the pages in view', async () => {
    let total = 1000;
    const r = counted(() => total);
    const pages = new TablePages<{ id: number }>({ pageSize: 200, onError: () => {} });
    pages.load('f', null, r.read);
    pages.show(0, 38);
    expect(pages.total()).toBeNull();
    expect(r.asked()).toEqual([0]);
    await r.answer(0);
    expect(pages.total()).toBe(1000);
    expect(pages.row(5)?.id).toBe(5);
    expect(r.asked()).toEqual([1]);
    // The list changed (a sync): the same filter again keeps its count and the rows in view until they are read again.
    total = 1200;
    pages.load('f', null, r.read);
    expect(pages.total()).toBe(1000);
    expect(pages.row(5)?.id).toBe(5);
    await r.answer(0);
    expect(pages.total()).toBe(1200);
  });

  it('a far range shown before the count is known waits for it, then its pages are read', async () => {
    const r = counted(() => 100_000);
    const pages = new TablePages<{ id: number }>({ pageSize: 200, onError: () => {} });
    pages.load('f', null, r.read);
    pages.show(0, 38);
    pages.show(40_000, 40_038);
    await new Promise((done) => setTimeout(done, SETTLE_MS + 10));
    expect(r.asked()).toEqual([0]);
    await r.answer(0);
    expect(r.asked()).toEqual([200, 201]);
  });

  it('a job whose counts change at every tick still shows the rows being read (a read of the tick before is taken)', async () => {
    const r = counted(() => 1000);
    const pages = new TablePages<{ id: number }>({ pageSize: 200, onError: () => {} });
    pages.load('job', null, r.read);
    await r.answer(0);
    pages.show(250, 290);
    expect(r.asked()).toEqual([1, 2]);
    // A tick: the same job read again while page 1 is on its way.
    pages.load('job', null, r.read);
    await r.answer(1);
    expect(pages.row(250)?.id).toBe(250);
    // Read again for the new round, and a newer answer is not replaced by an older one.
    expect(r.asked()).toContain(1);
  });

  it('a filter that cannot be read shows no rows and no count, and a late answer is dropped', async () => {
    const r = counted(() => 1000);
    const pages = new TablePages<{ id: number }>({ pageSize: 200, onError: () => {} });
    pages.load('f', null, r.read);
    await r.answer(0);
    pages.show(150, 230);
    expect(r.asked()).toEqual([1, 2]);
    pages.clear();
    expect(pages.total()).toBeNull();
    expect(pages.row(5)).toBeUndefined();
    await r.answer(1);
    expect(pages.row(210)).toBeUndefined();
    // Nothing more is asked for.
    expect(r.asked()).toEqual([2]);
  });
});
