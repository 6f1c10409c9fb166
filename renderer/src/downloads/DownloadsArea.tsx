import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadJob } from '../../../common/calls/downloads';
import { formatCount, formatDateTime } from '../../../common/format';
import { jobStatusWord } from '../../../common/rules/download-jobs';
import { useLang } from '../app/error-text';
import { Notice, useNotice } from '../app/Notice';
import { useLive } from '../app/useLive';
import { JobView } from './JobView';
import { NewJobForm } from './NewJobForm';

function withJob(list: DownloadJob[], job: DownloadJob): DownloadJob[] {
  return list.some((j) => j.id === job.id) ? list.map((j) => (j.id === job.id ? job : j)) : [job, ...list];
}

/** The Downloads area: a form for a new job, the list of jobs, and the selected job's progress and items. */
export function DownloadsArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const { notice, show, fail, clear } = useNotice();
  const live = useLive('downloads.list', {}, { 'downloads.progress': (job, current) => current && { jobs: withJob(current.jobs, job) } }, { onError: fail });
  const jobs = live.data?.jobs ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? jobs[0]?.id ?? null;

  const job = jobs.find((j) => j.id === selected) ?? null;
  return (
    <div className="downloads">
      <NewJobForm
        onCreated={(created, text) => {
          // A short job can finish before this answer arrives: its progress events are newer, keep them.
          live.set((current) => (current?.jobs.some((j) => j.id === created.id) ? current : { jobs: [created, ...(current?.jobs ?? [])] }));
          void live.reload();
          setChosen(created.id);
          show('ok', text);
        }}
        onError={(text) => show('error', text)}
      />
      <div className="downloads-side">
        <Notice notice={notice} onDismiss={clear} dismissLabel={t('app.dismiss')} />
        {job && (
          <JobView
            key={job.id}
            job={job}
            onNotice={show}
            onRemoved={() => {
              live.set((current) => current && { jobs: current.jobs.filter((j) => j.id !== job.id) });
              setChosen(null);
            }}
          />
        )}
        <section aria-labelledby="downloads-jobs">
          <h2 id="downloads-jobs">{t('downloads.jobs')}</h2>
          {jobs.length === 0 ? (
            <p>{t('downloads.noJobs')}</p>
          ) : (
            <ul className="downloads-jobs">
              {jobs.map((j) => (
                <li key={j.id}>
                  <button type="button" aria-pressed={j.id === selected} onClick={() => setChosen(j.id)}>
                    {t(`downloads.types.${j.type}`)} · {formatCount(j.total, lang)} · {t(`downloads.status.${jobStatusWord(j)}`)} ·{' '}
                    {formatDateTime(j.createdAt, lang)}
                    <span className="downloads-job-folder" title={j.folder}>
                      {j.folder}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
