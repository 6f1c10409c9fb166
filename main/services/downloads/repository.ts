import { createHash, randomUUID } from 'node:crypto';
import type { DownloadItemView, ExistingPolicy, ItemState, JobStatus } from '../../../common/calls/downloads';
import { downloadFlags, kindFromFlags, type Bilingual, type DownloadDataType, type InvoiceKind } from '../../../common/model';
import type { StatementSync } from 'node:sqlite';
import { prepared, type Store } from '../store';
import { OwnershipLost, type OwnerAlive } from './ownership';
import { releasePageCache, withPageCache } from './page-cache';

export interface JobSettings {
  type: DownloadDataType;
  kind: InvoiceKind;
  folder: string;
  existing: ExistingPolicy;
  unzip: boolean;
}

export interface JobRow extends JobSettings {
  id: string;
  profileId: string;
  fingerprint: string;
  status: JobStatus;
  /** The process running it ("<pid>:<random>"), null when none. */
  owner: string | null;
  heartbeatAt: string | null;
  /** The service address it was created for (set at creation or on its first run). */
  baseUrl: string | null;
  lastError: Bilingual | null;
  createdAt: string;
  updatedAt: string;
  /** The progress counters kept on the job row. */
  counts: JobCounts;
}

export interface JobCounts {
  total: number;
  pending: number;
  placing: number;
  saved: number;
  skipped: number;
  failed: number;
  bytes: number;
}

export interface ItemRow {
  seq: number;
  transactionId: string;
  status: ItemState;
  file: string | null;
  bytes: number;
  attempts: number;
}

/** One finished item, written in a batch with {@link JobsRepository.record}. */
export interface ItemOutcome {
  seq: number;
  status: ItemState;
  file?: string | null;
  bytes?: number;
  errorCode?: string | null;
  message?: Bilingual | null;
  /** Count one more attempt. */
  attempt?: boolean;
}

interface RawJob {
  id: string;
  profile_id: string;
  fingerprint: string;
  type: string;
  with_code: number;
  calc: number;
  folder: string;
  existing: string;
  unzip: number;
  status: string;
  owner: string | null;
  heartbeat_at: string | null;
  base_url: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  n_total: number;
  n_pending: number;
  n_placing: number;
  n_saved: number;
  n_skipped: number;
  n_failed: number;
  n_bytes: number;
}

interface RawItem {
  seq: number;
  transaction_id: string;
  status: ItemState;
  file: string | null;
  bytes: number;
  attempts: number;
}

function toItem(r: RawItem): ItemRow {
  return { seq: Number(r.seq), transactionId: r.transaction_id, status: r.status, file: r.file, bytes: Number(r.bytes), attempts: Number(r.attempts) };
}

function toJob(r: RawJob): JobRow {
  return {
    id: r.id,
    profileId: r.profile_id,
    fingerprint: r.fingerprint,
    type: r.type as DownloadDataType,
    kind: kindFromFlags(r.with_code === 1, r.calc === 1),
    folder: r.folder,
    existing: r.existing as ExistingPolicy,
    unzip: r.unzip === 1,
    status: r.status as JobStatus,
    owner: r.owner,
    heartbeatAt: r.heartbeat_at,
    baseUrl: r.base_url,
    lastError: r.last_error ? (JSON.parse(r.last_error) as Bilingual) : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    counts: {
      total: Number(r.n_total),
      pending: Number(r.n_pending),
      placing: Number(r.n_placing),
      saved: Number(r.n_saved),
      skipped: Number(r.n_skipped),
      failed: Number(r.n_failed),
      bytes: Number(r.n_bytes),
    },
  };
}

/** Same IDs, type, flags, folder and policies → same fingerprint (the CLI resumes by it). */
export function jobFingerprint(scope: string, settings: JobSettings, ids: readonly string[]): string {
  const h = createHash('sha256');
  const flags = downloadFlags(settings.kind);
  h.update(JSON.stringify([scope, settings.type, flags.invoiceWithCode, flags.invoiceCalcu, settings.folder, settings.existing, settings.unzip]));
  for (const id of ids) h.update(`\n${id}`);
  return h.digest('hex');
}

/** Item outcomes recorded between two releases of the page cache. */
const RELEASE_CACHE_EVERY = 2_000;
/** The page cache (KB) while a job's items are inserted. */
const INSERT_CACHE_KB = 4_096;

/** Download jobs and their items in `einvoice.db` (tables in schema.ts). */
export class JobsRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
    /** This process's owner identity: only it may record outcomes of the jobs it claimed. */
    readonly owner: string = `${process.pid}:repository`,
  ) {}

  private sql(text: string): StatementSync {
    return prepared(this.store.db, text);
  }

  /** `scope` goes into the fingerprint (default the profile; the CLI adds the service address). */
  create(profileId: string, settings: JobSettings, ids: readonly string[], scope: string = profileId, baseUrl: string | null = null): JobRow {
    const id = randomUUID();
    const stamp = this.now().toISOString();
    const fingerprint = jobFingerprint(scope, settings, ids);
    const flags = downloadFlags(settings.kind);
    // The items are appended in order and not read back here: a small page cache is enough, and
    // the rest goes to the log as the insert goes instead of being held until the commit.
    withPageCache(this.store.db, INSERT_CACHE_KB, () =>
      this.store.transaction(() => {
        this.sql(
          `INSERT INTO download_jobs(id, profile_id, fingerprint, type, with_code, calc, folder, existing, unzip, status, base_url, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'ready', ?, ?, ?)`,
        ).run(
          id,
          profileId,
          fingerprint,
          settings.type,
          flags.invoiceWithCode ? 1 : 0,
          flags.invoiceCalcu ? 1 : 0,
          settings.folder,
          settings.existing,
          settings.unzip ? 1 : 0,
          baseUrl,
          stamp,
          stamp,
        );
        const insert = this.sql(`INSERT INTO download_items(job_id, seq, transaction_id, status) VALUES (?, ?, ?, 'pending')`);
        ids.forEach((tid, seq) => insert.run(id, seq, tid));
      }),
    );
    this.releaseCache();
    return this.get(id)!;
  }

  get(id: string): JobRow | undefined {
    const row = this.sql('SELECT * FROM download_jobs WHERE id = ?').get(id) as RawJob | undefined;
    return row ? toJob(row) : undefined;
  }

  list(profileId?: string): JobRow[] {
    const rows = (profileId
      ? this.sql('SELECT * FROM download_jobs WHERE profile_id = ? ORDER BY created_at DESC, rowid DESC').all(profileId)
      : this.sql('SELECT * FROM download_jobs ORDER BY created_at DESC, rowid DESC').all()) as unknown as RawJob[];
    return rows.map(toJob);
  }

  /** The newest job with this fingerprint that has not finished (for the CLI's "run again"). */
  findUnfinished(fingerprint: string): JobRow | undefined {
    const row = this.sql(`SELECT * FROM download_jobs WHERE fingerprint = ? AND status IN ('ready', 'running', 'paused') ORDER BY created_at DESC LIMIT 1`).get(
      fingerprint,
    ) as RawJob | undefined;
    return row ? toJob(row) : undefined;
  }

  /** Sets the status of a job that has no owner or is ours (never of one another process runs). */
  setStatus(id: string, status: JobStatus, lastError?: Bilingual | null): void {
    const stamp = this.now().toISOString();
    const mine = '(owner IS NULL OR owner = ?)';
    if (lastError === undefined) this.sql(`UPDATE download_jobs SET status = ?, updated_at = ? WHERE id = ? AND ${mine}`).run(status, stamp, id, this.owner);
    else {
      this.sql(`UPDATE download_jobs SET status = ?, last_error = ?, updated_at = ? WHERE id = ? AND ${mine}`).run(
        status,
        lastError ? JSON.stringify(lastError) : null,
        stamp,
        id,
        this.owner,
      );
    }
  }

  /**
   * Makes this process the job's owner, unless a live process owns it: returns that owner then.
   * Checked and written in one immediate transaction, so two processes never both win.
   */
  claim(id: string, alive: OwnerAlive): string | null {
    return this.store.transaction(() => {
      const row = this.sql('SELECT owner FROM download_jobs WHERE id = ?').get(id) as { owner: string | null } | undefined;
      const held = row?.owner ?? null;
      if (held !== null && held !== this.owner && alive(held)) return held;
      const stamp = this.now().toISOString();
      this.sql('UPDATE download_jobs SET owner = ?, heartbeat_at = ? WHERE id = ?').run(this.owner, stamp, id);
      return null;
    });
  }

  /** Writes the heartbeat of a job we own; false when it is no longer ours. */
  beat(id: string): boolean {
    const stamp = this.now().toISOString();
    return Number(this.sql('UPDATE download_jobs SET heartbeat_at = ? WHERE id = ? AND owner = ?').run(stamp, id, this.owner).changes) > 0;
  }

  release(id: string): void {
    this.sql('UPDATE download_jobs SET owner = NULL WHERE id = ? AND owner = ?').run(id, this.owner);
  }

  /** Records the service address on a job that has none yet; returns the address it holds. */
  bindService(id: string, baseUrl: string): string {
    this.sql('UPDATE download_jobs SET base_url = ? WHERE id = ? AND base_url IS NULL').run(baseUrl, id);
    return this.get(id)?.baseUrl ?? baseUrl;
  }

  remove(id: string): boolean {
    return Number(this.sql('DELETE FROM download_jobs WHERE id = ?').run(id).changes) > 0;
  }

  /** The job's progress counters as kept on its row (no counting). */
  counts(id: string): JobCounts {
    const job = this.get(id);
    return job ? job.counts : { total: 0, pending: 0, placing: 0, saved: 0, skipped: 0, failed: 0, bytes: 0 };
  }

  /**
   * Up to `limit` items in a state after seq `after`, in order: the engine reads its work (and,
   * after a crash, the `placing` items) a page at a time. INDEXED BY: without statistics the
   * planner would walk the job's items by seq from the start, past every item already saved.
   */
  itemsAfter(id: string, status: ItemState, after: number, limit: number): ItemRow[] {
    const rows = this.sql(
      `SELECT seq, transaction_id, status, file, bytes, attempts FROM download_items INDEXED BY download_items_status
       WHERE job_id = ? AND status = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ).all(id, status, after, limit) as unknown as RawItem[];
    return rows.map(toItem);
  }

  /** Up to `limit` pending items after seq `after`, in order. */
  pendingAfter(id: string, after: number, limit: number): ItemRow[] {
    return this.itemsAfter(id, 'pending', after, limit);
  }

  /** The seq of the job's first item still pending or placing; null when every item has settled. */
  firstUnsettled(id: string): number | null {
    const row = this.sql(`SELECT min(seq) AS seq FROM download_items WHERE job_id = ? AND status IN ('pending', 'placing')`).get(id) as
      { seq: number | null } | undefined;
    return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
  }

  /** True when an item of this job holds this file name (ignoring case) as placing or saved. */
  nameTaken(id: string, name: string): boolean {
    // INDEXED BY: with the state condition the planner would otherwise walk the job's items.
    return (
      this.sql(
        `SELECT 1 FROM download_items INDEXED BY download_items_file
         WHERE job_id = ? AND file COLLATE NOCASE = ? AND file IS NOT NULL AND status IN ('placing', 'saved') LIMIT 1`,
      ).get(id, name) !== undefined
    );
  }

  /**
   * A window of the job's items in order; the total comes from the job row's counters. Without a
   * state the window is a range of seq (items are numbered 0…n−1 at creation), so the last page
   * costs what the first does.
   */
  page(id: string, offset: number, limit: number, status?: ItemState): { total: number; items: DownloadItemView[] } {
    const counts = this.counts(id);
    const columns = 'seq, transaction_id, status, file, bytes, error_code, message, message_vi';
    const rows = (
      status
        ? this.sql(`SELECT ${columns} FROM download_items WHERE job_id = ? AND status = ? ORDER BY seq LIMIT ? OFFSET ?`).all(id, status, limit, offset)
        : this.sql(`SELECT ${columns} FROM download_items WHERE job_id = ? AND seq >= ? ORDER BY seq LIMIT ?`).all(id, offset, limit)
    ) as Array<{
      seq: number;
      transaction_id: string;
      status: ItemState;
      file: string | null;
      bytes: number;
      error_code: string | null;
      message: string | null;
      message_vi: string | null;
    }>;
    return {
      total: status ? counts[status] : counts.total,
      items: rows.map((r) => ({
        seq: Number(r.seq),
        transactionId: r.transaction_id,
        state: r.status,
        file: r.file,
        bytes: Number(r.bytes),
        errorCode: r.error_code,
        message: r.message === null ? null : { en: r.message, vi: r.message_vi ?? r.message },
      })),
    };
  }

  failed(id: string): Array<{ transactionId: string; errorCode: string | null; message: Bilingual | null }> {
    return this.page(id, 0, Number.MAX_SAFE_INTEGER, 'failed').items;
  }

  /** Releases the page cache after a job's insert and every RELEASE_CACHE_EVERY outcomes (see page-cache.ts). */
  private releaseCache(): void {
    this.recorded = 0;
    releasePageCache(this.store.db);
  }

  private recorded = 0;

  /** Records many item outcomes in one transaction (the engine commits per batch, not per file). */
  record(jobId: string, outcomes: readonly ItemOutcome[]): void {
    if (outcomes.length === 0) return;
    this.recorded += outcomes.length;
    if (this.recorded >= RELEASE_CACHE_EVERY) this.releaseCache();
    const stamp = this.now().toISOString();
    this.store.transaction(() => {
      // Ownership is checked in the same transaction as the writes: a process that lost the job writes nothing.
      const owned = this.sql('UPDATE download_jobs SET updated_at = ?, heartbeat_at = ? WHERE id = ? AND owner = ?').run(stamp, stamp, jobId, this.owner);
      if (Number(owned.changes) === 0) throw new OwnershipLost(jobId);
      const update = this.sql(
        `UPDATE download_items SET status = ?, file = ?, bytes = ?, error_code = ?, message = ?, message_vi = ?, attempts = attempts + ?
         WHERE job_id = ? AND seq = ?`,
      );
      for (const o of outcomes) {
        update.run(o.status, o.file ?? null, o.bytes ?? 0, o.errorCode ?? null, o.message?.en ?? null, o.message?.vi ?? null, o.attempt ? 1 : 0, jobId, o.seq);
      }
    });
  }

  /** failed → pending (for "retry failed"). Returns how many. */
  resetFailed(id: string): number {
    return this.store.transaction(() => {
      const n = Number(
        this.sql(
          `UPDATE download_items SET status = 'pending', error_code = NULL, message = NULL, message_vi = NULL, attempts = 0 WHERE job_id = ? AND status = 'failed'`,
        ).run(id).changes,
      );
      return n;
    });
  }

  /** Jobs left `running` by a process that stopped (crash, kill, quit): paused, to be resumed. */
  interruptedJobs(): JobRow[] {
    return (this.sql(`SELECT * FROM download_jobs WHERE status = 'running' ORDER BY created_at`).all() as unknown as RawJob[]).map(toJob);
  }
}
