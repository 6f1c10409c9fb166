import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ItemStateSchema, type DownloadItemView, type DownloadJob, type ItemState } from '../../../common/calls/downloads';
import { pick } from '../../../common/model';
import { useLang } from '../app/error-text';
import { SelectField } from '../app/fields';
import { useTablePages } from '../app/useTablePages';
import { DataRow, VirtualRows } from '../app/VirtualRows';
import { bridge } from '../bridge';

const FILTERS: ReadonlyArray<ItemState | 'all'> = ['all', 'failed', 'saved', 'skipped', 'pending'];
const ROW_HEIGHT = 34;
const PAGE = 200;

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
  /** The pages around the visible rows (a job of 100 000 items is never held whole); a failed read is tried again. */
  const pages = useTablePages<DownloadItemView>({ pageSize: PAGE, onError: () => {} });
  useSyncExternalStore(pages.subscribe, pages.getVersion);
  const total = pages.total() ?? 0;

  // Read again what is visible whenever the job's counts change (progress events are throttled).
  useEffect(() => {
    const state = filter === 'all' ? {} : { state: filter };
    pages.load(`${job.id} ${filter}`, null, (offset, limit) => bridge.call('downloads.items', { jobId: job.id, offset, limit, ...state }));
  }, [job.id, job.done, job.status, filter, pages]);

  return (
    <>
      <SelectField
        className="downloads-select"
        label={t('downloads.filter')}
        value={filter}
        onChange={setFilter}
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
          empty={pages.total() === null ? null : <p>{t('downloads.noItems')}</p>}
          onRange={pages.show}
          row={(place) => {
            const item = pages.row(place.index);
            return (
              <DataRow key={place.index} place={place} className={`downloads-row downloads-item-${item?.state ?? 'loading'}`} data-status={item?.state}>
                <span role="cell">{item?.transactionId ?? '…'}</span>
                <span role="cell">{item ? stateWords[item.state] : ''}</span>
                <span role="cell" title={item?.file ?? undefined}>
                  {item?.file ?? ''}
                </span>
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
