import fs from 'node:fs';
import path from 'node:path';
import type { IssuedInvoice, IssuedQuery, SyncRange, SyncSummary } from '../../../common/calls/register';
import { IssuedQuerySchema } from '../../../common/calls/register';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { correctionDraft, ReferenceType, type InvoiceData, type InvoiceKind } from '../../../common/model';
import { draftFromInvoiceData, emptyDraft, type InvoiceDraft } from '../../../common/money';
import { newRefID, vietnamToday } from '../../../common/rules';
import { ClientFactory, chunk, isApiError, MAX_DOWNLOAD_BATCH, type ApiClient, type ClientPurpose } from '../api';
import type { SignedInSession } from '../auth';
import type { DraftsRepository } from '../drafts/repository';
import type { Store } from '../store';
import { RegisterRepository } from './repository';
import { activeScope, adoptUnknownSeller, hasUnknownSeller, rememberScope, type RegisterScope } from './service-key';
import { syncRange } from './sync';

export interface RegisterServiceDeps {
  store: Store;
  bus?: EventBus;
  drafts: DraftsRepository;
  activeProfileId: () => string;
  gate: { ready(signal?: AbortSignal): Promise<SignedInSession>; reportAuthFailure(profileId?: string): Promise<void> };
  clients?: ClientFactory;
  /** Shows a fetched invoice the way a draft's preview is shown (Electron's preview window, or a one-time page of the browser host). */
  viewer?: { show(bytes: Uint8Array, contentType: string | null, name: string): Promise<{ opened: boolean; path: string | null }> };
  /** Where `view` writes the PDF it fetched (a `views` folder is made in it). */
  dataDir: string;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}

const notFound = (id: string): AppError =>
  new AppError('issued_not_found', {
    en: `Invoice ${id} is not in the register of issued invoices: sync its date first.`,
    vi: `Hóa đơn ${id} chưa có trong danh sách hóa đơn đã phát hành: hãy đồng bộ ngày của hóa đơn trước.`,
  });

/** A file name part: letters, digits, dot, dash and underscore only. */
const safe = (s: string): string => s.replace(/[^A-Za-z0-9._-]+/g, '_');

/**
 * The register of issued invoices: list and search, sync a date range from the service, view one
 * (publishview), save converted paper copies (voucher-paper), and draft a correction pre-filled
 * from a register row. The issue queue writes the invoices it issues (register/from-queue.ts).
 */
export class RegisterService {
  readonly repo: RegisterRepository;
  private readonly clients: ClientFactory;
  private readonly now: () => Date;

  constructor(private readonly deps: RegisterServiceDeps) {
    this.repo = new RegisterRepository(deps.store);
    this.clients = deps.clients ?? new ClientFactory();
    this.now = deps.now ?? (() => new Date());
  }

  /** The active profile and its service now: the register shows only the rows read from it. */
  scope(profileId = this.deps.activeProfileId()): RegisterScope {
    const scope = activeScope(this.deps.store.db, profileId);
    if (hasUnknownSeller(this.deps.store.db, scope)) this.deps.store.transaction((db) => adoptUnknownSeller(db, scope));
    return scope;
  }

  list(q: IssuedQuery): { items: IssuedInvoice[]; total: number } {
    return this.repo.list(this.scope(), IssuedQuerySchema.parse(q));
  }

  get(transactionId: string): IssuedInvoice {
    const row = this.repo.get(this.scope(), transactionId);
    if (!row) throw notFound(transactionId);
    return row;
  }

  /** The invoice of this lookup code, if the register has read it. */
  find(transactionId: string): IssuedInvoice | null {
    return this.repo.get(this.scope(), transactionId.trim());
  }

  /** The invoices of this number (what a person may type where a lookup code is asked for). */
  byNumber(typed: string): IssuedInvoice[] {
    return /^\d{1,8}$/.test(typed.trim()) ? this.repo.byNumber(this.scope(), typed) : [];
  }

  /** Every invoice of a date range (newest first), e.g. to download or email them all. */
  all(q: Omit<IssuedQuery, 'offset' | 'limit'>): IssuedInvoice[] {
    const out: IssuedInvoice[] = [];
    for (let offset = 0; ; offset += 1000) {
      const page = this.list({ ...q, offset, limit: 1000 });
      out.push(...page.items);
      if (page.items.length < 1000) return out;
    }
  }

  async sync(range: SyncRange, signal?: AbortSignal): Promise<SyncSummary> {
    return this.withClient('register', signal, async (client, session) => {
      const scope = this.scope(session.profile.id);
      this.deps.store.transaction((db) => rememberScope(db, scope, this.now().toISOString()));
      return syncRange(
        {
          store: this.deps.store,
          repo: this.repo,
          client,
          scope,
          now: this.now,
          onProgress: (p) => this.deps.bus?.emit('issued.syncProgress', p),
          onChanged: () => this.changed(scope),
          ...(signal ? { signal } : {}),
        },
        range,
      );
    });
  }

  /** Fetches the invoice as the service shows it (publishview, link fetched at once) into `<dataDir>/views/`. */
  async view(transactionId: string): Promise<{ file: string; size: number; contentType: string | null; opened: boolean; path: string | null }> {
    const row = this.get(transactionId);
    return this.withClient('view', undefined, async (client, session) => {
      const got = await client.publishView([row.transactionId], { companyTaxCode: await this.taxCode(client, session.profile.id) });
      const dir = path.join(this.deps.dataDir, 'views');
      await fs.promises.mkdir(dir, { recursive: true });
      const file = path.join(dir, `${safe(row.invSeries)}_${safe(row.invNo)}_${safe(row.transactionId)}.pdf`);
      await fs.promises.writeFile(file, got.bytes);
      const shown = this.deps.viewer
        ? await this.deps.viewer.show(got.bytes, got.contentType, `${safe(row.invSeries)}_${safe(row.invNo)}`)
        : { opened: false, path: null };
      return { file, size: got.bytes.byteLength, contentType: got.contentType, ...shown };
    });
  }

  /** Saves the converted paper copy of each invoice (grouped by kind, 50 per request) into `folder`. */
  async paperCopy(input: { transactionIds: readonly string[]; converter: string; date?: string; folder: string }) {
    const scope = this.scope();
    const written: Array<{ transactionId: string; file: string }> = [];
    const failed: Array<{ transactionId: string; code: string | null; message: string }> = [];
    const byKind = new Map<InvoiceKind, IssuedInvoice[]>();
    for (const id of new Set(input.transactionIds)) {
      const row = this.repo.get(scope, id);
      if (!row) failed.push({ transactionId: id, code: 'issued_not_found', message: notFound(id).message });
      else byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row]);
    }
    if (byKind.size === 0) return { written, failed };
    const date = input.date ?? vietnamToday(this.now());
    await fs.promises.mkdir(input.folder, { recursive: true });
    await this.withClient('paper', undefined, async (client) => {
      for (const [kind, rows] of byKind) {
        for (const batch of chunk(rows, MAX_DOWNLOAD_BATCH)) {
          const items = await client.voucherPaper(
            batch.map((r) => r.transactionId),
            { converter: input.converter, date, kind },
          );
          for (const r of batch) {
            const item = items.find((i) => i.transactionId === r.transactionId);
            if (!item?.bytes) {
              failed.push({ transactionId: r.transactionId, code: item?.errorCode ?? null, message: item?.errorCode ?? 'no paper copy in the answer' });
              continue;
            }
            const file = path.join(input.folder, `${safe(r.invSeries)}_${safe(r.invNo)}_${safe(r.transactionId)}_chuyen-doi.pdf`);
            await fs.promises.writeFile(file, item.bytes);
            written.push({ transactionId: r.transactionId, file });
          }
        }
      }
    });
    return { written, failed };
  }

  /**
   * A new draft correcting a register row: ReferenceType, OrgInvoiceType 1, the original's series
   * digit and six characters, number and date come from the row, never from typing. A replacement
   * starts from the original's content when this app issued it (its frozen form), else from its buyer.
   */
  draftCorrection(input: { transactionId: string; correction: 'adjust' | 'replace'; reason: string }): { draftId: string } {
    const row = this.get(input.transactionId);
    const kind = input.correction === 'replace' ? ReferenceType.Replacement : ReferenceType.Adjustment;
    const record = {
      RefID: row.refId ?? '',
      TransactionID: row.transactionId,
      InvSeries: row.invSeries,
      InvNo: row.invNo,
      InvDate: row.invDate,
      PublishStatus: 1,
      EInvoiceStatus: row.eInvoiceStatus,
    };
    const init = { RefID: newRefID(), InvDate: vietnamToday(this.now()), InvSeries: row.invSeries };
    const made = correctionDraft(record, kind, input.reason, { ...init, original: this.originalContent(row, init) });
    if (!made.ok) throw new AppError(made.code, { en: made.message, vi: made.messageVi });
    if (!made.draft.correction?.InvoiceNote) {
      throw new AppError('correction.reason', { en: 'Give the reason for the correction.', vi: 'Cần nhập lý do điều chỉnh/thay thế.' });
    }
    const created = this.deps.drafts.create(made.draft);
    this.deps.bus?.emit('drafts.changed', { id: created.id, kind: 'created' });
    return { draftId: created.id };
  }

  private originalContent(row: IssuedInvoice, init: { RefID: string; InvDate: string; InvSeries: string }): InvoiceDraft {
    const frozen = this.deps.store.db
      .prepare(
        "SELECT p.payload FROM issue_queue q JOIN issue_payloads p ON p.queue_id = q.id WHERE q.profile_id = ? AND q.transaction_id = ? AND q.state = 'issued'",
      )
      .get(this.deps.activeProfileId(), row.transactionId) as { payload: string } | undefined;
    if (frozen) return draftFromInvoiceData(JSON.parse(frozen.payload) as InvoiceData);
    return emptyDraft({ ...init, BuyerLegalName: row.buyerName, BuyerTaxCode: row.buyerTaxCode, BuyerEmail: row.buyerEmail, CurrencyCode: row.currency });
  }

  /** The CompanyTaxCode header: the tax code signed in with, else the certificate's. */
  private async taxCode(client: ApiClient, profileId: string): Promise<string | null> {
    const row = this.deps.store.db.prepare('SELECT tax_code FROM profile_auth WHERE profile_id = ?').get(profileId) as { tax_code: string | null } | undefined;
    if (row?.tax_code) return row.tax_code;
    try {
      return (await client.certificates()).find((c) => c.taxCode)?.taxCode ?? null;
    } catch {
      return null;
    }
  }

  private async withClient<T>(
    purpose: ClientPurpose,
    signal: AbortSignal | undefined,
    fn: (client: ApiClient, session: SignedInSession) => Promise<T>,
  ): Promise<T> {
    const session = await this.deps.gate.ready(signal);
    const client = this.clients.forSession(session, purpose, this.deps.log ? { log: this.deps.log } : {});
    try {
      return await fn(client, session);
    } catch (error) {
      if (isApiError(error) && error.kind === 'auth') await this.deps.gate.reportAuthFailure(session.profile.id);
      throw error;
    } finally {
      await client.close();
    }
  }

  private changed(scope: RegisterScope): void {
    this.deps.bus?.emit('issued.changed', { count: this.repo.count(scope) });
  }

  handlers(): Pick<ContractHandlers, `issued.${'list' | 'get' | 'sync' | 'view' | 'paperCopy' | 'draftCorrection'}`> {
    return {
      'issued.list': (req) => this.list(req),
      'issued.get': (req) => this.get(req.transactionId),
      'issued.sync': (req) => this.sync(req),
      'issued.view': (req) => this.view(req.transactionId),
      'issued.paperCopy': (req) => this.paperCopy(req),
      'issued.draftCorrection': (req) => this.draftCorrection(req),
    };
  }
}
