import type { IssueEntry, IssueState } from '../../../common/calls/issuing';
import type { Bilingual, InvoiceKind } from '../../../common/model';
import type { IssuingInvoiceData, SignType } from '../../../common/model/issuing';
import { AppError } from '../../../common/errors';
import { newOwnerToken, ownerAlive } from '../store/owner';
import { CRASHED_WHILE_ISSUING, json, type Row } from './rows';
import { IssueQueueReads } from './reads';
import { recordIssuedFromQueue } from '../register/from-queue';
import type { Store } from '../store';

/** One invoice to queue: the frozen issuing form and what the list shows of it. */
export interface NewIssue {
  draftId: string | null;
  payload: IssuingInvoiceData;
  kind: InvoiceKind;
  signType: SignType;
  certificateSN: string | null;
  buyerName: string;
  /** Where the email goes after issuing ('' = none). */
  buyerEmail: string;
  total: string;
  currency: string;
  download: boolean;
  email: boolean;
  /** The draft's revision that was checked and frozen: a later save elsewhere refuses the queueing. */
  draftRevision?: number;
}

export interface ClaimedIssue {
  id: number;
  refId: string;
  kind: InvoiceKind;
  /** The frozen issuing form as stored: JSON text, sent as it is. */
  payload: string;
}

/** Invoices of one series taken by one process for one request: state `issuing`, armed. */
export interface IssueClaim {
  token: string;
  profileId: string;
  series: string;
  signType: SignType;
  certificateSN: string | null;
  entries: ClaimedIssue[];
  /** The request and the answer (free of the token), kept with the verdicts in one transaction. */
  exchange?: { request: string; answer: string | null };
}

export type IssueVerdict =
  | { state: 'issued'; transactionId: string; invNo: string | null; invoiceCode: string | null; invDate: string | null }
  /** The service refused it: certainly not issued. */
  | { state: 'failed'; errorCode: string | null; message: Bilingual; retryable: boolean }
  /** The service said "not now" (another request on the series): certainly not issued, due again later. */
  | { state: 'queued'; delayMs: number; message: Bilingual | null }
  /** It may have been issued: settled only by a status lookup by RefID. */
  /** It may have been issued: settled only by a status lookup by RefID. `serviceHas`: the service said it has the RefID (never sent again). */
  | { state: 'unknown'; message: Bilingual; serviceHas?: boolean };

export type ClaimAlive = (token: string) => boolean;

/**
 * The issue queue in the database. Every state change is one statement or one immediate
 * transaction, so a crash leaves each invoice in one well-defined state; a claim is armed in the
 * transaction that takes it, so an invoice whose request may have left is never `queued` again
 * before the service has been asked about it.
 */
/** Told when invoices just settled as issued could not be copied into the register. */
export type RegisterError = (error: unknown, queueIds: readonly number[]) => void;

export class IssueQueue extends IssueQueueReads {
  private readonly ownClaims = new Set<string>();
  private readonly claimAlive: ClaimAlive;
  private readonly registerError: RegisterError | undefined;

  constructor(store: Store, options: { now?: () => Date; claimAlive?: ClaimAlive; registerError?: RegisterError } = {}) {
    super(store, options.now);
    this.claimAlive = options.claimAlive ?? ownerAlive;
    this.registerError = options.registerError;
  }

  // ------------------------------------------------------------------ enqueue and read

  /** Queues one invoice and locks its draft, in one transaction. A RefID is queued at most once. */
  add(profileId: string, issue: NewIssue): IssueEntry {
    const at = this.iso();
    const id = this.store.transaction(() => {
      const existing = this.stmt('SELECT id FROM issue_queue WHERE profile_id = ? AND ref_id = ?').get(profileId, issue.payload.RefID);
      if (existing) {
        throw new AppError('issue_ref_taken', {
          en: `An invoice with RefID ${issue.payload.RefID} is already in the issue queue.`,
          vi: `Hóa đơn có RefID ${issue.payload.RefID} đã có trong hàng đợi phát hành.`,
        });
      }
      const r = this.stmt(
        `INSERT INTO issue_queue (profile_id, draft_id, ref_id, inv_series, inv_date, kind, sign_type, certificate_sn, buyer_name, buyer_email,
           total, currency, state, next_attempt_at, download_state, email_state, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
      ).run(
        profileId,
        issue.draftId,
        issue.payload.RefID,
        issue.payload.InvSeries,
        issue.payload.InvDate,
        issue.kind,
        issue.signType,
        issue.certificateSN,
        issue.buyerName,
        issue.buyerEmail,
        issue.total,
        issue.currency,
        at,
        issue.download ? 'waiting' : 'off',
        issue.email ? 'waiting' : 'off',
        at,
        at,
      );
      const newId = Number(r.lastInsertRowid);
      this.stmt('INSERT INTO issue_payloads (queue_id, payload) VALUES (?, ?)').run(newId, JSON.stringify(issue.payload));
      if (issue.draftId) {
        const locked = this.stmt(
          'UPDATE drafts SET issue_id = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL AND issue_id IS NULL AND (? IS NULL OR revision = ?)',
        ).run(newId, at, issue.draftId, issue.draftRevision ?? null, issue.draftRevision ?? null);
        if (Number(locked.changes) !== 1) {
          throw new AppError('draft_locked', {
            en: 'This draft is already queued for issuing or was changed meanwhile.',
            vi: 'Bản nháp này đã được đưa vào hàng đợi phát hành hoặc vừa bị thay đổi.',
          });
        }
      }
      return newId;
    });
    return this.get(id)!;
  }

  // ------------------------------------------------------------------ the issue cycle

  /** Runs several claims and settlements in one transaction (one commit). */
  together(fn: () => void): void {
    this.store.transaction(fn);
  }

  /**
   * Takes up to `max` due invoices of one series with one sign type, in queue order, unless a
   * request of that series is in flight (in any process) or its gap has not passed: state
   * `issuing`, a fresh claim token, armed. The request leaves right after the commit.
   */
  claim(profileId: string, series: string, max: number): IssueClaim | null {
    const claim = this.store.transaction(() => this.take(profileId, series, max));
    if (claim) this.ownClaims.add(claim.token);
    return claim;
  }

  private take(profileId: string, series: string, max: number): IssueClaim | null {
    const at = this.iso();
    const token = newOwnerToken();
    {
      const busy = this.stmt("SELECT 1 AS x FROM issue_queue WHERE profile_id = ? AND inv_series = ? AND state = 'issuing' LIMIT 1").get(profileId, series);
      const gap = this.stmt('SELECT free_at FROM issue_series WHERE profile_id = ? AND inv_series = ?').get(profileId, series) as
        { free_at: string } | undefined;
      if (busy || (gap && gap.free_at > at)) return null;
      const rows = this.stmt(
        `SELECT id, ref_id, kind, sign_type, certificate_sn, (SELECT payload FROM issue_payloads WHERE queue_id = id) AS payload FROM issue_queue
          WHERE profile_id = ? AND inv_series = ? AND state = 'queued' AND next_attempt_at <= ? ORDER BY id LIMIT ?`,
      ).all(profileId, series, at, max) as unknown as Row[];
      const first = rows[0];
      if (!first) return null;
      const taken = rows.filter((r) => r.sign_type === first.sign_type && r.certificate_sn === first.certificate_sn);
      const ids = taken.map((r) => r.id);
      const armed = this.stmt(
        `UPDATE issue_queue SET state = 'issuing', claim_token = ?, claimed_at = ?, attempts = attempts + 1, updated_at = ?
          WHERE state = 'queued' AND id IN (${ids.map(() => '?').join(', ')})`,
      ).run(token, at, at, ...ids);
      if (Number(armed.changes) !== ids.length) throw new Error('issue queue: a claimed invoice changed under the claim');
      return {
        token,
        profileId,
        series,
        signType: first.sign_type,
        certificateSN: first.certificate_sn,
        entries: taken.map((r) => ({
          id: r.id,
          refId: r.ref_id,
          kind: r.kind,
          payload: (r as Row & { payload: string }).payload,
        })),
      };
    }
  }

  /**
   * Records the verdict of each claimed invoice and frees the series after `gapMs`, in one
   * transaction; with no gap and `next`, the same transaction claims and arms the series' next
   * batch (one commit per request instead of two).
   */
  settle(claim: IssueClaim, verdicts: ReadonlyMap<number, IssueVerdict>, gapMs: number, next?: { max: number }): IssueClaim | null {
    const at = this.iso();
    const taken = this.store.transaction(() => {
      const issued: Array<{ id: number; tx: string; no: string | null; code: string | null; date: string | null }> = [];
      for (const e of claim.entries) {
        const v = verdicts.get(e.id) ?? {
          state: 'unknown',
          message: { en: 'The service did not answer for this invoice.', vi: 'Hệ thống không trả kết quả cho hóa đơn này.' },
        };
        if (v.state === 'issued') issued.push({ id: e.id, tx: v.transactionId, no: v.invNo, code: v.invoiceCode, date: v.invDate });
        else this.write(e.id, v, at, claim.token);
      }
      // The usual answer, a batch of issued invoices, is written by one statement.
      if (issued.length > 0) {
        this.stmt(
          `UPDATE issue_queue SET state = 'issued', transaction_id = v.tx, inv_no = v.no, invoice_code = v.code, inv_date = coalesce(v.d, inv_date),
             issued_at = ?, error_code = NULL, last_error = NULL, retryable = 0, unknown_since = NULL, claim_token = NULL, claimed_at = NULL, updated_at = ?
           FROM (SELECT value ->> '$.id' AS id, value ->> '$.tx' AS tx, value ->> '$.no' AS no, value ->> '$.code' AS code, value ->> '$.date' AS d
                   FROM json_each(?)) AS v
           WHERE issue_queue.id = v.id AND issue_queue.claim_token = ? AND issue_queue.state = 'issuing'`,
        ).run(at, at, JSON.stringify(issued), claim.token);
        this.recordInRegister(
          issued.map((i) => i.id),
          at,
        );
      }
      this.freeSeries(claim.profileId, claim.series, gapMs);
      this.keepExchange(claim);
      return next && gapMs <= 0 ? this.take(claim.profileId, claim.series, next.max) : null;
    });
    this.ownClaims.delete(claim.token);
    if (taken) this.ownClaims.add(taken.token);
    return taken;
  }

  private keepExchange(claim: IssueClaim): void {
    if (!claim.exchange) return;
    this.stmt('INSERT INTO issue_exchanges (profile_id, at, ref_ids, request, answer) VALUES (?, ?, ?, ?, ?)').run(
      claim.profileId,
      this.iso(),
      JSON.stringify(claim.entries.map((e) => e.refId)),
      claim.exchange.request,
      claim.exchange.answer,
    );
  }

  /** The request certainly did not leave (offline, refused sign-in, 429, the service's own 503): back to `queued`. */
  release(claim: IssueClaim, nextAt: Date, problem: Bilingual | null): void {
    this.store.transaction(() => {
      this.stmt(
        `UPDATE issue_queue SET state = 'queued', claim_token = NULL, claimed_at = NULL, attempts = max(0, attempts - 1), next_attempt_at = ?,
           last_error = ?, updated_at = ? WHERE claim_token = ? AND state = 'issuing'`,
      ).run(nextAt.toISOString(), json(problem), this.iso(), claim.token);
      this.keepExchange(claim);
    });
    this.ownClaims.delete(claim.token);
  }

  private write(id: number, v: IssueVerdict, at: string, token: string | null): void {
    const held = token === null ? "state IN ('unknown', 'issuing', 'queued')" : "claim_token = ? AND state = 'issuing'";
    const args = token === null ? [] : [token];
    const clear = 'claim_token = NULL, claimed_at = NULL, updated_at = ?';
    if (v.state === 'issued') {
      this.stmt(
        `UPDATE issue_queue SET state = 'issued', transaction_id = ?, inv_no = ?, invoice_code = ?, inv_date = coalesce(?, inv_date), issued_at = ?,
           error_code = NULL, last_error = NULL, retryable = 0, unknown_since = NULL, ${clear} WHERE id = ? AND ${held}`,
      ).run(v.transactionId, v.invNo, v.invoiceCode, v.invDate, at, at, id, ...args);
      this.recordInRegister([id], at);
    } else if (v.state === 'failed') {
      this.stmt(
        `UPDATE issue_queue SET state = 'failed', error_code = ?, last_error = ?, retryable = ?, unknown_since = NULL, ${clear} WHERE id = ? AND ${held}`,
      ).run(v.errorCode, json(v.message), v.retryable ? 1 : 0, at, id, ...args);
    } else if (v.state === 'queued') {
      this.stmt(
        `UPDATE issue_queue SET state = 'queued', next_attempt_at = ?, last_error = ?, unknown_since = NULL, lookups = 0, ${clear} WHERE id = ? AND ${held}`,
      ).run(this.iso(v.delayMs), json(v.message), at, id, ...args);
    } else {
      this.stmt(
        `UPDATE issue_queue SET state = 'unknown', last_error = ?, retryable = 0, unknown_since = coalesce(unknown_since, ?), lookups = 0,
           service_has = max(service_has, ${v.serviceHas ? 1 : 0}),
           next_attempt_at = ?, ${clear} WHERE id = ? AND ${held}`,
      ).run(json(v.message), at, at, at, id, ...args);
    }
  }

  /**
   * The register's copy of invoices just settled as issued, in its own savepoint: a failure there
   * must never fail (or undo) the settlement — that would leave an issued invoice `unknown`, and
   * the status lookup that settles it would fail the same way. The next sync lists it anyway.
   */
  private recordInRegister(ids: readonly number[], at: string): void {
    try {
      this.store.transaction((db) => recordIssuedFromQueue(db, ids, at));
    } catch (error) {
      // The database dropped the whole transaction (full disk, I/O error): nothing is settled.
      if (!this.store.db.isTransaction) throw error;
      this.registerError?.(error, ids);
    }
  }

  private freeSeries(profileId: string, series: string, gapMs: number): void {
    this.stmt(
      'INSERT INTO issue_series (profile_id, inv_series, free_at) VALUES (?, ?, ?) ON CONFLICT(profile_id, inv_series) DO UPDATE SET free_at = excluded.free_at',
    ).run(profileId, series, this.iso(gapMs));
  }

  // ------------------------------------------------------------------ unknown outcomes

  /** Writes what a status lookup settled (issued, or known not issued: queued again with its RefID). */
  resolve(id: number, v: IssueVerdict, seen: { lookups: number; unknownSince: string }): boolean {
    const at = this.iso();
    // Only the unknown row the lookup read: another lookup (another process) may have settled it since.
    return this.store.transaction(() => {
      const still = this.stmt("SELECT 1 AS x FROM issue_queue WHERE id = ? AND state = 'unknown' AND lookups = ? AND unknown_since = ?").get(
        id,
        seen.lookups,
        seen.unknownSince,
      );
      if (still) this.write(id, v, at, null);
      return still !== undefined;
    });
  }

  /** A lookup found nothing yet: ask again after `delayMs`. */
  lookedUp(id: number, delayMs: number, seen: { lookups: number }): void {
    this.stmt("UPDATE issue_queue SET lookups = lookups + 1, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state = 'unknown' AND lookups = ?").run(
      this.iso(delayMs),
      this.iso(),
      id,
      seen.lookups,
    );
  }

  /**
   * After a crash: invoices left `issuing` by a process that is gone may have been issued →
   * `unknown` (never `queued`). Claims of live processes (the app and the CLI share the database)
   * are left alone. Returns how many became unknown.
   */
  recover(): number {
    const rows = this.stmt("SELECT DISTINCT claim_token AS token, profile_id, inv_series FROM issue_queue WHERE state = 'issuing'").all() as Array<{
      token: string | null;
    }>;
    const stale = [...new Set(rows.map((r) => r.token))].filter((t) => t === null || (!this.ownClaims.has(t) && !this.claimAlive(t)));
    if (stale.length === 0) return 0;
    const at = this.iso();
    let n = 0;
    this.store.transaction(() => {
      const s = this.stmt(
        `UPDATE issue_queue SET state = 'unknown', claim_token = NULL, claimed_at = NULL, last_error = ?, unknown_since = ?, lookups = 0, next_attempt_at = ?,
           updated_at = ? WHERE state = 'issuing' AND claim_token IS ?`,
      );
      for (const t of stale) n += Number(s.run(json(CRASHED_WHILE_ISSUING), at, at, at, t).changes);
    });
    return n;
  }

  setInvoiceCode(id: number, code: string): void {
    this.stmt("UPDATE issue_queue SET invoice_code = ?, updated_at = ? WHERE id = ? AND state = 'issued'").run(code, this.iso(), id);
  }

  // ------------------------------------------------------------------ a person's actions

  /** A failed invoice queued again as it is (same RefID: the service never issued it). */
  retry(id: number): IssueEntry {
    const r = this.stmt(
      `UPDATE issue_queue SET state = 'queued', next_attempt_at = ?, error_code = NULL, last_error = NULL, retryable = 0, updated_at = ?
        WHERE id = ? AND state = 'failed' AND reopened_at IS NULL`,
    ).run(this.iso(), this.iso(), id);
    if (Number(r.changes) !== 1) throw notIn(id, 'failed', this.row(id));
    return this.get(id)!;
  }

  /** A failed invoice's draft opens for editing again: the lock is lifted; the row stays as history. */
  unlockDraft(id: number): string {
    return this.store.transaction(() => {
      const row = this.row(id);
      if (!row || row.state !== 'failed') throw notIn(id, 'failed', row);
      if (row.reopened_at !== null) {
        throw new AppError('issue_reopened', {
          en: 'The draft of this invoice was already opened for editing; find it in Drafts.',
          vi: 'Bản nháp của hóa đơn này đã được mở lại để sửa; hãy tìm trong mục Bản nháp.',
        });
      }
      if (!row.draft_id)
        throw new AppError('issue_no_draft', { en: 'This invoice was not queued from a draft.', vi: 'Hóa đơn này không được tạo từ bản nháp.' });
      this.stmt('UPDATE drafts SET issue_id = NULL, updated_at = ? WHERE id = ? AND issue_id = ?').run(this.iso(), row.draft_id, id);
      this.stmt('UPDATE issue_queue SET reopened_at = ?, retryable = 0, updated_at = ? WHERE id = ?').run(this.iso(), this.iso(), id);
      return row.draft_id;
    });
  }
}

function notIn(id: number, state: IssueState, row: Row | undefined): AppError {
  if (!row)
    return new AppError('issue_not_found', { en: `There is no invoice #${id} in the issue queue.`, vi: `Không có hóa đơn #${id} trong hàng đợi phát hành.` });
  return new AppError('issue_wrong_state', {
    en: `Invoice #${id} is ${row.state}; only a ${state} one can do this.`,
    vi: `Hóa đơn #${id} đang ở trạng thái ${row.state}; chỉ hóa đơn ở trạng thái ${state} mới làm được việc này.`,
  });
}
