import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadItemView, DownloadJob, ItemState } from '../../../common/calls/downloads';
import { pick } from '../../../common/model';
import { useLang } from '../app/error-text';
import { SelectField } from '../app/fields';
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
  const [filter, setFilter] = useState<ItemState | 'all'>('all');
  const [total, setTotal] = useState(0);
  /** The pages around the visible rows (a job of 100 000 items is never held whole). */
  const [pages, setPages] = useState<Map<number, DownloadItemView[]>>(new Map());
  const scrollRef = useRef<HTMLDivElement>(null);

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

  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 20 });
  const visible = virtualizer.getVirtualItems();
  const firstPage = visible.length ? Math.floor(visible[0]!.index / PAGE) : 0;
  const lastPage = visible.length ? Math.floor(visible[visible.length - 1]!.index / PAGE) : 0;

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
        options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? t('downloads.all') : t(`downloads.itemStatus.${f}`) }))}
      />
      <div className="downloads-table" role="table" aria-label={t('downloads.itemsLabel')} aria-rowcount={total}>
        <div className="downloads-row downloads-head" role="row">
          <span role="columnheader">{t('downloads.columns.id')}</span>
          <span role="columnheader">{t('downloads.columns.status')}</span>
          <span role="columnheader">{t('downloads.columns.file')}</span>
          <span role="columnheader">{t('downloads.columns.error')}</span>
        </div>
        <div ref={scrollRef} className="downloads-scroll" role="rowgroup" tabIndex={0} data-testid="download-items">
          {total === 0 ? (
            <p>{t('downloads.noItems')}</p>
          ) : (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {visible.map((v) => {
                const item = pages.get(Math.floor(v.index / PAGE))?.[v.index % PAGE];
                return (
                  <div
                    key={v.key}
                    role="row"
                    aria-rowindex={v.index + 2}
                    className={`downloads-row downloads-item-${item?.state ?? 'loading'}`}
                    data-status={item?.state}
                    style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${v.start}px)` }}
                  >
                    <span role="cell">{item?.transactionId ?? '…'}</span>
                    <span role="cell">{item ? t(`downloads.itemStatus.${item.state}`) : ''}</span>
                    <span role="cell">{item?.file ?? ''}</span>
                    <span role="cell" title={item?.message ? pick(item.message, lang) : ''}>
                      {item?.errorCode ? `${item.errorCode}: ${item.message ? pick(item.message, lang) : ''}` : ''}
                    </span>
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
    </>
  );
}
