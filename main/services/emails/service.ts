import type { Dispatcher } from 'undici';
import { AppError } from '../../../common/errors';
import type { EmailAddResult, EmailInput, EmailQueueStatus, EmailReject, EmailState } from '../../../common/calls/emails';
import type { InvoiceKind } from '../../../common/model';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { SendEmailParameter } from '../../../common/model';
import { clients, type ApiClient, type SendEmailOutcome } from '../api';
import type { SignedInSession } from '../auth';
import { workerPorts, type WorkGate } from '../scheduling/retimer';
import type { Store } from '../store';
import type { WorkInProgress } from '../updates/work-in-progress';
import { exportEmailCsv } from './csv';
import { CsvReader } from './csv-reader';
import { deferSortIndexes, ensureSortIndexes, lineCount } from './import-indexes';
import type { ClaimAlive } from './claims';
import type { ListQuery } from './entries';
import { checkInput, numberNotLookupCode, type CleanInput } from './input';
import { Outbox } from './outbox';
import { EmailSender, type FlushOptions, type SenderTuning } from './sender';

export interface EmailServiceDeps extends SenderTuning {
  store: Store;
  bus?: EventBus;
  /** The active connection profile: entries are queued under it and flushed for it. */
  activeProfileId: () => string;
  /** AuthGate: `ready()` blocks while signed out / paused; `reportAuthFailure()` pauses. */
  gate: WorkGate;
  /** Invoices per sendemail request (default 20, e.g. from settings.batchSizes.email). */
  batchSize?: () => number;
  work?: WorkInProgress;
  /**
   * The register of issued invoices, for entries added by hand: an invoice it knows is emailed as
   * the kind it was issued as, and an invoice number typed for its lookup code is refused with the code.
   */
  register?: {
    find(transactionId: string): { kind: InvoiceKind } | null;
    byNumber(typed: string): Array<{ invSeries: string; invNo: string; transactionId: string }>;
  };
  /** Per-request timeout of sendemail (default 30 s); after it the outcome is unknown. */
  sendTimeoutMs?: number;
  /** Sends one sendemail request instead of the built-in client (the CLI passes its own client). */
  send?: (session: SignedInSession, parameter: SendEmailParameter, signal: AbortSignal) => Promise<SendEmailOutcome>;
  /** An undici dispatcher shared by the clients (tests, benchmarks). */
  dispatcher?: Dispatcher;
  claimAlive?: ClaimAlive;
  /** Reads CSV imports (the composition root's reads them on a thread of its own); default: on this thread. */
  csvReader?: CsvReader;
}

export const DEFAULT_EMAIL_BATCH = 20;

/**
 * The email send queue: the outbox in the database, the sender that flushes it while online
 * and signed in, CSV import/export, and the contract handlers of the queue screen.
 */
export class EmailService {
  readonly outbox: Outbox;
  readonly sender: EmailSender<SignedInSession>;
  private readonly csv: CsvReader;
  private client: { key: string; client: ApiClient } | null = null;
  private readonly unsubscribe: Array<() => void> = [];
  private emitTimer: NodeJS.Timeout | undefined;
  private lastEmit = 0;
  /** What `emails.changed` last carried (JSON), and whether the queue itself changed since. */
  private lastPublished = '';
  private queueChanged = false;
  private started = false;

  constructor(private readonly deps: EmailServiceDeps) {
    this.outbox = new Outbox(deps.store, { now: deps.now, claimAlive: deps.claimAlive });
    ensureSortIndexes(deps.store);
    this.csv = deps.csvReader ?? new CsvReader(null);
    const tuning: SenderTuning = deps;
    this.sender = new EmailSender<SignedInSession>({
      ...tuning,
      ...workerPorts(deps),
      outbox: this.outbox,
      send: deps.send ?? ((session, parameter, signal) => this.clientFor(session).sendEmail(parameter, { signal, retry: false })),
      batchSize: () => deps.batchSize?.() ?? DEFAULT_EMAIL_BATCH,
      onChange: (statusOnly) => this.changed(!statusOnly),
    });
  }

  private clientFor(session: SignedInSession): ApiClient {
    const key = `${session.endpoint.baseUrl}|${session.token}`;
    if (this.client?.key !== key) {
      const old = this.client?.client;
      if (old) void old.close();
      this.client = {
        key,
        client: clients.forSession(session, 'email', {
          timeoutMs: this.deps.sendTimeoutMs ?? 30_000,
          ...(this.deps.dispatcher ? { dispatcher: this.deps.dispatcher } : {}),
          ...(this.deps.log ? { log: this.deps.log } : {}),
        }),
      };
    }
    return this.client.client;
  }

  /** Begins sending on its own: now, whenever `app.online` turns true, and after each enqueue. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.outbox.recover();
    if (this.deps.bus) {
      this.unsubscribe.push(
        this.deps.bus.on('app.online', (e) => {
          if (e.online) void this.sender.kick();
        }),
      );
    }
    if (this.deps.work) {
      this.unsubscribe.push(
        this.deps.work.register('emails.queue', () => {
          const n = this.sender.sending;
          return n > 0 ? { busy: true, message: { en: `${n} emails are being sent`, vi: `Đang gửi ${n} email` } } : { busy: false };
        }),
      );
    }
    void this.sender.kick();
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.sender.stop();
    if (this.emitTimer) clearTimeout(this.emitTimer);
    await this.client?.client.close();
    this.client = null;
  }

  // ---------------------------------------------------------------- events

  /**
   * Publishes `emails.changed`, at most every 250 ms (the last change always goes out). A change of
   * entries always goes out (an edited one changes no count); a change of the sender's state alone
   * only when the counts or that state differ from what was last published. Offline, the sender
   * looks again every few seconds and finds nothing to do, and each event would make an open queue
   * screen read its rows again.
   */
  private changed(entries = true): void {
    if (entries) this.queueChanged = true;
    if (!this.deps.bus || this.emitTimer) return;
    const wait = Math.max(0, 250 - (Date.now() - this.lastEmit));
    this.emitTimer = setTimeout(() => {
      this.emitTimer = undefined;
      this.lastEmit = Date.now();
      try {
        const status = this.status();
        const published = JSON.stringify(status);
        const news = this.queueChanged || published !== this.lastPublished;
        this.queueChanged = false;
        this.lastPublished = published;
        if (news) this.deps.bus?.emit('emails.changed', status);
      } catch (error) {
        this.deps.log?.('warn', `emails.changed not published: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, wait);
    this.emitTimer.unref?.();
    this.deps.work?.changed();
  }

  // ---------------------------------------------------------------- queue operations

  status(): EmailQueueStatus {
    const counts = this.outbox.counts(this.deps.activeProfileId());
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return { counts, total, sender: this.sender.senderStatus() };
  }

  /**
   * Enqueues entries (by hand, the CLI); bad ones are reported by index, invoices already sent
   * or waiting are skipped row by row (see Outbox.add); `resend` is the CLI's `--resend`.
   */
  add(inputs: ReadonlyArray<EmailInput & { kind?: InvoiceKind }>, options: { resend?: boolean } = {}): EmailAddResult {
    const good: Array<{ input: CleanInput; index: number }> = [];
    const rejected: EmailReject[] = [];
    inputs.forEach((raw, index) => {
      const transactionId = raw.transactionId?.trim() ?? '';
      const known = transactionId ? this.deps.register?.find(transactionId) : null;
      const numbered = known || !transactionId ? [] : (this.deps.register?.byNumber(transactionId) ?? []);
      if (numbered.length > 0) {
        rejected.push({ line: null, index, transactionId, reason: numberNotLookupCode(transactionId, numbered) });
        return;
      }
      const checked = checkInput({ ...raw, kind: known?.kind ?? raw.kind ?? 'withoutCode' });
      if (checked.ok) good.push({ input: checked.value, index });
      else rejected.push({ line: null, index, transactionId: raw.transactionId?.trim() || null, reason: checked.problem });
    });
    const result = this.outbox.add(this.deps.activeProfileId(), good, options);
    result.rejected.push(...rejected);
    result.rejected.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (result.added.length > 0) this.afterEnqueue();
    return result;
  }

  /**
   * Imports a CSV: good rows are queued (one transaction per chunk of rows, as the parser reaches
   * them, so another process waits for one chunk at most), bad rows listed by line with the reason,
   * invoices already sent or waiting skipped by line.
   */
  async importCsv(text: string, kind: InvoiceKind, options: { resend?: boolean } = {}): Promise<EmailAddResult & { rows: number }> {
    const profileId = this.deps.activeProfileId();
    const added: number[] = [];
    const skipped: EmailAddResult['skipped'] = [];
    const rejected: EmailReject[] = [];
    const rebuild = deferSortIndexes(this.deps.store, lineCount(text));
    // The rows are in whether or not the indexes can be built now; the next start builds them if not.
    const rebuilt = () => {
      try {
        rebuild?.();
      } catch (error) {
        this.deps.log?.('warn', `email sort indexes not rebuilt after an import: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    const parsed = await this.csv
      .read(text, kind, (rows) => {
        const result = this.outbox.addRows(profileId, rows, options);
        for (const id of result.added) added.push(id);
        skipped.push(...result.skipped);
        rejected.push(...result.rejected);
      })
      .finally(rebuilt);
    if (added.length > 0) this.afterEnqueue();
    rejected.push(...parsed.bad);
    rejected.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return { added, rejected, skipped, rows: parsed.rows };
  }

  exportCsv(query: Pick<ListQuery, 'states' | 'search'>): { csv: string; fileName: string; count: number } {
    const { items } = this.outbox.list(this.deps.activeProfileId(), { ...query, sort: 'id', dir: 'asc' });
    const stamp = new Date(this.deps.now?.() ?? Date.now()).toISOString().slice(0, 19).replace(/[:T]/g, '-');
    return { csv: exportEmailCsv(items), fileName: `email-queue-${stamp}.csv`, count: items.length };
  }

  list(query: ListQuery) {
    const profileId = this.deps.activeProfileId();
    // One snapshot: the total a far page is counted back from is the total of the rows it reads.
    return this.deps.store.read(() => {
      const counts = this.outbox.counts(profileId);
      return { ...this.outbox.list(profileId, query, counts), counts };
    });
  }

  keys(query: ListQuery) {
    return this.outbox.keys(this.deps.activeProfileId(), query);
  }

  /** Failed and cancelled entries back to the queue; with `unknown` (the CLI's `--unknown`) also those whose outcome is unknown. */
  retry(ids: readonly number[], options: { unknown?: boolean } = {}) {
    return this.requeue(ids, options.unknown ? 'retryUnknown' : 'retry');
  }

  /** The user's confirmed "send again": also entries already sent, handed to the service or unknown. */
  resend(ids: readonly number[]) {
    return this.requeue(ids, 'resend');
  }

  private requeue(ids: readonly number[], mode: Parameters<Outbox['requeue']>[1]) {
    const r = this.outbox.requeue(ids, mode);
    if (r.changed > 0) this.afterEnqueue();
    return r;
  }

  history(id: number) {
    const h = this.outbox.history(id);
    if (!h) throw new AppError('email_not_found', { en: `There is no email #${id}.`, vi: `Không có email #${id}.` });
    return h;
  }

  /** Ids in the given states (CLI `queue retry`). */
  idsIn(states: readonly EmailState[]): number[] {
    return this.outbox.idsIn(this.deps.activeProfileId(), states);
  }

  cancel(ids: readonly number[]) {
    const r = this.outbox.cancel(ids);
    this.changed();
    return r;
  }

  remove(ids: readonly number[]) {
    const r = this.outbox.remove(ids);
    this.changed();
    return r;
  }

  update(id: number, patch: Parameters<Outbox['update']>[1]) {
    const entry = this.outbox.update(id, patch);
    this.changed();
    return entry;
  }

  /** Sends what is due and resolves when done (or offline / not signed in). */
  flush(options: FlushOptions = {}): Promise<void> {
    return this.sender.flush(options);
  }

  private afterEnqueue(): void {
    this.changed();
    if (this.started) void this.sender.kick();
  }

  handlers(): Pick<
    ContractHandlers,
    | 'emails.list'
    | 'emails.keys'
    | 'emails.status'
    | 'emails.add'
    | 'emails.importCsv'
    | 'emails.exportCsv'
    | 'emails.retry'
    | 'emails.resend'
    | 'emails.history'
    | 'emails.cancel'
    | 'emails.remove'
    | 'emails.update'
    | 'emails.flush'
  > {
    return {
      'emails.list': (req) => this.list(req),
      'emails.keys': (req) => this.keys(req),
      'emails.status': () => this.status(),
      'emails.add': (req) => this.add(req.entries),
      'emails.importCsv': (req) => this.importCsv(req.text, req.kind),
      'emails.exportCsv': (req) => this.exportCsv(req),
      'emails.retry': (req) => this.retry(req.ids),
      'emails.resend': (req) => this.resend(req.ids),
      'emails.history': (req) => this.history(req.id),
      'emails.cancel': (req) => this.cancel(req.ids),
      'emails.remove': (req) => this.remove(req.ids),
      'emails.update': (req) => {
        const { id, ...patch } = req;
        return this.update(id, patch);
      },
      'emails.flush': () => {
        void this.sender.kick();
        return this.status();
      },
    };
  }
}
