import { useCallback, useEffect, useLayoutEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';

/** What a row needs from the body: where it stands, and whether it holds the one tab stop of the table. */
export interface RowPlace {
  index: number;
  start: number;
  height: number;
  focusable: boolean;
  onFocusRow: (index: number) => void;
}

interface VirtualRowsProps {
  count: number;
  rowHeight: number;
  /** The scroll container's own class (its height comes from the screen's CSS). */
  className: string;
  testId: string;
  /** Shown instead of rows when there are none; `null` while the count is still unknown. */
  empty: ReactNode;
  /** Changes with the query: the body goes back to the top. */
  resetKey?: string;
  /** The rows now in view (plus the overscan): the screen reads their pages. */
  onRange: (first: number, last: number) => void;
  /** After the arrow keys moved to `index`; `shift` held (a range selection may grow). */
  onMove?: (index: number, shift: boolean) => void;
  /** Rows without a checkbox: the body itself takes the focus, so the keyboard can scroll it. */
  focusBody?: boolean;
  row: (place: RowPlace) => ReactNode;
}

/**
 * Rows kept beyond the view: more ahead, in the direction the table last scrolled (at 400 px a
 * frame, 10 rows enter each frame and must already be there), few behind (enough for a wheel
 * notch back). Each row in the DOM is laid out, painted and layered again every frame: the 12 behind
 * cost about a fifth of a fast scroll's main-thread time, measured in the queue benchmark.
 */
const OVERSCAN = 12;
const OVERSCAN_BEHIND = 3;

/**
 * Which rows of equal height are in view: computed from the scroll offset alone, so a table of
 * 100 000 rows costs no more than one of 100 (no per-row measurements to rebuild when the count
 * changes). The rows above and below the view come one frame after the table is first painted: the
 * screen's first paint draws only what can be seen.
 */
function useRowWindow(count: number, rowHeight: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 0, down: true });
  const [overscan, setOverscan] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setOverscan(OVERSCAN), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.scrollTop;
    const height = el.clientHeight;
    // At either end the only way on is away from it, whichever way the last scroll went.
    const end = top <= 0 ? true : top + height >= el.scrollHeight - 1 ? false : undefined;
    setView((prev) => {
      const down = end ?? (top === prev.top ? prev.down : top > prev.top);
      const same = Math.floor(prev.top / rowHeight) === Math.floor(top / rowHeight) && prev.height === height && prev.down === down;
      return same ? prev : { top, height, down };
    });
  }, [rowHeight]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, [measure, count]);
  const behind = Math.min(overscan, OVERSCAN_BEHIND);
  const first = Math.max(0, Math.floor(view.top / rowHeight) - (view.down ? behind : overscan));
  const last = Math.max(0, Math.min(count - 1, Math.ceil((view.top + view.height) / rowHeight) + (view.down ? overscan : behind)));
  /** Brings row `i` into view, moving as little as possible. */
  const scrollToIndex = (i: number) => {
    const el = ref.current;
    if (!el) return;
    const top = i * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
  };
  return { ref, first, last, scrollToIndex };
}

/**
 * The scrolling body of a long table: only the rows in view exist, and the arrow keys, Page Up/Down,
 * Home and End move the focus from row to row (one tab stop: the checkbox of the active row).
 */
export function VirtualRows({ count, rowHeight, className, testId, empty, resetKey, onRange, onMove, focusBody, row }: VirtualRowsProps) {
  const [active, setActive] = useState(0);
  const { ref: scrollRef, first, last, scrollToIndex } = useRowWindow(count, rowHeight);
  useEffect(() => {
    if (count > 0) onRange(first, last);
  }, [first, last, count, onRange]);
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    setActive(0);
  }, [resetKey, scrollRef]);

  // A row moved to by the keyboard may exist only after the scroll has rendered a new window: its
  // checkbox takes the focus once it is there (after this render or a later one).
  const focusing = useRef<number | null>(null);
  const focusPending = () => {
    const i = focusing.current;
    const box = i === null ? null : scrollRef.current?.querySelector<HTMLInputElement>(`[data-index="${i}"] input[type=checkbox]`);
    if (!box) return;
    focusing.current = null;
    box.focus();
  };
  useEffect(focusPending);

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.target instanceof HTMLInputElement) || e.target.type !== 'checkbox' || count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / rowHeight) - 1);
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: count - 1,
    };
    const target = moves[e.key];
    if (target === undefined) return;
    e.preventDefault();
    const i = Math.max(0, Math.min(count - 1, target));
    setActive(i);
    onMove?.(i, e.shiftKey);
    scrollToIndex(i);
    focusing.current = i;
    focusPending();
  };
  const rows: ReactNode[] = [];
  if (count > 0) {
    for (let i = first; i <= last; i++) rows.push(row({ index: i, start: i * rowHeight, height: rowHeight, focusable: i === active, onFocusRow: setActive }));
  }
  return (
    <div ref={scrollRef} className={`${className} virtual-rows`} role="rowgroup" onKeyDown={onKey} data-testid={testId} {...(focusBody ? { tabIndex: 0 } : {})}>
      {count === 0 ? empty : <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>}
    </div>
  );
}

type RowAttributes = HTMLAttributes<HTMLDivElement> & { 'data-tx'?: string; 'data-state'?: string };

/** A row of a VirtualRows body, placed at its offset and numbered after the header row; `selected` undefined: not selectable yet. */
export function DataRow({
  place: { index, start, height },
  selected,
  className,
  children,
  ...attributes
}: { place: Pick<RowPlace, 'index' | 'start' | 'height'>; selected?: boolean; className: string; children?: ReactNode } & RowAttributes) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      className={`data-row ${className}`}
      style={{ transform: `translateY(${start}px)`, height }}
      {...attributes}
    >
      {children}
    </div>
  );
}
