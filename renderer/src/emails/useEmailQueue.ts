import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EMAIL_SORT_KEYS, EmailEntry, EmailState } from '../../../common/calls/emails';
import { bridge } from '../bridge';
import { useLive } from '../app/useLive';

export type SortKey = (typeof EMAIL_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface QueueQuery {
  filter: EmailState | 'all';
  search: string;
  sort: SortKey;
  dir: SortDir;
}

/** Rows per page read from main: the table asks only for the pages around what it shows. */
export const EMAIL_PAGE = 100;

/** The filter and search as the contract's list/export request. */
export function queryRequest(q: Pick<QueueQuery, 'filter' | 'search'>) {
  return { ...(q.filter === 'all' ? {} : { states: [q.filter] }), ...(q.search.trim() ? { search: q.search.trim() } : {}) };
}

/** The selection: entry number → its state when last seen (for "send again?" and "editable?"). */
export type Selection = ReadonlyMap<number, EmailState>;

/**
 * The queue as the screen shows it, one page at a time: the first page with the query's total and
 * the counts stays current on every change of the queue (throttled for a large one); the other pages
 * are read when the table scrolls to them and read again after each change. Plus the selection.
 */
export function useEmailQueue(query: QueueQuery, onError: (error: unknown) => void) {
  const [debounced, setDebounced] = useState(query.search);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query.search), 200);
    return () => clearTimeout(timer);
  }, [query.search]);

  const status = useLive('emails.status', {}, { 'emails.changed': (s) => s });
  const filter = useMemo(() => queryRequest({ filter: query.filter, search: debounced }), [query.filter, debounced]);
  const request = useMemo(() => ({ ...filter, sort: query.sort, dir: query.dir }), [filter, query.sort, query.dir]);
  const head = useLive(
    'emails.list',
    { ...request, offset: 0, limit: EMAIL_PAGE },
    { 'emails.changed': 'reload' },
    { throttleMs: (s) => ((s as { total: number }).total > 2000 ? 1500 : 300), onError },
  );
  const key = JSON.stringify(request);

  // Pages after the first, read for the head they belong to; a new head (a change, another query) reads the visible ones again.
  const [pages, setPages] = useState<{ head: unknown; key: string; map: ReadonlyMap<number, EmailEntry[]> }>({ head: undefined, key, map: new Map() });
  const view = useRef({ first: 0, last: 0 });
  const loading = useRef(new Set<string>());
  const current = useRef({ head: head.data as unknown, key, request });
  current.current = { head: head.data, key, request };

  const generation = useRef(0);
  const load = useCallback(
    (wanted: number[]) => {
      const { head: forHead, key: forKey, request: req } = current.current;
      if (!forHead) return;
      for (const p of wanted) {
        const tag = `${generation.current}:${p}`;
        if (p === 0 || loading.current.has(tag)) continue;
        loading.current.add(tag);
        bridge
          .call('emails.list', { ...req, offset: p * EMAIL_PAGE, limit: EMAIL_PAGE })
          .then((r) => {
            if (current.current.head !== forHead) return;
            setPages((prev) => {
              const map = new Map(prev.head === forHead || prev.key === forKey ? prev.map : []);
              map.set(p, r.items);
              return { head: forHead, key: forKey, map };
            });
          }, onError)
          .finally(() => loading.current.delete(tag));
      }
    },
    [onError],
  );

  const pagesIn = (first: number, last: number) => Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i);
  useEffect(() => {
    generation.current++;
    if (pages.key !== key) view.current = { first: 0, last: 0 };
    const { first, last } = view.current;
    // A change of the queue keeps the pages on screen until their new rows arrive (the others are read again when shown); another query starts from the top.
    setPages((prev) => ({ ...prev, map: new Map([...prev.map].filter(([p]) => prev.key === key && p >= first && p <= last)) }));
    load(pagesIn(first, last));
  }, [head.data]);

  /** The table shows rows `from`…`to`: read the pages they are on (and one either side). */
  const showRows = useCallback(
    (from: number, to: number) => {
      const first = Math.max(0, Math.floor(from / EMAIL_PAGE) - 1);
      const last = Math.floor(to / EMAIL_PAGE) + 1;
      view.current = { first, last };
      const total = (current.current.head as { total: number } | undefined)?.total ?? 0;
      const lastPage = Math.max(0, Math.ceil(total / EMAIL_PAGE) - 1);
      const have = pages.head === current.current.head ? pages.map : new Map();
      load(pagesIn(first, Math.min(last, lastPage)).filter((p) => !have.has(p)));
    },
    [load, pages],
  );

  const samePages = pages.key === key;
  const rowAt = useCallback(
    (index: number): EmailEntry | undefined => {
      const p = Math.floor(index / EMAIL_PAGE);
      const rows = p === 0 ? head.data?.items : samePages ? pages.map.get(p) : undefined;
      return rows?.[index - p * EMAIL_PAGE];
    },
    [head.data, pages, samePages],
  );
  const total = head.data?.total ?? 0;

  const selection = useSelection(key, request, rowAt, head.data, pages.map, onError);
  return {
    status: status.data,
    counts: head.data?.counts ?? status.data?.counts,
    queueTotal: status.data?.total ?? total,
    total,
    rowAt,
    showRows,
    queryKey: key,
    reload: head.reload,
    exportQuery: filter,
    ...selection,
  };
}

export type EmailQueue = ReturnType<typeof useEmailQueue>;

/** The selected entries: cleared when the query changes, their states kept current from the rows read. */
function useSelection(
  key: string,
  request: object,
  rowAt: (index: number) => EmailEntry | undefined,
  head: { items: EmailEntry[] } | undefined,
  pages: ReadonlyMap<number, EmailEntry[]>,
  onError: (error: unknown) => void,
) {
  const [selected, setSelected] = useState<Selection>(new Map());
  useEffect(() => setSelected(new Map()), [key]);
  useEffect(() => {
    setSelected((prev) => {
      if (prev.size === 0) return prev;
      let next: Map<number, EmailState> | null = null;
      for (const rows of [head?.items ?? [], ...pages.values()]) {
        for (const e of rows) {
          const was = prev.get(e.id);
          if (was !== undefined && was !== e.state) (next ??= new Map(prev)).set(e.id, e.state);
        }
      }
      return next ?? prev;
    });
  }, [head, pages]);

  const keys = useCallback(
    async (offset: number, limit: number) => {
      const r = await bridge.call('emails.keys', { ...request, offset, limit });
      return r.ids.map((id, i) => [id, r.states[i]!] as const);
    },
    [request],
  );

  // Click (or Space) toggles one row; Shift extends from the last toggled row to this one (read from main: rows off screen count too).
  const anchor = useRef<number | null>(null);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;
  const rowAtRef = useRef(rowAt);
  rowAtRef.current = rowAt;
  const toggle = useCallback(
    (id: number, index: number, range: boolean) => {
      const from = anchor.current;
      anchor.current = index;
      const entry = rowAtRef.current(index);
      if (range && from !== null) {
        const on = !selectedRef.current.has(id);
        const [a, b] = from < index ? [from, index] : [index, from];
        keys(a, b - a + 1).then((rows) => {
          setSelected((prev) => {
            const next = new Map(prev);
            for (const [rowId, state] of rows) {
              if (on) next.set(rowId, state);
              else next.delete(rowId);
            }
            return next;
          });
        }, onError);
        return;
      }
      setSelected((prev) => {
        const next = new Map(prev);
        if (next.has(id)) next.delete(id);
        else if (entry) next.set(id, entry.state);
        return next;
      });
    },
    [keys, onError],
  );

  const selectAll = useCallback(
    (all: boolean, total: number) => {
      if (!all || total === 0) return setSelected(new Map());
      keys(0, total).then((rows) => setSelected(new Map(rows)), onError);
    },
    [keys, onError],
  );

  return { selected, setSelected, toggle, selectAll };
}
