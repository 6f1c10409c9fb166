import { useCallback, useEffect, useRef, useState } from 'react';
import type { IssuedInvoice, IssuedQuery } from '../../../common/calls/register';
import { bridge } from '../bridge';

export const PAGE = 200;
export type RegisterFilter = Omit<IssuedQuery, 'offset' | 'limit'>;

/**
 * The register as the table reads it: only the pages the table shows are fetched (`ensure`),
 * never the whole list. A new filter starts over; a change of the register (sync, issue) fetches
 * the count and the pages in view again, keeping the old rows on screen until they arrive.
 */
export function useRegisterPages(filter: RegisterFilter | null, onError: (error: unknown) => void) {
  const key = filter ? JSON.stringify(filter) : '';
  const pages = useRef(new Map<number, IssuedInvoice[]>());
  const loading = useRef(new Set<number>());
  const generation = useRef(0);
  const visible = useRef<[number, number]>([0, 0]);
  const [total, setTotal] = useState<number | null>(null);
  const [version, setTick] = useState(0);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const fetchPage = useCallback(
    async (page: number) => {
      if (!key || loading.current.has(page)) return;
      const mine = generation.current;
      loading.current.add(page);
      try {
        const res = await bridge.call('issued.list', { ...(JSON.parse(key) as RegisterFilter), offset: page * PAGE, limit: PAGE });
        if (mine !== generation.current) return;
        pages.current.set(page, res.items);
        setTotal(res.total);
        setTick((n) => n + 1);
      } catch (error) {
        if (mine === generation.current) onErrorRef.current(error);
      } finally {
        if (mine === generation.current) loading.current.delete(page);
      }
    },
    [key],
  );

  /** Makes sure the rows first…last are fetched (called by the table for the rows in view). */
  const ensure = useCallback(
    (first: number, last: number) => {
      visible.current = [first, last];
      for (let p = Math.floor(first / PAGE); p <= Math.floor(Math.max(first, last) / PAGE); p++) {
        if (!pages.current.has(p)) void fetchPage(p);
      }
    },
    [fetchPage],
  );

  /** Fetches the count and the pages in view again (old rows stay until the new ones arrive). */
  const refresh = useCallback(() => {
    generation.current++;
    loading.current.clear();
    const [first, last] = visible.current;
    const keep = new Set<number>();
    for (let p = Math.floor(first / PAGE); p <= Math.floor(Math.max(first, last) / PAGE); p++) keep.add(p);
    for (const p of [...pages.current.keys()]) if (!keep.has(p)) pages.current.delete(p);
    for (const p of keep) void fetchPage(p);
  }, [fetchPage]);

  useEffect(() => {
    generation.current++;
    pages.current = new Map();
    loading.current = new Set();
    setTotal(null);
    setTick((n) => n + 1);
    if (key) void fetchPage(0);
  }, [key, fetchPage]);

  // Register changes (a sync writes page after page): at most every half second.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = bridge.on('issued.changed', () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        refresh();
      }, 500);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [refresh]);

  const row = useCallback((index: number): IssuedInvoice | undefined => pages.current.get(Math.floor(index / PAGE))?.[index % PAGE], []);

  /** Rows first…last (inclusive), fetched as needed: for a shift-click over rows never shown, or select-all. */
  const rows = useCallback(
    async (first: number, last: number): Promise<IssuedInvoice[]> => {
      const out: IssuedInvoice[] = [];
      for (let offset = first; offset <= last; offset += 1000) {
        const limit = Math.min(1000, last - offset + 1);
        const res = await bridge.call('issued.list', { ...(JSON.parse(key) as RegisterFilter), offset, limit });
        out.push(...res.items);
        if (res.items.length < limit) break;
      }
      return out;
    },
    [key],
  );

  /** `version` changes whenever rows arrived: the table re-renders its rows on it. */
  return { total, version, row, ensure, refresh, rows };
}
