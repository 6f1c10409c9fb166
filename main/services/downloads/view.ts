import type { DownloadJob } from '../../../common/calls/downloads';
import type { EngineProgress } from './progress';
import type { JobRow } from './repository';

/** The contract's view of a job: its row's counters, with the live rate and ETA of a run in this process. */
export function jobView(job: JobRow, live: EngineProgress | null): DownloadJob {
  const c = job.counts;
  const done = c.saved + c.skipped + c.failed;
  return {
    id: job.id,
    type: job.type,
    kind: job.kind,
    folder: job.folder,
    existing: job.existing,
    unzip: job.unzip,
    status: job.status,
    total: c.total,
    saved: c.saved,
    skipped: c.skipped,
    failed: c.failed,
    done,
    bytes: c.bytes,
    rate: live?.rate ?? 0,
    itemsPerSecond: live?.itemsPerSecond ?? 0,
    etaSeconds: job.status === 'running' ? (live?.etaSeconds ?? null) : done === c.total ? 0 : null,
    lastError: job.lastError,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
