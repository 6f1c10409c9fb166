import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { IssuedInvoice } from '../../../common/calls/register';
import type { useRegisterPages } from './useRegisterPages';

/** At most this many invoices are chosen at once by "select all" (one email batch). */
export const MAX_SELECT = 10_000;

type Pages = ReturnType<typeof useRegisterPages>;

/**
 * The chosen invoices, kept with their rows (so actions need no second lookup): click toggles one,
 * Shift extends from the last one toggled (fetching rows never shown), "all" takes every match.
 * A new filter starts a new choice.
 */
export function useSelection(pages: Pages, filterKey: string, onError: (error: unknown) => void) {
  const [chosen, setChosen] = useState<ReadonlyMap<string, IssuedInvoice>>(new Map());
  const anchor = useRef<number | null>(null);
  useEffect(() => {
    setChosen(new Map());
    anchor.current = null;
  }, [filterKey]);

  const { row, rows, total } = pages;
  const toggle = useCallback(
    (index: number, range: boolean) => {
      const target = row(index);
      if (!target) return;
      const from = anchor.current;
      anchor.current = index;
      const on = !chosen.has(target.transactionId);
      const apply = (list: IssuedInvoice[]) =>
        setChosen((prev) => {
          const next = new Map(prev);
          for (const inv of list) {
            if (on) next.set(inv.transactionId, inv);
            else next.delete(inv.transactionId);
          }
          return next;
        });
      if (!range || from === null || from === index) return apply([target]);
      const [a, b] = from < index ? [from, index] : [index, from];
      const cached: IssuedInvoice[] = [];
      for (let i = a; i <= b; i++) {
        const inv = row(i);
        if (!inv) {
          rows(a, b).then(apply, onError);
          return;
        }
        cached.push(inv);
      }
      apply(cached);
    },
    [row, rows, chosen, onError],
  );

  const allSelected = total !== null && total > 0 && chosen.size === total;
  const selectAll = useCallback(async (): Promise<'done' | 'tooMany'> => {
    if (allSelected) {
      setChosen(new Map());
      return 'done';
    }
    if (total === null || total === 0) return 'done';
    if (total > MAX_SELECT) return 'tooMany';
    const list = await rows(0, total - 1);
    setChosen(new Map(list.map((inv) => [inv.transactionId, inv])));
    return 'done';
  }, [allSelected, total, rows]);

  const list = useMemo(() => [...chosen.values()], [chosen]);
  const ids = useMemo(() => new Set(chosen.keys()), [chosen]);
  return { list, ids, allSelected, toggle, selectAll, clear: () => setChosen(new Map()) };
}
