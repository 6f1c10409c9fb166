import { describe, expect, it, vi } from 'vitest';
import type { EmailEntry } from '../../../common/calls/emails';
import { EMAIL_PAGE, QueuePages, RETRY_MS } from '../../../renderer/src/emails/queue-pages';

/** Page reads the test answers by hand, in any order, to see what the table asks for and when. */
function reads() {
  const open: Array<{ offset: number; answer: (rows: EmailEntry[]) => void; fail: (e: unknown) => void }> = [];
  const read = (offset: number, limit: number) => {
    expect(limit).toBe(EMAIL_PAGE);
    return new Promise<EmailEntry[]>((answer, fail) => open.push({ offset, answer, fail }));
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
    const pages = new QueuePages(() => {});
    pages.newHead('q', 10 * EMAIL_PAGE, r.read);
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
    pages.show(9 * EMAIL_PAGE, 10 * EMAIL_PAGE - 1);
    expect(r.pagesAsked()).toEqual([9, 8]);
  });

  it('while the table scrolls fast, pages it has passed are not read', async () => {
    const r = reads();
    const pages = new QueuePages(() => {});
    pages.newHead('q', 1000 * EMAIL_PAGE, r.read);
    for (let p = 10; p < 500; p += 10) pages.show(p * EMAIL_PAGE, p * EMAIL_PAGE + 30);
    // Page 1 (read ahead at the top) and page 10 (the first stop) are on their way; nothing else yet.
    expect(r.pagesAsked()).toEqual([1, 10]);
    await r.answer(1);
    await r.answer(10);
    // Then what is in view now, not what was passed.
    expect(r.pagesAsked()).toEqual([490, 491]);
  });

  it('a change of the queue keeps the rows in view until their new ones arrive, and drops the rest; another query starts afresh', async () => {
    const r = reads();
    const pages = new QueuePages(() => {});
    let version = 0;
    pages.subscribe(() => (version = pages.getVersion()));
    pages.newHead('q', 10 * EMAIL_PAGE, r.read);
    pages.show(2 * EMAIL_PAGE, 2 * EMAIL_PAGE + 30);
    await r.answer(1);
    await r.answer(2);
    await r.answer(3);
    expect(version).toBe(pages.getVersion());
    expect(pages.rows('q', 1)?.[0]?.transactionId).toBe('1');

    // The same query, a new head: page 2 (in view) stays until read again; 1 and 3 go.
    pages.newHead('q', 10 * EMAIL_PAGE, r.read);
    expect(pages.rows('q', 2)?.[0]?.transactionId).toBe('2');
    expect(pages.rows('q', 1)).toBeUndefined();
    expect(r.pagesAsked()).toEqual([2, 3]);
    await r.answer(2, 'new');
    expect(pages.rows('q', 2)?.[0]?.transactionId).toBe('new2');
    expect([...pages.all()].map((e) => e.transactionId)).toEqual(['new2']);
    expect(r.pagesAsked()).toEqual([3, 1]);

    // Another query: nothing of the old one is shown, and an old answer arriving late is dropped.
    pages.newHead('other', 5 * EMAIL_PAGE, r.read);
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
    const pages = new QueuePages((e) => errors.push(e));
    pages.newHead('q', 3 * EMAIL_PAGE, r.read);
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
    try {
      const r = reads();
      const errors: unknown[] = [];
      const pages = new QueuePages((e) => errors.push(e));
      pages.newHead('q', 10 * EMAIL_PAGE, r.read);
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
    } finally {
      vi.useRealTimers();
    }
  });
});
