import type { Dispatcher } from 'undici';
import type { Settings } from '../../../common/calls/settings';
import type { IssueEntry, IssueQueueStatus } from '../../../common/calls/issuing';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { issuingOptionsFromSettings } from '../../../common/money/options';
import { toDecimalString } from '../../../common/money';
import type { InvoiceKind } from '../../../common/model';
import { checkForIssue, issueBlocked, type IssueTemplate } from '../../../common/rules/issue-checks';
import { parseSeries } from '../../../common/rules/series';
import { CERTIFICATE_SIGN_TYPES, type SignType } from '../../../common/model/issuing';
import { splitEmails } from '../../../common/rules/email';
import { ClientFactory, type ApiClient } from '../api';
import type { SignedInSession } from '../auth';
import type { DraftsRepository } from '../drafts/repository';
import { workerPorts, type WorkGate } from '../scheduling/retimer';
import type { Store } from '../store';
import type { WorkInProgress } from '../updates/work-in-progress';
import { RECHECK_DAYS } from '../register/sync';
import { IssueExchanges } from './exchanges';
import { FollowUps, type FollowUpPorts } from './follow-ups';
import { IssueQueue, type ClaimAlive, type IssueClaim } from './queue';
import { IssueRunner, NotSentError, type IssueRunnerTuning } from './runner';
import { signTypeFor } from './sign-type';

export interface IssuingServiceDeps extends IssueRunnerTuning {
  store: Store;
  bus?: EventBus;
  drafts: DraftsRepository;
  settings: () => Settings;
  activeProfileId: () => string;
  gate: WorkGate;
  /** The cached templates of a profile for a year (to check the series before queueing). */
  templates?: {
    cached(profileId: string, year: number): { templates: Array<{ series: string; inactive: boolean; isSendSummary: boolean; isMoreVATRate: boolean }> };
  };
  clients?: ClientFactory;
  dispatcher?: Dispatcher;
  work?: WorkInProgress;
  /** After issuing: the download job and the email. Absent: no follow-ups (tests of the queue alone). */
  followUps?: FollowUpPorts;
  claimAlive?: ClaimAlive;
  /** Per-request timeout of the issue call (default 60 s); after it the outcome is unknown. */
  issueTimeoutMs?: number;
}

/**
 * The issue queue: checks and freezes a draft, queues it, issues it when the service is reachable
 * (IssueRunner), settles unknown outcomes by asking the service, and after issuing downloads the
 * invoice and queues the buyer's email.
 */
export class IssuingService {
  readonly queue: IssueQueue;
  readonly exchanges: IssueExchanges;
  readonly runner: IssueRunner<SignedInSession>;
  readonly followUps: FollowUps | null;
  private client: { key: string; client: ApiClient } | null = null;
  private readonly clients: ClientFactory;
  private readonly unsubscribe: Array<() => void> = [];
  private started = false;
  private certificate: { key: string; sn: string | null } | null = null;

  constructor(private readonly deps: IssuingServiceDeps) {
    this.clients = deps.clients ?? new ClientFactory();
    this.queue = new IssueQueue(deps.store, {
      ...(deps.now ? { now: () => new Date(deps.now!()) } : {}),
      ...(deps.claimAlive ? { claimAlive: deps.claimAlive } : {}),
      registerError: (error, queueIds) => {
        const invoices = queueIds.map((id) => this.queue.get(id)?.transactionId ?? `queue entry ${id}`);
        deps.log?.(
          'warn',
          `issue queue: ${invoices.length} issued invoice(s) not copied into the register (${invoices.join(', ')}): ${error instanceof Error ? error.message : String(error)}. A sync lists them if their date is within ${RECHECK_DAYS} days of today or not synced yet.`,
        );
      },
    });
    this.exchanges = new IssueExchanges(deps.store);
    this.followUps = deps.followUps ? new FollowUps(deps.store, deps.followUps, deps.settings, deps.log, (ids) => this.changed(ids)) : null;
    const tuning: IssueRunnerTuning = deps;
    this.runner = new IssueRunner<SignedInSession>({
      ...tuning,
      ...workerPorts(deps),
      queue: this.queue,
      issue: (session, claim, signal) => this.send(session, claim, signal),
      status: (session, refIds, kind, signal) => this.clientFor(session).status(refIds, { by: 'refId', kind, signal }),
      statusByTransaction: (session, ids, signal) => this.clientFor(session).status(ids, { by: 'transactionId', kind: 'withCode', signal }),
      gapMs: () => deps.settings().issuing.seriesGapMs,
      onChange: () => this.changed([]),
      onIssued: (ids) => {
        this.changed(ids);
        void this.followUps?.run(deps.activeProfileId());
      },
    });
  }

  private clientFor(session: SignedInSession): ApiClient {
    const key = `${session.endpoint.baseUrl}|${session.token}`;
    if (this.client?.key !== key) {
      if (this.client) void this.client.client.close();
      this.client = {
        key,
        client: this.clients.forSession(session, 'issue', {
          ...(this.deps.issueTimeoutMs ? { timeoutMs: this.deps.issueTimeoutMs } : {}),
          ...(this.deps.dispatcher ? { dispatcher: this.deps.dispatcher } : {}),
          ...(this.deps.log ? { log: this.deps.log } : {}),
        }),
      };
    }
    return this.client.client;
  }

  /** One issue request; its request and answer are kept in the local record. */
  private async send(session: SignedInSession, claim: IssueClaim, signal: AbortSignal) {
    // The invoices themselves are in their queue rows, frozen: the record names them by RefID.
    const request = JSON.stringify({ SignType: claim.signType, CertificateSN: claim.certificateSN, RefIDs: claim.entries.map((e) => e.refId) });
    try {
      let certificateSN = claim.certificateSN;
      if (!certificateSN && CERTIFICATE_SIGN_TYPES.includes(claim.signType)) {
        try {
          certificateSN = await this.onlyCertificate(session);
        } catch (error) {
          throw new NotSentError(error); // the issue request never left
        }
      }
      const outcome = await this.clientFor(session).issue(
        claim.entries.map((e) => ({ RefID: e.refId, json: e.payload })),
        { signType: claim.signType, certificateSN, signal, retry: false },
      );
      claim.exchange = { request, answer: JSON.stringify(outcome.answer) };
      return outcome;
    } catch (error) {
      claim.exchange = { request, answer: JSON.stringify({ error: error instanceof Error ? error.message : String(error) }) };
      throw error;
    }
  }

  /** No certificate chosen in Settings: the shop's only certificate, when it has exactly one. */
  private async onlyCertificate(session: SignedInSession): Promise<string | null> {
    const key = `${session.endpoint.baseUrl}|${session.profile.id}`;
    if (this.certificate?.key === key) return this.certificate.sn;
    const list = await this.clientFor(session).certificates();
    const sn = list.length === 1 ? list[0]!.certificateSN : null;
    this.certificate = { key, sn };
    return sn;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.queue.recover();
    if (this.deps.bus) {
      this.unsubscribe.push(this.deps.bus.on('app.online', (e) => void (e.online && this.runner.kick())));
      this.unsubscribe.push(this.deps.bus.on('auth.changed', () => void this.runner.kick()));
      this.unsubscribe.push(this.deps.bus.on('settings.changed', () => void this.followUps?.run(this.deps.activeProfileId())));
    }
    if (this.deps.work) {
      this.unsubscribe.push(
        this.deps.work.register('issuing.queue', () => {
          const n = this.runner.issuing;
          return n > 0 ? { busy: true, message: { en: `${n} invoices are being issued`, vi: `Đang phát hành ${n} hóa đơn` } } : { busy: false };
        }),
      );
    }
    void this.runner.kick();
    void this.followUps?.run(this.deps.activeProfileId());
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.runner.stop();
    await this.followUps?.stop();
    await this.client?.client.close();
    this.client = null;
  }

  /** An entry as the screens read it: a download waiting for a folder says so ('noFolder'). */
  private shown(e: IssueEntry): IssueEntry {
    return this.followUps ? this.followUps.shown(e) : e;
  }

  private changed(ids: number[]): void {
    this.deps.bus?.emit('issuing.changed', { ids });
  }

  /** Checks a draft as the service would, freezes its issuing form and queues it; the draft is locked. */
  queueDraft(draftId: string, emails?: string, over: { signType?: SignType; certificateSN?: string | null } = {}): IssueEntry {
    const profileId = this.deps.activeProfileId();
    const record = this.deps.drafts.get(draftId);
    const settings = this.deps.settings();
    const draft = record.draft;
    const series = parseSeries(draft.InvSeries);
    const year = series.ok ? series.year : Number(draft.InvDate.slice(0, 4));
    const cachedTemplate = this.deps.templates?.cached(profileId, year).templates.find((t) => {
      const p = parseSeries(t.series);
      return series.ok && p.ok && p.normalised === series.normalised;
    });
    const template: IssueTemplate | undefined = cachedTemplate && {
      InvSeries: cachedTemplate.series,
      Inactive: cachedTemplate.inactive,
      IsSendSummary: cachedTemplate.isSendSummary,
      IsMoreVATRate: cachedTemplate.isMoreVATRate,
    };
    const here = settings.issuing.series.map((x) => x.trim().toUpperCase()).filter(Boolean);
    if (here.length > 0 && series.ok && !here.includes(series.normalised)) {
      const words = {
        en: `This PC issues on series ${here.join(', ')} only (Settings → Issuing); ${series.normalised} is issued at another counter.`,
        vi: `Máy này chỉ phát hành ký hiệu ${here.join(', ')} (Cài đặt → Phát hành); ký hiệu ${series.normalised} do quầy khác phát hành.`,
      };
      throw new AppError('issue_series_elsewhere', words, { issues: [{ path: 'InvSeries', message: words.en, messageVi: words.vi }] });
    }
    const to = (emails ?? draft.BuyerEmail).trim();
    const serviceEmails = settings.issuing.email === 'service' && to !== '';
    const check = checkForIssue(draft, {
      ...issuingOptionsFromSettings(settings),
      template: template ?? (this.deps.templates ? null : { InvSeries: draft.InvSeries }),
      typedWords: record.meta.wordsEdited ? record.meta.words : null,
      lastIssuedDates: this.queue.lastIssuedDates(profileId),
      sendEmail: serviceEmails ? { name: draft.BuyerLegalName || draft.BuyerFullName, email: to } : null,
    });
    if (to !== '' && settings.issuing.email === 'queue' && splitEmails(to).invalid.length > 0) {
      throw new AppError(
        'email.format',
        { en: `The buyer's email is not valid: ${to}.`, vi: `Email người mua không hợp lệ: ${to}.` },
        { issues: [{ path: 'BuyerEmail', message: 'invalid', messageVi: 'không hợp lệ' }] },
      );
    }
    if (!check.ok) {
      throw new AppError('issue_check_failed', issueBlocked(check.errors), {
        issues: check.errors.map((p) => ({ path: p.path, message: p.message, messageVi: p.messageVi, code: p.code })),
      });
    }
    const kind: InvoiceKind = series.ok && series.typeLetter === 'M' ? 'cashRegister' : series.ok && series.withCode ? 'withCode' : 'withoutCode';
    const entry = this.queue.add(profileId, {
      draftId,
      payload: { ...check.form.data, InvSeries: series.ok ? series.normalised : draft.InvSeries.trim() },
      kind,
      signType: signTypeFor(over.signType ?? settings.issuing.signType, kind),
      certificateSN: over.certificateSN !== undefined ? over.certificateSN : settings.issuing.certificateSN,
      buyerName: draft.BuyerLegalName.trim() || draft.BuyerFullName.trim(),
      buyerEmail: to,
      total: toDecimalString(check.form.computed.totals.TotalAmountOC),
      currency: check.form.computed.currency,
      download: settings.issuing.autoDownload,
      draftRevision: record.revision,
      email: settings.issuing.email === 'queue' && to !== '',
    });
    this.deps.bus?.emit('drafts.changed', { id: draftId, kind: 'saved' });
    this.changed([entry.id]);
    void this.runner.kick();
    return entry;
  }

  status(): IssueQueueStatus {
    return { ...this.queue.summary(this.deps.activeProfileId()), runner: this.runner.status() };
  }

  /** Asks the service now about unknown invoices (all of them, or these). */
  async check(ids?: readonly number[]): Promise<{ settled: number; unknown: number }> {
    const profileId = this.deps.activeProfileId();
    const before = this.queue.counts(profileId).unknown;
    const session = await this.deps.gate.ready();
    await this.runner.settleUnknown(session, profileId, ids ? { ids } : { all: true });
    const after = this.queue.counts(profileId).unknown;
    void this.runner.kick();
    return { settled: before - after, unknown: after };
  }

  handlers(): Pick<ContractHandlers, `issuing.${'queue' | 'list' | 'get' | 'status' | 'check' | 'retry' | 'reopen' | 'flush' | 'certificates'}`> {
    return {
      'issuing.queue': (req) => this.shown(this.queueDraft(req.draftId, req.emails)),
      'issuing.list': (req) => {
        const r = this.queue.list(this.deps.activeProfileId(), req);
        return { ...r, items: r.items.map((e) => this.shown(e)) };
      },
      'issuing.get': (req) => {
        const e = this.queue.get(req.id);
        return e && this.shown(e);
      },
      'issuing.status': () => this.status(),
      'issuing.check': (req) => this.check(req.ids),
      'issuing.retry': (req) => {
        const entry = this.queue.retry(req.id);
        this.changed([entry.id]);
        void this.runner.kick();
        return this.shown(entry);
      },
      'issuing.reopen': (req) => {
        const draftId = this.queue.unlockDraft(req.id);
        this.deps.drafts.renewRefId(draftId);
        this.deps.bus?.emit('drafts.changed', { id: draftId, kind: 'saved' });
        this.changed([req.id]);
        return { draftId };
      },
      'issuing.flush': () => {
        void this.runner.kick();
        return this.status();
      },
      'issuing.certificates': async () => {
        const session = await this.deps.gate.ready();
        return { items: await this.clientFor(session).certificates() };
      },
    };
  }
}
