import type { DownloadJob } from '../calls/downloads';

/** What a person may do with a download job in its present state. */
export interface JobActions {
  pause: boolean;
  /** Start a job that is ready, or continue one that was paused or cancelled. */
  resume: boolean;
  cancel: boolean;
  retryFailed: boolean;
  exportFailed: boolean;
}

export function jobActions(job: Pick<DownloadJob, 'status' | 'failed'>): JobActions {
  const running = job.status === 'running';
  return {
    pause: running,
    resume: !running && job.status !== 'done',
    cancel: running || job.status === 'paused' || job.status === 'ready',
    retryFailed: job.failed > 0,
    exportFailed: job.failed > 0,
  };
}

/** The word a job's state is shown by: a finished job with failed items does not look like a clean one. */
export type JobStatusWord = DownloadJob['status'] | 'doneWithErrors';

export function jobStatusWord(job: Pick<DownloadJob, 'status' | 'failed'>): JobStatusWord {
  return job.status === 'done' && job.failed > 0 ? 'doneWithErrors' : job.status;
}
