import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemStateSchema, type DownloadItemView, type DownloadJob, type ItemState } from '../../../common/calls/downloads';
import { pick } from '../../../common/model';
import { useLang } from '../app/error-text';
import { SelectField } from '../app/fields';
import { DataRow, VirtualRows } from '../app/VirtualRows';
import { bridge } from '../bridge';

const FILTERS: ReadonlyArray<ItemState | 'all'> = ['all', 'failed', 'saved', 'skipped', 'pending'];
const ROW_HEIGHT = 34;
const PAGE = 200;
/** Pages kept on either side of the one just loaded. */
const KEPT_PAGES = 2;

/** A job's items: a status filter and a virtualised table that fetches the pages it shows. */
export function JobItems({ job }: { job: DownloadJob }) {
  const { t } = useTranslation();
  const lang = useLang();
  // Looked up once per language: the rows call no translation.
  const stateWords = useMemo(
    () => Object.fromEntries(ItemStateSchema.options.map((s) => [s, t(`downloads.itemStatus.${s}`)])) as Record<ItemState, string>,
    [t],
  );
  const [filter, setFilter] = useState<ItemState | 'all'>('all');
  const [total, setTotal] = useState(0);
  /** The pages around the visible rows (a job of 100 000 items is never held whole). */
  const [pages, setPages] = useState<Map<number, DownloadItemView[]>>(new Map());

  const loadPage = useCallback(
    async (page: number) => {
      const res = await bridge.call('downloads.items', { jobId: job.id, offset: page * PAGE, limit: PAGE, ...(filter === 'all' ? {} : { state: filter }) });
      setTotal(res.total);
      setPages((prev) => {
        const next = new Map([...prev].filter(([p]) => Math.abs(p - page) <= KEPT_PAGES));
        next.set(page, res.items);
        return next;
      });
    },
    [job.id, filter],
  );

  const [range, setRange] = useState({ firstPage: 0, lastPage: 0 });
  const onRange = useCallback((first: number, last: number) => {
    const next = { firstPage: Math.floor(first / PAGE), lastPage: Math.floor(last / PAGE) };
    setRange((prev) => (prev.firstPage === next.firstPage && prev.lastPage === next.lastPage ? prev : next));
  }, []);
  const { firstPage, lastPage } = range;

  // Reload what is visible whenever the job's counts change (progress events are throttled).
  useEffect(() => {
    for (const p of new Set([firstPage, lastPage])) void loadPage(p).catch(() => {});
  }, [job.done, job.status, filter, firstPage, lastPage, loadPage]);

  return (
    <>
      <SelectField
        className="downloads-select"
        label={t('downloads.filter')}
        value={filter}
        onChange={(f) => {
          setPages(new Map());
          setFilter(f);
        }}
        options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('downloads.all') : stateWords[f] }))}
      />
      <div className="downloads-table" role="table" aria-label={t('downloads.itemsLabel')} aria-rowcount={total + 1}>
        <div className="downloads-row downloads-head" role="row" aria-rowindex={1}>
          <span role="columnheader">{t('downloads.columns.id')}</span>
          <span role="columnheader">{t('downloads.columns.status')}</span>
          <span role="columnheader">{t('downloads.columns.file')}</span>
          <span role="columnheader">{t('downloads.columns.error')}</span>
        </div>
        <VirtualRows
          count={total}
          rowHeight={ROW_HEIGHT}
          className="downloads-scroll"
          testId="download-items"
          focusBody
          empty={<p>{t('downloads.noItems')}</p>}
          onRange={onRange}
          row={(place) => {
            const item = pages.get(Math.floor(place.index / PAGE))?.[place.index % PAGE];
            return (
              <DataRow key={place.index} place={place} className={`downloads-row downloads-item-${item?.state ?? 'loading'}`} data-status={item?.state}>
                <span role="cell">{item?.transactionId ?? '…'}</span>
                <span role="cell">{item ? stateWords[item.state] : ''}</span>
                <span role="cell">{item?.file ?? ''}</span>
                <span role="cell" title={item?.message ? pick(item.message, lang) : ''}>
                  {item?.errorCode ? (item.message ? `${pick(item.message, lang)} [${item.errorCode}]` : item.errorCode) : ''}
                </span>
              </DataRow>
            );
          }}
        />
      </div>
    </>
  );
}
