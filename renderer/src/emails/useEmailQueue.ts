import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EMAIL_SORT_KEYS, EmailState } from '../../../common/calls/emails';
import { useLive } from '../app/useLive';

export type SortKey = (typeof EMAIL_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface QueueQuery {
  filter: EmailState | 'all';
  search: string;
  sort: SortKey;
  dir: SortDir;
}

/** The filter and search as the contract's list/export request. */
export function queryRequest(q: Pick<QueueQuery, 'filter' | 'search'>) {
  return { ...(q.filter === 'all' ? {} : { states: [q.filter] }), ...(q.search.trim() ? { search: q.search.trim() } : {}) };
}

/**
 * The queue as the screen shows it: the sender's status, the entries of the current query
 * (reloaded on every change of the queue, throttled for a large one) and the selection.
 */
export function useEmailQueue(query: QueueQuery, onError: (error: unknown) => void) {
  const [debounced, setDebounced] = useState(query.search);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query.search), 200);
    return () => clearTimeout(timer);
  }, [query.search]);

  const status = useLive('emails.status', {}, { 'emails.changed': (s) => s });
  const list = useLive(
    'emails.list',
    { ...queryRequest({ filter: query.filter, search: debounced }), sort: query.sort, dir: query.dir },
    { 'emails.changed': 'reload' },
    { throttleMs: (s) => ((s as { total: number }).total > 2000 ? 1500 : 300), onError },
  );
  const items = useMemo(() => list.data?.items ?? [], [list.data]);

  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    setSelected((prev) => {
      if (prev.size === 0) return prev;
      const ids = new Set(items.map((e) => e.id));
      const next = new Set([...prev].filter((id) => ids.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [items]);

  // Click (or Space) toggles one row; Shift extends from the last toggled row to this one.
  const anchor = useRef<number | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const toggle = useCallback((id: number, index: number, range: boolean) => {
    const from = anchor.current;
    anchor.current = index;
    setSelected((prev) => {
      const next = new Set(prev);
      if (range && from !== null) {
        const on = !prev.has(id);
        const [a, b] = from < index ? [from, index] : [index, from];
        for (const e of itemsRef.current.slice(a, b + 1)) {
          if (on) next.add(e.id);
          else next.delete(e.id);
        }
      } else if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);

  return {
    status: status.data,
    counts: list.data?.counts ?? status.data?.counts,
    total: status.data?.total ?? list.data?.total ?? 0,
    items,
    reload: list.reload,
    exportQuery: queryRequest({ filter: query.filter, search: debounced }),
    selected,
    setSelected,
    toggle,
  };
}
