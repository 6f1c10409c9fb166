/** Paging until done while the list changes, and the day runs a sync reads. */
import { describe, expect, it } from 'vitest';
import { pageAll, type IssuedListItem, type PagingPage } from '../../../main/services/api';
import { normalisePaging } from '../../../main/services/api/issued';
import { runsOf } from '../../../main/services/register/sync';
import { searchKey } from '../../../main/services/register';

const item = (id: string): IssuedListItem => ({ transactionId: id }) as IssuedListItem;

/** A list served newest first; `grow` runs before each request (new invoices go to the front). */
function server(ids: string[], grow: (call: number, list: string[]) => void = () => {}) {
  let calls = 0;
  return {
    fetch: async (skip: number, take: number): Promise<PagingPage> => {
      grow(++calls, ids);
      return { items: ids.slice(skip, skip + take).map(item), totalCount: ids.length };
    },
    get calls() {
      return calls;
    },
  };
}

async function collect(s: ReturnType<typeof server>, take: number) {
  const seen: string[] = [];
  const r = await pageAll(s.fetch, (fresh) => void seen.push(...fresh.map((i) => i.transactionId)), take);
  return { ...r, ids: seen };
}

describe('pageAll', () => {
  it('reads every page once when nothing changes: ceil(n / take) requests', async () => {
    const ids = Array.from({ length: 250 }, (_, i) => `T${i}`);
    const s = server(ids);
    const r = await collect(s, 100);
    expect(r.ids).toEqual(ids);
    expect(r.requests).toBe(3);
  });

  it('an empty list is one request', async () => {
    const r = await collect(server([]), 100);
    expect([r.ids, r.requests]).toEqual([[], 1]);
  });

  it('invoices added at the front while paging: each is seen once, none lost, the repeated ones dropped', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `T${i}`);
    const s = server(ids, (call, list) => {
      if (call === 2 || call === 3) list.unshift(`NEW${call}`);
    });
    const r = await collect(s, 10);
    expect(new Set(r.ids).size).toBe(r.ids.length);
    expect(new Set(r.ids)).toEqual(new Set(ids));
    expect(r.ids).toEqual(expect.arrayContaining(['NEW2', 'NEW3']));
    expect(r.total).toBe(32);
  });

  it("a list that grows as fast as it is read ends after three passes' worth of requests, without doubles", async () => {
    const ids = ['A', 'B', 'C'];
    let n = 0;
    const s = server(ids, (_call, list) => void list.unshift(`G${n++}`));
    const r = await collect(s, 1);
    expect(s.calls).toBe(3 * (Math.ceil(4 / 1) + 1) + 2);
    expect(new Set(r.ids).size).toBe(r.ids.length);
  });
});

describe('runsOf', () => {
  it('joins consecutive days and cuts at gaps and at the longest run', () => {
    expect(runsOf(['2026-10-01', '2026-10-02', '2026-10-04', '2026-10-31', '2026-11-01'], 31).map((r) => [r.from, r.to])).toEqual([
      ['2026-10-01', '2026-10-02'],
      ['2026-10-04', '2026-10-04'],
      ['2026-10-31', '2026-11-01'],
    ]);
    const days = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    expect(runsOf(days, 31).map((r) => r.days.length)).toEqual([31, 9]);
  });
});

describe('searchKey', () => {
  it('lower case without diacritics, đ as d', () => {
    expect(searchKey('  Cửa hàng ĐỒNG   Xuân ')).toBe('cua hang dong xuan');
  });
});

describe('the kind of a listed invoice', () => {
  it('comes from its series, whichever list the service put it in (paging is documented with invoiceWithCode only)', () => {
    const page = normalisePaging(
      JSON.stringify({
        TotalCount: 3,
        PageData: [
          { TransactionID: 'A1', InvSeries: '1C26MAA', InvNo: '00000001', InvDate: '2026-11-02' },
          { TransactionID: 'A2', InvSeries: '1K26TAA', InvNo: '00000002', InvDate: '2026-11-02' },
          { TransactionID: 'A3', InvSeries: '1C26TAA', InvNo: '00000003', InvDate: '2026-11-02' },
        ],
      }),
      'withCode',
    );
    expect(page.items.map((i) => [i.transactionId, i.kind])).toEqual([
      ['A1', 'cashRegister'],
      ['A2', 'withoutCode'],
      ['A3', 'withCode'],
    ]);
  });
});
