import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadItemView, DownloadJob, ExistingPolicy, ItemState } from '../../../common/calls/downloads';
import { DEFAULT_INVOICE_KIND, downloadFlags, kindFromFlags, pick, type DownloadDataType } from '../../../common/model';
import { bridge } from '../bridge';
import './downloads.css';
import { errorText, useLang } from '../app/error-text';

const TYPES: readonly DownloadDataType[] = ['Pdf', 'Xml', 'Html', 'All'];
const INITIAL_FLAGS = downloadFlags(DEFAULT_INVOICE_KIND);
const POLICIES: readonly ExistingPolicy[] = ['skip', 'overwrite', 'keepBoth'];
const FILTERS: ReadonlyArray<ItemState | 'all'> = ['all', 'failed', 'saved', 'skipped', 'pending'];
const ROW_HEIGHT = 34;
const PAGE = 200;


function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1048576).toFixed(1)} MB`;
}

function formatEta(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '–';
  const t = Math.round(s);
  return t >= 3600 ? `${Math.floor(t / 3600)}:${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}` : `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}

/** The Downloads area: a form for a new job, the list of jobs, and the selected job's progress and items. */
export function DownloadsArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const [jobs, setJobs] = useState<DownloadJob[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  const refresh = useCallback(async () => {
    const { jobs: list } = await bridge.call('downloads.list', {});
    setJobs(list);
    setSelected((cur) => cur ?? list[0]?.id ?? null);
  }, []);

  useEffect(() => {
    void refresh().catch((e: unknown) => setNotice({ kind: 'error', text: errorText(e, lang) }));
    return bridge.on('downloads.progress', (job) => {
      setJobs((list) => (list.some((j) => j.id === job.id) ? list.map((j) => (j.id === job.id ? job : j)) : [job, ...list]));
    });
  }, [refresh, lang]);

  const job = jobs.find((j) => j.id === selected) ?? null;
  return (
    <div className="downloads">
      <NewJobForm
        onCreated={(created, text) => {
          setJobs((list) => [created, ...list.filter((j) => j.id !== created.id)]);
          setSelected(created.id);
          setNotice({ kind: 'ok', text });
        }}
        onError={(text) => setNotice({ kind: 'error', text })}
      />
      {notice && (
        <p role={notice.kind === 'error' ? 'alert' : 'status'} className={`downloads-notice downloads-notice-${notice.kind}`}>
          {notice.text}
        </p>
      )}
      <section aria-labelledby="downloads-jobs">
        <h2 id="downloads-jobs">{t('downloads.jobs')}</h2>
        {jobs.length === 0 ? (
          <p>{t('downloads.noJobs')}</p>
        ) : (
          <ul className="downloads-jobs">
            {jobs.map((j) => (
              <li key={j.id}>
                <button type="button" aria-pressed={j.id === selected} onClick={() => setSelected(j.id)}>
                  {t(`downloads.types.${j.type}`)} · {j.total} · {t(`downloads.status.${j.status}`)} · {new Date(j.createdAt).toLocaleString(lang === 'vi' ? 'vi-VN' : 'en-GB')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
      {job && (
        <JobView
          key={job.id}
          job={job}
          onNotice={setNotice}
          onRemoved={() => {
            setJobs((list) => list.filter((j) => j.id !== job.id));
            setSelected(null);
          }}
        />
      )}
    </div>
  );
}

function NewJobForm(props: { onCreated: (job: DownloadJob, text: string) => void; onError: (text: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [idsText, setIdsText] = useState('');
  const [fileName, setFileName] = useState<string | undefined>(undefined);
  const [hint, setHint] = useState<{ ids: number; duplicates: number; blanks: number } | null>(null);
  const [type, setType] = useState<DownloadDataType>('Pdf');
  const [withCode, setWithCode] = useState(INITIAL_FLAGS.invoiceWithCode);
  const [calc, setCalc] = useState(INITIAL_FLAGS.invoiceCalcu);
  const [folder, setFolder] = useState('');
  const [existing, setExisting] = useState<ExistingPolicy>('skip');
  const [unzip, setUnzip] = useState(false);
  const [busy, setBusy] = useState(false);
  /** Whether the host has a folder dialog: unknown until the button is used (the browser host has none). */
  const [dialog, setDialog] = useState<boolean | null>(null);

  useEffect(() => {
    if (idsText.trim() === '') {
      setHint(null);
      return;
    }
    const timer = setTimeout(() => {
      bridge.call('downloads.parseIds', { idsText, ...(fileName ? { fileName } : {}) }).then(setHint, () => setHint(null));
    }, 200);
    return () => clearTimeout(timer);
  }, [idsText, fileName]);

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    setIdsText(await file.text());
    setFileName(file.name);
  };

  const choose = async () => {
    try {
      const answer = await bridge.call('downloads.chooseFolder', folder ? { defaultPath: folder } : {});
      setDialog(answer.supported);
      if (answer.folder) setFolder(answer.folder);
    } catch (error) {
      props.onError(errorText(error, lang));
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await bridge.call('downloads.create', {
        idsText,
        ...(fileName ? { fileName } : {}),
        type,
        kind: kindFromFlags(withCode, calc),
        folder,
        existing,
        unzip: type === 'All' && unzip,
      });
      props.onCreated(res.job, `${t('downloads.created', { count: res.added })} ${t('downloads.idsHint', { ids: res.added, duplicates: res.duplicates, blanks: res.blanks })}`);
      setIdsText('');
      setFileName(undefined);
    } catch (error) {
      props.onError(errorText(error, lang));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="downloads-form" onSubmit={(e) => void submit(e)} aria-labelledby="downloads-new">
      <h2 id="downloads-new">{t('downloads.newJob')}</h2>
      <label className="downloads-ids">
        <span>{t('downloads.ids')}</span>
        <textarea
          value={idsText}
          rows={6}
          onChange={(e) => {
            setIdsText(e.target.value);
            setFileName(undefined);
          }}
          spellCheck={false}
        />
      </label>
      {hint && (
        <p className="downloads-hint" data-testid="ids-hint">
          {t('downloads.idsHint', hint)}
        </p>
      )}
      <label>
        <span>{t('downloads.importFile')}</span> <input type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(e) => void onFile(e)} />
      </label>
      <fieldset>
        <legend>{t('downloads.type')}</legend>
        {TYPES.map((ty) => (
          <label key={ty}>
            <input type="radio" name="download-type" value={ty} checked={type === ty} onChange={() => setType(ty)} /> {t(`downloads.types.${ty}`)}
          </label>
        ))}
      </fieldset>
      <label>
        <input type="checkbox" checked={withCode} onChange={(e) => setWithCode(e.target.checked)} /> {t('downloads.withCode')}
      </label>
      <label>
        <input type="checkbox" checked={calc} onChange={(e) => setCalc(e.target.checked)} /> {t('downloads.calc')}
      </label>
      {type === 'All' && (
        <label>
          <input type="checkbox" checked={unzip} onChange={(e) => setUnzip(e.target.checked)} /> {t('downloads.unzip')}
        </label>
      )}
      <div className="downloads-folder">
        <label>
          <span>{t('downloads.folder')}</span>
          <input type="text" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder={t('downloads.folderHint')} required spellCheck={false} />
        </label>
        {dialog !== false && (
          <button type="button" onClick={() => void choose()}>
            {t('downloads.chooseFolder')}
          </button>
        )}
        {dialog === false && <small>{t('downloads.folderHint')}</small>}
      </div>
      <label>
        <span>{t('downloads.existing')}</span>{' '}
        <select value={existing} onChange={(e) => setExisting(e.target.value as ExistingPolicy)}>
          {POLICIES.map((p) => (
            <option key={p} value={p}>
              {t(`downloads.policies.${p}`)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="primary" disabled={busy || idsText.trim() === '' || folder.trim() === ''}>
        {t('downloads.start')}
      </button>
    </form>
  );
}

function JobView({ job, onNotice, onRemoved }: { job: DownloadJob; onNotice: (n: { kind: 'ok' | 'error'; text: string }) => void; onRemoved: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [filter, setFilter] = useState<ItemState | 'all'>('all');
  const [total, setTotal] = useState(0);
  const [rows, setRows] = useState<Map<number, DownloadItemView>>(new Map());
  const loaded = useRef(new Set<number>());
  const scrollRef = useRef<HTMLDivElement>(null);

  const loadPage = useCallback(
    async (page: number) => {
      const res = await bridge.call('downloads.items', { jobId: job.id, offset: page * PAGE, limit: PAGE, ...(filter === 'all' ? {} : { state: filter }) });
      setTotal(res.total);
      setRows((prev) => {
        const next = new Map(prev);
        res.items.forEach((item, i) => next.set(page * PAGE + i, item));
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
    loaded.current = new Set();
    const pages = new Set([firstPage, lastPage]);
    for (const p of pages) void loadPage(p).catch(() => {});
  }, [job.done, job.status, filter, firstPage, lastPage, loadPage]);

  const act = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) onNotice({ kind: 'ok', text: ok });
    } catch (error) {
      onNotice({ kind: 'error', text: errorText(error, lang) });
    }
  };

  const exportFailed = () =>
    act(async () => {
      const res = await bridge.call('downloads.exportFailed', { jobId: job.id });
      const url = URL.createObjectURL(new Blob([res.csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = res.fileName;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    });

  const openFolder = () =>
    act(async () => {
      const res = await bridge.call('downloads.openFolder', { jobId: job.id });
      if (!res.opened) onNotice({ kind: 'ok', text: t('downloads.folderIs', { folder: res.folder }) });
    });

  const percent = job.total === 0 ? 100 : Math.round((job.done / job.total) * 100);
  const running = job.status === 'running';
  return (
    <section className="downloads-job" aria-labelledby="downloads-job-title" data-testid="download-job">
      <h2 id="downloads-job-title">
        {t(`downloads.types.${job.type}`)} — {t(`downloads.status.${job.status}`)}
      </h2>
      <p className="downloads-folder-line">{job.folder}</p>
      <progress max={job.total} value={job.done} aria-label={t('downloads.progressLabel')} data-testid="download-progress">
        {percent}%
      </progress>
      <p role="status" data-testid="download-counts">
        {t('downloads.counts', { done: job.done, total: job.total, saved: job.saved, skipped: job.skipped, failed: job.failed })}
      </p>
      <p className="downloads-speed">
        {t('downloads.speed', { bytes: formatBytes(job.bytes), rate: formatBytes(Math.round(job.rate)), eta: formatEta(job.etaSeconds) })}
      </p>
      {job.lastError && <p role="alert">{pick(job.lastError, lang)}</p>}
      <div className="downloads-actions">
        {running ? (
          <button type="button" onClick={() => void act(() => bridge.call('downloads.pause', { jobId: job.id }))}>
            {t('downloads.pause')}
          </button>
        ) : (
          job.status !== 'done' && (
            <button type="button" onClick={() => void act(() => bridge.call('downloads.start', { jobId: job.id }))}>
              {t('downloads.resume')}
            </button>
          )
        )}
        {(running || job.status === 'paused' || job.status === 'ready') && (
          <button type="button" onClick={() => void act(() => bridge.call('downloads.cancel', { jobId: job.id }))}>
            {t('downloads.cancel')}
          </button>
        )}
        <button type="button" disabled={job.failed === 0} onClick={() => void act(() => bridge.call('downloads.retryFailed', { jobId: job.id }))}>
          {t('downloads.retryFailed')}
        </button>
        <button type="button" disabled={job.failed === 0} onClick={() => void exportFailed()}>
          {t('downloads.exportFailed')}
        </button>
        <button type="button" onClick={() => void openFolder()}>
          {t('downloads.openFolder')}
        </button>
        <button
          type="button"
          onClick={() =>
            void act(async () => {
              await bridge.call('downloads.remove', { jobId: job.id });
              onRemoved();
            })
          }
        >
          {t('downloads.remove')}
        </button>
      </div>
      <label>
        <span>{t('downloads.filter')}</span>{' '}
        <select
          value={filter}
          onChange={(e) => {
            setRows(new Map());
            setFilter(e.target.value as ItemState | 'all');
          }}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {f === 'all' ? t('downloads.all') : t(`downloads.itemStatus.${f}`)}
            </option>
          ))}
        </select>
      </label>
      <div className="downloads-table" role="table" aria-label={t('downloads.itemsLabel')} aria-rowcount={total}>
        <div className="downloads-row downloads-head" role="row">
          <span role="columnheader">{t('downloads.columns.id')}</span>
          <span role="columnheader">{t('downloads.columns.status')}</span>
          <span role="columnheader">{t('downloads.columns.file')}</span>
          <span role="columnheader">{t('downloads.columns.error')}</span>
        </div>
        <div ref={scrollRef} className="downloads-scroll" role="rowgroup" data-testid="download-items">
          {total === 0 ? (
            <p>{t('downloads.noItems')}</p>
          ) : (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {visible.map((v) => {
                const item = rows.get(v.index);
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
    </section>
  );
}
