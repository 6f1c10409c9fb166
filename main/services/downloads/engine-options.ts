import type { DownloadOptions, FetchedBytes } from '../api/client';
import type { ApiError } from '../api/errors';
import type { DownloadResult } from '../api/normalise';
import type { EngineProgress } from './progress';
import type { JobRow, JobsRepository } from './repository';
import type { ZipLimits } from './zip';

/** The part of the service client the engine uses (ApiClient satisfies it). */
export interface DownloadClient {
  download(ids: readonly string[], opts?: DownloadOptions): Promise<DownloadResult>;
  fetchBytes(link: string, opts?: { signal?: AbortSignal }): Promise<FetchedBytes>;
}

export interface EngineOptions {
  repo: JobsRepository;
  client: DownloadClient;
  job: JobRow;
  /** Download calls in flight at once (default 4). */
  concurrency?: number;
  /** IDs per call (default and maximum 50). */
  batchSize?: number;
  /** Extra rounds for a batch whose call failed transiently after the client's own retries (default 3). */
  batchRetries?: number;
  /** First wait between those rounds (default 1 s, doubling). */
  retryDelayMs?: number;
  zipLimits?: ZipLimits;
  /** Called at most every `progressIntervalMs` (default 100 ms) and once at the end. */
  onProgress?: (progress: EngineProgress) => void;
  progressIntervalMs?: number;
  /** fsync files and the folder (default true; tests of other things may turn it off). */
  durable?: boolean;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export type EngineOutcome =
  | { kind: 'done' }
  | { kind: 'stopped' }
  /** The service refused the sign-in: the job waits for a new token. */
  | { kind: 'auth'; error: ApiError };
