import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { EMAIL_SORT_KEYS, EmailEntry, EmailState } from '../../../common/calls/emails';
import type { CallResponse } from '../../../common/contract';
import { bridge } from '../bridge';
import { useLive } from '../app/useLive';
import type { TablePages } from '../app/table-pages';
import { useTablePages } from '../app/useTablePages';

/**
 * Rows per page read from main: the table asks only for the pages around what it shows. The first
 * page alone fills the table (with its overscan) on screens up to about 2 000 px high; a smaller
 * page is less to answer, send and check on every open, sort and filter.
 */
export const EMAIL_PAGE = 50;

export type SortKey = (typeof EMAIL_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

export interface QueueQuery {
  filter: EmailState | 'all';
  search: string;
  sort: SortKey;
  dir: SortDir;
}

/** The query the screen opens with. */
export const FIRST_QUERY: QueueQuery = { filter: 'all', search: '', sort: 'id', dir: 'desc' };

/** The filter and search as the contract's list/export request. */
export function queryRequest(q: Pick<QueueQuery, 'filter' | 'search'>) {
  return { ...(q.filter === 'all' ? {} : { states: [q.filter] }), ...(q.search.trim() ? { search: q.search.trim() } : {}) };
}

function headRequest(filter: ReturnType<typeof queryRequest>, sort: SortKey, dir: SortDir) {
  return { ...filter, sort, dir, offset: 0, limit: EMAIL_PAGE };
}

type Head = CallResponse<'emails.list'>;
let early: { key: string; at: number; answer: Promise<Head>; value?: Head; stale: boolean; off: () => void } | null = null;

/**
 * Starts reading the first page of the opening query now (on the click that opens the screen), so
 * main answers while the screen mounts; the screen's first read takes this answer if it is fresh.
 * Resolves when the answer is in (or failed): the screen opened then shows its rows from its first
 * render.
 */
export function readQueueAhead(): Promise<unknown> {
  const request = headRequest(queryRequest(FIRST_QUERY), FIRST_QUERY.sort, FIRST_QUERY.dir);
  const answer = bridge.call('emails.list', request);
  early?.off();
  // The queue changing before the screen takes the answer makes it stale (the screen listens only once mounted).
  const off = bridge.on('emails.changed', () => {
    if (early?.answer === answer) early.stale = true;
  });
  const mine = { key: JSON.stringify(request), at: performance.now(), answer, stale: false, off } as NonNullable<typeof early>;
  early = mine;
  return answer.then(
    (value) => void (mine.value = value),
    () => undefined,
  );
}

/** Whether the early answer is for `request`, recent, and the queue has not changed since it was asked. */
function fresh(e: NonNullable<typeof early>, request: object): boolean {
  return !e.stale && e.key === JSON.stringify(request) && performance.now() - e.at < 2000;
}

function takeEarly(request: object): Promise<Head> | undefined {
  const taken = early;
  early = null;
  taken?.off();
  return taken && fresh(taken, request) ? taken.answer : undefined;
}

/**
 * The early answer, if it is in already and still fresh (the screen then renders its rows at once).
 * It stays listening for changes until the mounted screen takes it (takeEarly): a change in between
 * makes that take come back empty, and the screen reads again.
 */
function earlyValue(request: object): Head | undefined {
  return early && fresh(early, request) ? early.value : undefined;
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

  const filter = useMemo(() => queryRequest({ filter: query.filter, search: debounced }), [query.filter, debounced]);
  const request = useMemo(() => ({ ...filter, sort: query.sort, dir: query.dir }), [filter, query.sort, query.dir]);
  // The first page before the status: main answers them in turn, and the rows are what the screen waits for.
  const head = useLive(
    'emails.list',
    headRequest(filter, query.sort, query.dir),
    { 'emails.changed': 'reload' },
    { throttleMs: (s) => ((s as { total: number }).total > 2000 ? 1500 : 300), onError, first: takeEarly, ready: earlyValue },
  );
  const status = useLive('emails.status', {}, { 'emails.changed': (s) => s });
  const key = JSON.stringify(request);

  // The first page is the head (read with the counts, above): the table's pages read from the second on.
  const pages = useTablePages<EmailEntry>({ pageSize: EMAIL_PAGE, firstPage: 1, onError });
  const requestRef = useRef(request);
  requestRef.current = request;
  useEffect(() => {
    if (!head.data) return;
    const req = requestRef.current;
    pages.load(JSON.stringify(req), head.data.total, async (offset, limit) => ({
      items: (await bridge.call('emails.list', { ...req, offset, limit })).items,
    }));
  }, [head.data, pages]);

  const rowAt = useCallback(
    (index: number): EmailEntry | undefined => {
      const p = Math.floor(index / EMAIL_PAGE);
      const rows = p === 0 ? head.data?.items : pages.rows(key, p);
      return rows?.[index - p * EMAIL_PAGE];
    },
    [head.data, pages, key],
  );
  const total = head.data?.total ?? 0;

  const selection = useSelection(key, request, rowAt, head.data, pages, onError);
  return {
    status: status.data,
    counts: head.data?.counts ?? status.data?.counts,
    queueTotal: status.data?.total ?? total,
    total,
    rowAt,
    pages,
    /** The table shows rows `from`…`to`: the pages they are on are read (and one either side). */
    showRows: pages.show,
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
  pages: TablePages<EmailEntry>,
  onError: (error: unknown) => void,
) {
  const [selected, setSelected] = useState<Selection>(new Map());
  useEffect(() => setSelected((prev) => (prev.size === 0 ? prev : new Map())), [key]);
  useEffect(() => {
    const refresh = () =>
      setSelected((prev) => {
        if (prev.size === 0) return prev;
        let next: Map<number, EmailState> | null = null;
        for (const e of [...(head?.items ?? []), ...pages.all()]) {
          const was = prev.get(e.id);
          if (was !== undefined && was !== e.state) (next ??= new Map(prev)).set(e.id, e.state);
        }
        return next ?? prev;
      });
    refresh();
    return pages.subscribe(refresh);
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
