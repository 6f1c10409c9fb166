import type { DownloadJob, ExistingPolicy, JobStatus } from '../../../common/calls/downloads';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { DEFAULT_INVOICE_KIND, type Bilingual, type DownloadDataType, type InvoiceKind } from '../../../common/model';
import { failedItemsCsv } from './csv';
import { heartbeat, newOwner, ownerAlive, runningElsewhere, sameService } from './ownership';
import { jobView } from './view';
import { prepareFolder } from './folder';
import { DownloadEngine, type DownloadClient, type EngineOptions } from './engine';
import type { EngineProgress } from './progress';
import { dedupeIds, parseIdsText, type ParsedIds } from '../../../common/rules/transaction-ids';
import { JobsRepository, jobFingerprint, type JobRow, type JobSettings } from './repository';
import type { Store } from '../store';

export interface DownloadSession {
  profileId: string;
  /** The service address the client talks to: a job is never continued against another one. */
  baseUrl?: string;
  client: DownloadClient;
  /** Closes what the session opened (an HTTP pool). */
  release?: () => Promise<void> | void;
}

/** Host abilities the Electron host provides (a folder dialog, the file manager). */
export interface DialogsPort {
  chooseFolder?(defaultPath?: string): Promise<string | null>;
  openFolder?(folder: string): Promise<boolean>;
}

interface WorkRegistry {
  register(source: string, probe: () => { busy: boolean; message?: Bilingual }): () => void;
  changed?(): void;
}

export interface DownloadsDeps {
  store: Store;
  bus?: EventBus;
  work?: WorkRegistry;
  /** The active profile's id (jobs belong to it). */
  activeProfileId: () => string;
  /** A client signed in to the job's profile; waits for sign-in when needed (aborted by `signal`). */
  session: (profileId: string, signal: AbortSignal) => Promise<DownloadSession>;
  /** Tells the sign-in machinery the service refused the token. */
  reportAuthFailure?: (profileId: string) => Promise<void> | void;
  dialogs?: DialogsPort;
  engine?: Partial<Omit<EngineOptions, 'repo' | 'client' | 'job' | 'onProgress'>>;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

export interface CreateJobInput {
  ids?: readonly string[];
  idsText?: string;
  fileName?: string;
  type: DownloadDataType;
  kind?: InvoiceKind;
  folder: string;
  existing?: ExistingPolicy;
  unzip?: boolean;
}

interface Running {
  engine: DownloadEngine | undefined;
  done: Promise<void>;
  stopAs: 'paused' | 'cancelled' | null;
  progress: EngineProgress | null;
  abort: () => void;
}

function notFound(id: string): AppError {
  return new AppError('download_not_found', { en: `There is no download job ${id}.`, vi: `Không có lượt tải ${id}.` });
}

/**
 * Download jobs: created from pasted/imported IDs, kept in the database, run by the engine one
 * job at a time per id, progress published as `downloads.progress`. A job left running by a
 * process that stopped is resumed by `resumeInterrupted()`.
 */
export class DownloadsService {
  readonly repo: JobsRepository;
  private readonly running = new Map<string, Running>();
  private readonly unregisterWork: (() => void) | undefined;
  private closed = false;
  /** This service's identity as a job owner ("<pid>:<random>"), alive until close(). */
  private readonly owner = newOwner();

  constructor(private readonly deps: DownloadsDeps) {
    this.repo = new JobsRepository(deps.store, deps.now, this.owner.id);
    this.unregisterWork = deps.work?.register('downloads', () => {
      const n = this.running.size;
      return n === 0
        ? { busy: false }
        : {
            busy: true,
            message: {
              en: n === 1 ? 'A download is running' : `${n} downloads are running`,
              vi: n === 1 ? 'Đang tải hóa đơn về máy' : `Đang chạy ${n} lượt tải hóa đơn`,
            },
          };
    });
  }

  parse(input: { ids?: readonly string[]; idsText?: string; fileName?: string }): ParsedIds {
    const fromText = input.idsText !== undefined ? parseIdsText(input.idsText, input.fileName) : { ids: [], duplicates: 0, blanks: 0 };
    if (!input.ids || input.ids.length === 0) return fromText;
    if (input.idsText === undefined) return dedupeIds(input.ids);
    const merged = dedupeIds([...fromText.ids, ...input.ids]);
    return { ids: merged.ids, duplicates: merged.duplicates + fromText.duplicates, blanks: merged.blanks + fromText.blanks };
  }

  async create(input: CreateJobInput, profileId = this.deps.activeProfileId()): Promise<{ job: JobRow; parsed: ParsedIds }> {
    const parsed = this.parse(input);
    if (parsed.ids.length === 0) {
      throw new AppError('download_no_ids', { en: 'There are no TransactionIDs to download.', vi: 'Chưa có mã tra cứu (TransactionID) nào để tải.' });
    }
    const settings = await this.settingsOf(input);
    return { job: this.repo.create(profileId, settings, parsed.ids), parsed };
  }

  async settingsOf(input: CreateJobInput): Promise<JobSettings> {
    return {
      type: input.type,
      kind: input.kind ?? DEFAULT_INVOICE_KIND,
      folder: await prepareFolder(input.folder),
      existing: input.existing ?? 'skip',
      unzip: input.type === 'All' && (input.unzip ?? false),
    };
  }

  /** The CLI's "run it again": the unfinished job with the same IDs and settings, or a new one. */
  async createOrResume(
    input: CreateJobInput,
    profileId = this.deps.activeProfileId(),
    scope: string = profileId,
    baseUrl: string | null = null,
  ): Promise<{ job: JobRow; parsed: ParsedIds; resumed: boolean }> {
    const parsed = this.parse(input);
    if (parsed.ids.length === 0) {
      throw new AppError('download_no_ids', { en: 'There are no TransactionIDs to download.', vi: 'Chưa có mã tra cứu (TransactionID) nào để tải.' });
    }
    const settings = await this.settingsOf(input);
    const existing = this.repo.findUnfinished(jobFingerprint(scope, settings, parsed.ids));
    if (existing) return { job: existing, parsed, resumed: true };
    return { job: this.repo.create(profileId, settings, parsed.ids, scope, baseUrl), parsed, resumed: false };
  }

  job(id: string): JobRow {
    const job = this.repo.get(id);
    if (!job) throw notFound(id);
    return job;
  }

  view(id: string): DownloadJob {
    return jobView(this.job(id), this.running.get(id)?.progress ?? null);
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  private publish(id: string, progress?: EngineProgress): void {
    if (!this.deps.bus) return;
    const view = this.view(id);
    if (progress) {
      const c = progress.counts;
      Object.assign(view, {
        saved: c.saved,
        skipped: c.skipped,
        failed: c.failed,
        done: c.saved + c.skipped + c.failed,
        bytes: c.bytes,
        rate: progress.rate,
        itemsPerSecond: progress.itemsPerSecond,
        etaSeconds: progress.etaSeconds,
      });
    }
    this.deps.bus.emit('downloads.progress', view);
  }

  /**
   * Starts (or resumes) a job; returns at once. `whenDone(id)` waits for the run to end.
   * `onProgress` is for the CLI's progress bar.
   */
  start(id: string, onProgress?: (p: EngineProgress) => void): DownloadJob {
    if (this.closed) throw new AppError('download_closed', { en: 'The app is closing.', vi: 'Ứng dụng đang đóng.' });
    const job = this.job(id);
    if (this.running.has(id)) return this.view(id);
    this.claim(id);
    this.repo.setStatus(id, 'running', null);
    const controller = new AbortController();
    const entry: Running = { engine: undefined, done: Promise.resolve(), stopAs: null, progress: null, abort: () => controller.abort() };
    const run = async () => {
      let session: DownloadSession | undefined;
      let stopBeating = () => {};
      try {
        session = await this.deps.session(job.profileId, controller.signal);
        if (entry.stopAs) return;
        if (session.baseUrl !== undefined) sameService(this.repo.bindService(id, session.baseUrl), session.baseUrl);
        stopBeating = heartbeat(
          () => this.repo.beat(id),
          () => this.stop(id, 'paused'),
        );
        const engine = new DownloadEngine({
          ...this.deps.engine,
          ...(this.deps.log ? { log: this.deps.log } : {}),
          repo: this.repo,
          client: session.client,
          job: this.job(id),
          onProgress: (p) => {
            entry.progress = p;
            onProgress?.(p);
            this.publish(id, p);
          },
        });
        entry.engine = engine;
        if (entry.stopAs) engine.stop();
        const outcome = await engine.run();
        if (outcome.kind === 'auth') {
          await this.deps.reportAuthFailure?.(job.profileId);
          this.repo.setStatus(id, 'paused', { en: outcome.error.message, vi: outcome.error.messageVi });
        } else if (outcome.kind === 'stopped') {
          // Stopped by close(): stays `running`, so the next start of the app resumes it.
          if (entry.stopAs || !this.closed) this.repo.setStatus(id, entry.stopAs ?? 'paused');
        } else {
          const c = this.repo.counts(id);
          this.repo.setStatus(id, c.pending + c.placing === 0 ? 'done' : 'paused');
        }
      } catch (error) {
        const payload =
          error instanceof AppError
            ? { en: error.message, vi: error.messageVi }
            : { en: `The download stopped: ${error instanceof Error ? error.message : String(error)}`, vi: 'Lượt tải bị dừng do lỗi.' };
        if (!(error instanceof AppError)) this.deps.log?.('error', `download job ${id} failed: ${payload.en}`);
        if (entry.stopAs || !this.closed) this.repo.setStatus(id, entry.stopAs ?? 'paused', entry.stopAs ? undefined : payload);
      } finally {
        stopBeating();
        this.repo.release(id);
        await session?.release?.();
        this.running.delete(id);
        this.deps.work?.changed?.();
        if (!this.closed) {
          try {
            this.publish(id);
          } catch {
            // The job may have been removed meanwhile.
          }
        }
      }
    };
    this.running.set(id, entry);
    this.deps.work?.changed?.();
    entry.done = run();
    const view = this.view(id);
    this.publish(id);
    return view;
  }

  /** Makes this process the job's one owner, or says it runs in another window (a live process). */
  private claim(id: string): void {
    const held = this.repo.claim(id, ownerAlive);
    if (held !== null) throw runningElsewhere(held);
  }

  private stop(id: string, as: 'paused' | 'cancelled'): void {
    const entry = this.running.get(id);
    if (!entry) return;
    entry.stopAs = as;
    entry.abort();
    entry.engine?.stop();
  }

  async whenDone(id: string): Promise<DownloadJob> {
    await this.running.get(id)?.done;
    return this.view(id);
  }

  pause(id: string): Promise<DownloadJob> {
    return this.halt(id, 'paused', ['running', 'ready']);
  }

  cancel(id: string): Promise<DownloadJob> {
    return this.halt(id, 'cancelled', ['ready', 'running', 'paused', 'cancelled']);
  }

  /** Stops a running job as `as` (waiting for it to let go); a job not running in this process just gets the status, if in `from`. */
  private async halt(id: string, as: 'paused' | 'cancelled', from: readonly JobStatus[]): Promise<DownloadJob> {
    const job = this.job(id);
    if (this.running.has(id)) {
      this.stop(id, as);
      await this.running.get(id)?.done;
    } else if (from.includes(job.status)) {
      this.claim(id);
      this.repo.setStatus(id, as);
      this.repo.release(id);
    }
    this.publish(id);
    return this.view(id);
  }

  retryFailed(id: string): DownloadJob {
    this.job(id);
    if (!this.running.has(id)) this.claim(id);
    this.repo.resetFailed(id);
    if (this.running.has(id)) {
      // The running engine read its queue already: restart it after this run ends.
      const entry = this.running.get(id)!;
      void entry.done.then(() => {
        if (!this.closed) this.start(id);
      });
      return this.view(id);
    }
    return this.start(id);
  }

  async remove(id: string): Promise<boolean> {
    if (this.running.has(id)) await this.cancel(id);
    else this.claim(id);
    return this.repo.remove(id);
  }

  exportFailed(id: string): { csv: string; fileName: string; count: number } {
    this.job(id);
    const rows = this.repo.failed(id);
    return { csv: failedItemsCsv(rows), fileName: `failed-${id.slice(0, 8)}.csv`, count: rows.length };
  }

  /** Jobs left `running` by a process that stopped: continue them. */
  resumeInterrupted(): string[] {
    const ids: string[] = [];
    for (const job of this.repo.interruptedJobs()) {
      // Left running by this or a stopped process; one another live process runs is left to it.
      if (this.running.has(job.id) || (job.owner !== null && job.owner !== this.owner.id && ownerAlive(job.owner))) continue;
      this.start(job.id);
      ids.push(job.id);
    }
    return ids;
  }

  handlers(): Pick<
    ContractHandlers,
    | 'downloads.create'
    | 'downloads.list'
    | 'downloads.get'
    | 'downloads.items'
    | 'downloads.start'
    | 'downloads.pause'
    | 'downloads.cancel'
    | 'downloads.retryFailed'
    | 'downloads.remove'
    | 'downloads.exportFailed'
    | 'downloads.openFolder'
    | 'downloads.chooseFolder'
  > {
    return {
      'downloads.create': async (req) => {
        const { job, parsed } = await this.create(req);
        const view = req.start ? this.start(job.id) : this.view(job.id);
        return { job: view, added: parsed.ids.length, duplicates: parsed.duplicates, blanks: parsed.blanks };
      },
      'downloads.list': () => ({ jobs: this.repo.list(this.deps.activeProfileId()).map((j) => this.view(j.id)) }),
      'downloads.get': (req) => this.view(req.jobId),
      'downloads.items': (req) => {
        this.job(req.jobId);
        return this.repo.page(req.jobId, req.offset, req.limit, req.state);
      },
      'downloads.start': (req) => this.start(req.jobId),
      'downloads.pause': (req) => this.pause(req.jobId),
      'downloads.cancel': (req) => this.cancel(req.jobId),
      'downloads.retryFailed': (req) => this.retryFailed(req.jobId),
      'downloads.remove': async (req) => ({ removed: await this.remove(req.jobId) }),
      'downloads.exportFailed': (req) => this.exportFailed(req.jobId),
      'downloads.openFolder': async (req) => {
        const job = this.job(req.jobId);
        const opened = this.deps.dialogs?.openFolder ? await this.deps.dialogs.openFolder(job.folder) : false;
        return { opened, folder: job.folder };
      },
      'downloads.chooseFolder': async (req) => {
        if (!this.deps.dialogs?.chooseFolder) return { supported: false, folder: null };
        return { supported: true, folder: await this.deps.dialogs.chooseFolder(req.defaultPath) };
      },
    };
  }

  /** Pauses running jobs (they stay `running` in the database, so the next start resumes them). */
  async close(): Promise<void> {
    this.closed = true;
    const entries = [...this.running.values()];
    for (const e of entries) {
      e.stopAs = null;
      e.abort();
      e.engine?.stop();
    }
    await Promise.all(entries.map((e) => e.done.catch(() => {})));
    this.owner.end();
    this.unregisterWork?.();
  }
}
