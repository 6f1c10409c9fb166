import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { initialFilter, toQuery, useDebounced, type FilterState } from './IssuedFilters';
import { useRegisterPages } from './useRegisterPages';
import { MAX_SELECT, useSelection } from './useSelection';
import { formatCount } from '../../../common/format';
import { useLang } from '../app/error-text';

/** The area's last filter, so coming back to the screen shows the same invoices (for this session). */
let kept: FilterState | null = null;

/**
 * The register's filters, table and selection, shared by the Issued invoices area (`keep`: its
 * filter outlives a visit to another area) and the chooser of other screens.
 */
export function useRegisterScreen(onError: (e: unknown) => void, keep = false) {
  const { t } = useTranslation();
  const [filter, setFilterState] = useState<FilterState>(() => (keep && kept) || initialFilter());
  const setFilter = useCallback(
    (next: FilterState) => {
      if (keep) kept = next;
      setFilterState(next);
    },
    [keep],
  );
  const text = useDebounced(filter.text);
  const query = toQuery(filter, text);
  const ok = 'filter' in query ? query : null;
  const key = ok ? JSON.stringify(ok.filter) : '';
  const pages = useRegisterPages(ok?.filter ?? null, onError);
  const selection = useSelection(pages, key, onError);
  const lang = useLang();
  const { selectAll: chooseAll } = selection;
  const total = pages.total;
  /** Every match, or (over MAX_SELECT) nothing and `warn` says why. */
  const selectAll = useCallback(
    (warn: (text: string) => void) =>
      void chooseAll().then((r) => {
        if (r === 'tooMany') warn(t('issued.tooMany', { total: formatCount(total ?? 0, lang), max: formatCount(MAX_SELECT, lang) }));
      }, onError),
    [chooseAll, total, lang, t, onError],
  );
  const dateError = 'error' in query ? { field: query.error, text: t(query.reason === 'order' ? 'issued.badOrder' : 'issued.badDate') } : null;
  return { filter, setFilter, range: ok?.range ?? null, pages, selection, selectAll, dateError };
}

export type RegisterScreen = ReturnType<typeof useRegisterScreen>;
