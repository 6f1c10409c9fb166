import { type EmailAddResult, type EmailEntry, type EmailLeft, type EmailSkip, type EmailState } from '../../../common/calls/emails';
import type { Bilingual, InvoiceKind } from '../../../common/model';
import { newOwnerToken, ownerAlive } from '../store/owner';
import { AppError } from '../../../common/errors';
import type { Store } from '../store';
import { claimLost, CRASHED_WHILE_SENDING, groupVerdicts, type Claim, type ClaimAlive, type ClaimedEntry, type Settlement } from './claims';
import { BULK_SQL, recipientsOf, stamp, toEntry, type Row } from './entries';
import { OutboxReads } from './reads';
import { cancelledAfterMaybeSent, HISTORY_SQL, leftOf, NOT_SENT, reasonFor, RESENDABLE, skipOf } from './history';
import { checkInput, type CleanInput, type Recipients } from './input';
import { decodeRows, rowsJsonb, type EncodedRows } from './csv';

/** States the user may cancel / edit. */
const CANCELLABLE_STATES: readonly EmailState[] = ['queued', 'failed', 'unknown'];
const EDITABLE_STATES: readonly EmailState[] = ['queued', 'failed', 'unknown', 'cancelled'];

/** An entry going back to the queue: due now, its last outcome (kept in its history) cleared. */
const REQUEUE_SET =
  "state = 'queued', next_attempt_at = '', send_email_status = NULL, error_code = NULL, retryable = 0, last_error = NULL, last_error_vi = NULL, done_at = NULL";

interface OutboxOptions {
  now?: () => number;
  /** Is a claim's owner alive? Only a dead owner's claim is recovered, however old it is. */
  claimAlive?: ClaimAlive;
}

/**
 * The outbox repository: every state change is one SQL statement or one immediate transaction,
 * so a crash at any moment leaves each entry in exactly one well-defined state.
 */
export class Outbox extends OutboxReads {
  private readonly claimAlive: ClaimAlive;
  /** The claims this process (this Outbox) holds right now, each with the profile it belongs to. */
  private readonly ownClaims = new Map<string, string>();

  constructor(store: Store, options: OutboxOptions = {}) {
    super(store, options.now ?? Date.now);
    this.claimAlive = options.claimAlive ?? ownerAlive;
  }

  // ------------------------------------------------------------------ enqueue

  /**
   * Adds clean entries in one transaction, one entry per invoice: an invoice without an entry
   * gets one; one whose entry failed or was cancelled is queued again with the new recipients;
   * one already waiting, sent, handed to the service or with an unknown outcome is skipped with
   * the reason — unless `resend` (the user chose "send again"), which queues those too. An entry
   * queued again keeps its earlier outcome in its history.
   */
  add(
    profileId: string,
    inputs: ReadonlyArray<{ input: CleanInput; line?: number | null; index?: number | null }>,
    options: { resend?: boolean } = {},
  ): EmailAddResult {
    const added: number[] = [];
    const skipped: EmailSkip[] = [];
    const at = this.now();
    const again = options.resend ? RESENDABLE : NOT_SENT;
    this.store.transaction(() => {
      const latest = this.stmt('SELECT * FROM email_outbox WHERE profile_id = ? AND transaction_id = ? ORDER BY id DESC LIMIT 1');
      const insert = this.stmt(
        `INSERT INTO email_outbox (profile_id, transaction_id, receiver_name, receiver_email, cc_email, bcc_email, reply_email, kind,
           state, next_attempt_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'queued', '', ?, ?)`,
      );
      const requeue = this.stmt(
        `UPDATE email_outbox SET receiver_name = ?, receiver_email = ?, cc_email = ?, bcc_email = ?, reply_email = ?, kind = ?, ${REQUEUE_SET}, updated_at = ?
         WHERE id = ?`,
      );
      const rest = this.insertNew(profileId, inputs, at, added);
      for (const { input, line = null, index = null } of rest) {
        const row = latest.get(profileId, input.transactionId) as Row | undefined;
        if (!row) {
          const r = insert.run(
            profileId,
            input.transactionId,
            input.receiverName,
            input.receiverEmail,
            input.ccEmail,
            input.bccEmail,
            input.replyEmail,
            input.kind,
            at,
            at,
          );
          added.push(Number(r.lastInsertRowid));
        } else if (again.includes(row.state) && (options.resend || !this.cancelledAfterMaybeSent(row))) {
          this.stmt(HISTORY_SQL.archive).run(row.id);
          requeue.run(input.receiverName, input.receiverEmail, input.ccEmail, input.bccEmail, input.replyEmail, input.kind, at, row.id);
          added.push(row.id);
        } else {
          skipped.push(skipOf(row, line, index));
        }
      }
    });
    return { added, rejected: [], skipped };
  }

  /**
   * The bulk of an import: inserts, in one statement, the inputs whose invoice has no entry yet
   * (the first row of each), adding their entry numbers to `added`; returns the others, in order,
   * for the row-by-row path (an invoice seen before, a repeat within the inputs).
   */
  private insertNew<T extends { input: CleanInput }>(profileId: string, inputs: readonly T[], at: string, added: number[]): T[] {
    if (inputs.length < 2) return [...inputs];
    const known = this.stmt(BULK_SQL.known).all(profileId, JSON.stringify(inputs.map((i) => i.input.transactionId))) as Array<{ tx: string }>;
    const seen = new Set(known.map((k) => k.tx));
    const fresh: CleanInput[] = [];
    const rest: T[] = [];
    for (const item of inputs) {
      if (seen.has(item.input.transactionId)) rest.push(item);
      else fresh.push(item.input);
      seen.add(item.input.transactionId);
    }
    if (fresh.length === 0) return rest;
    for (const id of this.insertRows(profileId, rowsJsonb(fresh), at)) added.push(id);
    return rest;
  }

  /**
   * Adds a chunk of an import: in one statement when none of its invoices has an entry yet and none
   * repeats within it (a new file), otherwise as `add` does, row by row where it must.
   */
  addRows(profileId: string, rows: EncodedRows, options: { resend?: boolean } = {}): EmailAddResult {
    const fresh = () => (this.stmt(BULK_SQL.anyKnown).get(profileId, rows.jsonb) ? null : this.insertRows(profileId, rows.jsonb, this.now()));
    const added = rows.repeats ? null : this.store.transaction(fresh);
    return added ? { added, rejected: [], skipped: [] } : this.add(profileId, decodeRows(rows), options);
  }

  /** Inserts queued entries from rows encoded as csv.ts's EncodedRows are, in their order; their entry numbers. */
  private insertRows(profileId: string, jsonb: Uint8Array, at: string): number[] {
    return (this.stmt(BULK_SQL.insert).all(profileId, at, jsonb) as Array<{ id: number }>).map((r) => r.id);
  }

  private cancelledAfterMaybeSent(row: Row): boolean {
    if (row.state !== 'cancelled') return false;
    const last = this.stmt(HISTORY_SQL.latest).get(row.id) as { state: EmailState } | undefined;
    return cancelledAfterMaybeSent(last?.state);
  }

  // ------------------------------------------------------------------ the send cycle

  /**
   * The sender's one transaction per batch: records the verdicts of the batch that just came
   * back (`previous`), then claims up to `max` due entries of ONE kind (the kind of the oldest due
   * entry) — state `sending`, a fresh claim token, attempts + 1 — and arms them (`claimed_at`): the
   * caller sends the request right after the commit, so from then on a crash leaves them `unknown`.
   * Two processes never claim the same entry; one TransactionID appears at most once per claim.
   * Returns null when nothing is due (the verdicts are recorded all the same).
   */
  claim(profileId: string, max: number, previous: Settlement | null = null): Claim | null {
    const at = this.now();
    const token = newOwnerToken();
    const claim = this.store.transaction(() => {
      if (previous) this.writeVerdicts(previous, at);
      const first = this.stmt(
        "SELECT kind FROM email_outbox WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT 1",
      ).get(profileId, at) as { kind: InvoiceKind } | undefined;
      if (!first) return null;
      const rows = this.stmt(
        `SELECT id, transaction_id, receiver_name, receiver_email, cc_email, bcc_email, reply_email, attempts FROM email_outbox
         WHERE profile_id = ? AND state = 'queued' AND next_attempt_at <= ? AND kind = ? ORDER BY next_attempt_at, id LIMIT ?`,
      ).all(profileId, at, first.kind, max + 8) as unknown as Row[];
      const seen = new Set<string>();
      const entries: ClaimedEntry[] = [];
      for (const r of rows) {
        if (seen.has(r.transaction_id)) continue;
        seen.add(r.transaction_id);
        entries.push({ id: r.id, transactionId: r.transaction_id, ...recipientsOf(r), attempts: r.attempts + 1 });
        if (entries.length >= max) break;
      }
      const armed = this.stmt(
        `UPDATE email_outbox SET state = 'sending', claim_token = ?1, claimed_at = ?2, attempts = attempts + 1, updated_at = ?2
           WHERE state = 'queued' AND id IN (SELECT value FROM json_each(?3))`,
      ).run(token, at, idsOf({ entries }));
      if (Number(armed.changes) !== entries.length) throw claimLost(entries.length, Number(armed.changes));
      this.moveCounts(profileId, 'queued', 'sending', entries.length);
      return { token, kind: first.kind, profileId, entries };
    });
    if (previous) this.ownClaims.delete(previous.token);
    if (claim) this.ownClaims.set(claim.token, profileId);
    return claim;
  }

  /**
   * Runs `fn` in one write transaction: the sender's lanes claim and settle in it together, each
   * piece in its own savepoint (one commit, one fsync, for all of them).
   */
  together(fn: () => void): void {
    this.store.transaction(fn);
  }

  /** Records the service's verdict for each claimed entry (only rows still held by this claim). */
  settle(settlement: Settlement): void {
    const at = this.now();
    this.store.transaction(() => this.writeVerdicts(settlement, at));
    this.ownClaims.delete(settlement.token);
  }

  /**
   * Moves `n` entries of a profile from one state to another in the counts: what a send-cycle
   * statement does instead of a trigger per row (into or out of `sending`; schema.ts).
   */
  private moveCounts(profileId: string, from: EmailState, to: EmailState, n: number): void {
    if (n === 0) return;
    this.stmt('UPDATE email_state_counts SET n = n + CASE state WHEN ?3 THEN ?4 ELSE -?4 END WHERE profile_id = ?1 AND state IN (?2, ?3)').run(
      profileId,
      from,
      to,
      n,
    );
  }

  /** Writes every verdict or none: the rows changed must be the rows the claim holds. */
  private writeVerdicts({ token, verdicts }: Settlement, at: string): void {
    const first = verdicts.keys().next();
    if (first.done) return;
    // A claim's entries are of one profile: the one it was claimed for.
    const profileId =
      this.ownClaims.get(token) ??
      (this.stmt('SELECT profile_id FROM email_outbox WHERE id = ?').get(first.value) as { profile_id: string } | undefined)?.profile_id;
    let changed = 0;
    for (const { v, ids } of groupVerdicts(verdicts)) {
      const done = v.state === 'sent' || v.state === 'requested' || v.state === 'sendingAtService' ? at : null;
      const r = this.stmt(
        `UPDATE email_outbox SET state = ?, send_email_status = ?, error_code = ?, retryable = ?, last_error = ?, last_error_vi = ?,
           claim_token = NULL, claimed_at = NULL, updated_at = ?, done_at = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND claim_token = ? AND state = 'sending'`,
      ).run(v.state, v.sendEmailStatus, v.errorCode, v.retryable ? 1 : 0, v.message?.en ?? null, v.message?.vi ?? null, at, done, JSON.stringify(ids), token);
      changed += Number(r.changes);
      if (profileId !== undefined) this.moveCounts(profileId, 'sending', v.state, Number(r.changes));
    }
    if (changed !== verdicts.size) throw claimLost(verdicts.size, changed);
  }

  /**
   * The request certainly did not reach the service (connection refused, 429, 503, auth refused
   * before sending…): the claimed entries go back to `queued`, due at `nextAt`, the attempt not counted.
   */
  release(claim: Claim, nextAt: number, problem: Bilingual | null): void {
    const at = this.now();
    this.store.transaction(() => {
      const r = this.stmt(
        `UPDATE email_outbox SET state = 'queued', claim_token = NULL, claimed_at = NULL, attempts = max(0, attempts - 1),
           next_attempt_at = ?, last_error = ?, last_error_vi = ?, updated_at = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND claim_token = ? AND state = 'sending'`,
      ).run(stamp(nextAt), problem?.en ?? null, problem?.vi ?? null, at, idsOf(claim), claim.token);
      this.moveCounts(claim.profileId, 'sending', 'queued', Number(r.changes));
    });
    this.ownClaims.delete(claim.token);
  }

  /** The request may have reached the service: every claimed entry waits in `unknown` for the user. */
  markUnknown(claim: Claim, problem: Bilingual): void {
    this.store.transaction(() => {
      const r = this.stmt(
        `UPDATE email_outbox SET state = 'unknown', claim_token = NULL, claimed_at = NULL, retryable = 0, last_error = ?, last_error_vi = ?, updated_at = ?
         WHERE id IN (SELECT value FROM json_each(?)) AND claim_token = ? AND state = 'sending'`,
      ).run(problem.en, problem.vi, this.now(), idsOf(claim), claim.token);
      this.moveCounts(claim.profileId, 'sending', 'unknown', Number(r.changes));
    });
    this.ownClaims.delete(claim.token);
  }

  /**
   * After a crash or restart: entries left in `sending` by a process that is gone (however old or
   * young the claim: a clock proves nothing) may have been sent → `unknown`; entries claimed but not armed (the
   * request never left) go back to `queued`. Claims of live processes (the app and the CLI share
   * the database) are left alone. Returns how many became `unknown`. Runs at the start of every
   * flush, so an offline PC retries it every few seconds: when every profile's count of `sending`
   * (moved in the same transaction as the rows) is 0, the table is not read at all — at 100 000
   * entries that read is a pass over the whole table. A count that is not 0, right or not, reads it.
   */
  recover(): number {
    if (this.stmt("SELECT 1 AS x FROM email_state_counts WHERE state = 'sending' AND n <> 0 LIMIT 1").get() === undefined) return 0;
    const rows = this.stmt("SELECT DISTINCT claim_token AS token, profile_id AS profileId FROM email_outbox WHERE state = 'sending'").all() as Array<{
      token: string | null;
      profileId: string;
    }>;
    const stale = rows.filter((r) => r.token === null || (!this.ownClaims.has(r.token) && !this.claimAlive(r.token)));
    if (stale.length === 0) return 0;
    let n = 0;
    this.store.transaction(() => {
      const unknown = this.stmt(
        `UPDATE email_outbox SET state = 'unknown', claim_token = NULL, claimed_at = NULL, retryable = 0, last_error = ?, last_error_vi = ?, updated_at = ?
         WHERE state = 'sending' AND claim_token IS ? AND profile_id = ? AND claimed_at IS NOT NULL`,
      );
      const requeue = this.stmt(
        `UPDATE email_outbox SET state = 'queued', claim_token = NULL, attempts = max(0, attempts - 1), updated_at = ?
         WHERE state = 'sending' AND claim_token IS ? AND profile_id = ? AND claimed_at IS NULL`,
      );
      for (const r of stale) {
        const lost = Number(unknown.run(CRASHED_WHILE_SENDING.en, CRASHED_WHILE_SENDING.vi, this.now(), r.token, r.profileId).changes);
        this.moveCounts(r.profileId, 'sending', 'unknown', lost);
        this.moveCounts(r.profileId, 'sending', 'queued', Number(requeue.run(this.now(), r.token, r.profileId).changes));
        n += lost;
      }
    });
    return n;
  }

  // ------------------------------------------------------------------ user actions

  private bulk(ids: readonly number[], allowed: readonly EmailState[], set: string): { changed: number; skipped: number } {
    let changed = 0;
    const at = this.now();
    const unique = [...new Set(ids)];
    this.store.transaction(() => {
      const s = this.stmt(`UPDATE email_outbox SET ${set}, updated_at = ? WHERE id = ? AND state IN (${allowed.map((a) => `'${a}'`).join(', ')})`);
      for (const id of unique) changed += Number(s.run(at, id).changes);
    });
    return { changed, skipped: unique.length - changed };
  }

  /**
   * Queues entries again, due now, their current outcome kept in their history. `retry` takes only
   * what was certainly not sent; `resend` is the user's confirmed "send again". Entries left as
   * they were are listed with the reason.
   */
  requeue(ids: readonly number[], mode: 'retry' | 'resend' | 'retryUnknown'): { changed: number; skipped: number; left: EmailLeft[] } {
    const allowed: readonly EmailState[] = mode === 'resend' ? RESENDABLE : mode === 'retryUnknown' ? [...NOT_SENT, 'unknown'] : NOT_SENT;
    const left: EmailLeft[] = [];
    let changed = 0;
    const at = this.now();
    const unique = [...new Set(ids)];
    this.store.transaction(() => {
      const requeue = this.stmt(`UPDATE email_outbox SET ${REQUEUE_SET}, updated_at = ? WHERE id = ?`);
      for (const id of unique) {
        const row = this.row(id);
        if (!row) left.push(leftOf(id, row, { en: `There is no email #${id}.`, vi: `Không có email #${id}.` }));
        else if (!allowed.includes(row.state) || (mode !== 'resend' && this.cancelledAfterMaybeSent(row))) {
          left.push(leftOf(id, row, reasonFor(row, mode === 'resend' ? 'add' : 'retry')));
        } else {
          this.stmt(HISTORY_SQL.archive).run(id);
          changed += Number(requeue.run(at, id).changes);
        }
      }
    });
    return { changed, skipped: unique.length - changed, left };
  }

  /** Not to be sent: a failed or unknown outcome is kept in the entry's history. */
  cancel(ids: readonly number[]): { changed: number; skipped: number } {
    return this.store.transaction(() => {
      const archive = this.stmt(HISTORY_SQL.archive.replace('WHERE id = ?', "WHERE id = ? AND state IN ('failed', 'unknown')"));
      for (const id of new Set(ids)) archive.run(id);
      return this.bulk(ids, CANCELLABLE_STATES, "state = 'cancelled'");
    });
  }

  remove(ids: readonly number[]): { changed: number; skipped: number } {
    let changed = 0;
    const unique = [...new Set(ids)];
    this.store.transaction(() => {
      const s = this.stmt("DELETE FROM email_outbox WHERE id = ? AND state <> 'sending'");
      for (const id of unique) changed += Number(s.run(id).changes);
    });
    return { changed, skipped: unique.length - changed };
  }

  /** Changes recipients of an entry not yet sent; addresses are checked and normalised. */
  update(id: number, patch: Partial<Recipients>): EmailEntry {
    return this.store.transaction(() => {
      const row = this.row(id);
      if (!row) throw new AppError('email_not_found', { en: `There is no queued email #${id}.`, vi: `Không có email #${id} trong hàng đợi.` });
      if (!EDITABLE_STATES.includes(row.state)) {
        throw new AppError('email_not_editable', {
          en: `Email #${id} (${row.transaction_id}) can no longer be changed: it is ${row.state}.`,
          vi: `Không thể sửa email #${id} (${row.transaction_id}) nữa: trạng thái hiện tại là ${row.state}.`,
        });
      }
      const checked = checkInput({ transactionId: row.transaction_id, kind: row.kind, ...recipientsOf(row), ...definedOnly(patch) });
      if (!checked.ok) {
        throw new AppError('email_invalid', checked.problem, { issues: [{ path: 'recipients', message: checked.problem.en, messageVi: checked.problem.vi }] });
      }
      const v = checked.value;
      this.stmt('UPDATE email_outbox SET receiver_name = ?, receiver_email = ?, cc_email = ?, bcc_email = ?, reply_email = ?, updated_at = ? WHERE id = ?').run(
        v.receiverName,
        v.receiverEmail,
        v.ccEmail,
        v.bccEmail,
        v.replyEmail,
        this.now(),
        id,
      );
      return toEntry(this.row(id)!);
    });
  }
}

/** A claim's entry numbers as the JSON list its statements take (`id IN (SELECT value FROM json_each(?))`). */
function idsOf(claim: Pick<Claim, 'entries'>): string {
  return JSON.stringify(claim.entries.map((e) => e.id));
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
