import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';

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
  row: (place: RowPlace) => ReactNode;
}

/**
 * The scrolling body of a long table: only the rows in view exist, and the arrow keys, Page Up/Down,
 * Home and End move the focus from row to row (one tab stop: the checkbox of the active row).
 */
export function VirtualRows({ count, rowHeight, className, testId, empty, resetKey, onRange, onMove, row }: VirtualRowsProps) {
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 12 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (count > 0) onRange(first, last);
  }, [first, last, count, onRange]);
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0;
    setActive(0);
  }, [resetKey]);

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
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLInputElement>(`[data-index="${i}"] input[type=checkbox]`)?.focus());
  };
  return (
    <div ref={scrollRef} className={`${className} virtual-rows`} role="rowgroup" onKeyDown={onKey} data-testid={testId}>
      {count === 0 ? (
        empty
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((v) => row({ index: v.index, start: v.start, height: rowHeight, focusable: v.index === active, onFocusRow: setActive }))}
        </div>
      )}
    </div>
  );
}

type RowAttributes = HTMLAttributes<HTMLDivElement> & { 'data-tx'?: string; 'data-state'?: string };

/** A row of a VirtualRows body, placed at its offset and numbered after the header row; `selected` undefined: not selectable yet. */
export function DataRow({
  index,
  start,
  height,
  selected,
  className,
  children,
  ...attributes
}: Pick<RowPlace, 'index' | 'start' | 'height'> & { selected?: boolean; className: string; children?: ReactNode } & RowAttributes) {
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
