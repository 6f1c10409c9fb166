import { useTranslation } from 'react-i18next';
import type { DownloadJob } from '../../../common/calls/downloads';
import { formatBytes, formatCount, formatEta } from '../../../common/format';
import { pick } from '../../../common/model';
import { jobActions, jobStatusWord } from '../../../common/rules/download-jobs';
import { useErrorText, useLang } from '../app/error-text';
import type { NoticeKind } from '../app/Notice';
import { saveTextFile } from '../app/save-file';
import { bridge } from '../bridge';
import { JobItems } from './JobItems';

/** One job: its progress, counts, speed, the actions that fit its state, and its items. */
export function JobView({ job, onNotice, onRemoved }: { job: DownloadJob; onNotice: (kind: NoticeKind, text: string) => void; onRemoved: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const errorText = useErrorText();
  const n = (value: number) => formatCount(value, lang);

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (error) {
      onNotice('error', errorText(error));
    }
  };

  const exportFailed = () =>
    act(async () => {
      const res = await bridge.call('downloads.exportFailed', { jobId: job.id });
      saveTextFile(res.fileName, res.csv, 'text/csv;charset=utf-8');
    });

  const openFolder = () =>
    act(async () => {
      const res = await bridge.call('downloads.openFolder', { jobId: job.id });
      if (!res.opened) onNotice('ok', t('downloads.folderIs', { folder: res.folder }));
    });

  const remove = () =>
    act(async () => {
      await bridge.call('downloads.remove', { jobId: job.id });
      onRemoved();
    });

  const percent = job.total === 0 ? 100 : Math.round((job.done / job.total) * 100);
  const running = job.status === 'running';
  const allowed = jobActions(job);
  return (
    <section className="downloads-job" aria-labelledby="downloads-job-title" data-testid="download-job">
      <h2 id="downloads-job-title">
        {t(`downloads.types.${job.type}`)} — {t(`downloads.status.${jobStatusWord(job)}`)}
      </h2>
      <p className="downloads-folder-line">{job.folder}</p>
      <progress max={job.total} value={job.done} aria-label={t('downloads.progressLabel')} data-testid="download-progress">
        {percent}%
      </progress>
      <p role="status" data-testid="download-counts">
        {t('downloads.counts', { done: n(job.done), total: n(job.total), saved: n(job.saved), skipped: n(job.skipped), failed: n(job.failed) })}
      </p>
      <p className="downloads-speed">
        {running
          ? t('downloads.speed', { bytes: formatBytes(job.bytes, lang), rate: formatBytes(Math.round(job.rate), lang), eta: formatEta(job.etaSeconds) })
          : t('downloads.size', { bytes: formatBytes(job.bytes, lang) })}
      </p>
      {job.lastError && <p role="alert">{pick(job.lastError, lang)}</p>}
      <div className="downloads-actions">
        {allowed.pause && (
          <button type="button" onClick={() => void act(() => bridge.call('downloads.pause', { jobId: job.id }))}>
            {t('downloads.pause')}
          </button>
        )}
        {allowed.resume && (
          <button type="button" onClick={() => void act(() => bridge.call('downloads.start', { jobId: job.id }))}>
            {t('downloads.resume')}
          </button>
        )}
        {allowed.cancel && (
          <button type="button" onClick={() => void act(() => bridge.call('downloads.cancel', { jobId: job.id }))}>
            {t('downloads.cancel')}
          </button>
        )}
        <button type="button" disabled={!allowed.retryFailed} onClick={() => void act(() => bridge.call('downloads.retryFailed', { jobId: job.id }))}>
          {t('downloads.retryFailed')}
        </button>
        <button type="button" disabled={!allowed.exportFailed} onClick={() => void exportFailed()}>
          {t('downloads.exportFailed')}
        </button>
        <button type="button" onClick={() => void openFolder()}>
          {t('downloads.openFolder')}
        </button>
        <button type="button" onClick={() => void remove()}>
          {t('downloads.remove')}
        </button>
      </div>
      <JobItems job={job} />
    </section>
  );
}
