import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { IssuedInvoice, IssuedQuery } from '../../../common/calls/register';
import { bridge } from '../bridge';
import { useTablePages } from '../app/useTablePages';

export const PAGE = 200;
export type RegisterFilter = Omit<IssuedQuery, 'offset' | 'limit'>;

/**
 * The register as the table reads it: only the pages around the rows in view are read (`ensure`),
 * never the whole list. A new filter starts over; a change of the register (sync, issue) reads the
 * count and the pages in view again, keeping the old rows on screen until they arrive.
 */
export function useRegisterPages(filter: RegisterFilter | null, onError: (error: unknown) => void) {
  const key = filter ? JSON.stringify(filter) : '';
  const pages = useTablePages<IssuedInvoice>({ pageSize: PAGE, onError });
  const version = useSyncExternalStore(pages.subscribe, pages.getVersion);

  /** Reads the filter's rows from the register again: all of them on a new filter, those in view after a change. */
  const refresh = useCallback(() => {
    if (!key) return pages.clear();
    const query = JSON.parse(key) as RegisterFilter;
    pages.load(key, null, (offset, limit) => bridge.call('issued.list', { ...query, offset, limit }));
  }, [key, pages]);
  useEffect(refresh, [refresh]);

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

  const row = useCallback((index: number): IssuedInvoice | undefined => pages.row(index), [pages]);

  /** Rows first…last (inclusive), read as needed: for a shift-click over rows never shown, or select-all. */
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
  return { total: pages.total(), version, row, ensure: pages.show, refresh, rows };
}
