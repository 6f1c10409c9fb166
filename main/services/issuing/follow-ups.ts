import type { Settings } from '../../../common/calls/settings';
import type { InvoiceKind } from '../../../common/model';
import type { FollowUpState, IssueEntry } from '../../../common/calls/issuing';
import { AppError } from '../../../common/errors';
import { Passes } from '../scheduling/passes';
import { prepared, type Store } from '../store';
import { toEntry, type Row } from './rows';

/** What the rest of the app does for an issued invoice. */
export interface FollowUpPorts {
  /** Creates and starts one download job for these invoices (throws when there is no folder to put them in). */
  download(profileId: string, transactionIds: string[], kind: InvoiceKind, type: 'Pdf' | 'Xml'): Promise<void>;
  /** Queues the buyer's email; returns the email queue entry's id (an invoice already queued or sent keeps its entry). */
  email(profileId: string, entry: { transactionId: string; receiverName: string; receiverEmail: string; kind: InvoiceKind }): number | null;
}

/**
 * After issuing, the rest of the day happens by itself: each issued invoice is downloaded into
 * the shop's folder and its buyer's email is queued, once. Both steps are marked done in the
 * queue right after they happen, so a restart picks up only what is still waiting.
 */
export class FollowUps {
  private stopped = false;
  /** Entries the pass in progress marked. */
  private readonly marked: number[] = [];
  private readonly passes = new Passes<string>((profileId) => this.pass(profileId), { stopped: () => this.stopped });

  constructor(
    private readonly store: Store,
    private readonly ports: FollowUpPorts,
    private readonly settings: () => Settings,
    private readonly log?: (level: 'info' | 'warn' | 'error', message: string) => void,
    /** After a pass marked these entries (their download or email done or failed). */
    private readonly changed?: (ids: number[]) => void,
  ) {}

  run(profileId: string): Promise<void> {
    return this.passes.run(profileId);
  }

  /**
   * An entry as people read it: a download that waits only because no download folder is chosen
   * (the download port refuses without one: issue_no_folder) says so, 'noFolder'.
   */
  shown(e: IssueEntry): IssueEntry {
    return e.download === 'waiting' && !this.settings().downloadFolder ? { ...e, download: 'noFolder' } : e;
  }

  /** Lets a pass in progress finish; none starts after. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.passes.current?.catch(() => {});
  }

  /** A pass tells once, at its end, which entries it marked (one pass runs at a time). */
  private async pass(profileId: string): Promise<void> {
    try {
      await this.follow(profileId);
    } finally {
      const ids = this.marked.splice(0);
      if (ids.length > 0) this.changed?.(ids);
    }
  }

  private async follow(profileId: string): Promise<void> {
    const due = this.due(profileId);
    for (const e of due) {
      if (this.stopped) return;
      if (e.email !== 'waiting' || !e.transactionId) continue;
      try {
        const emailId = this.ports.email(profileId, { transactionId: e.transactionId, receiverName: e.buyerName, receiverEmail: e.buyerEmail, kind: e.kind });
        this.mark(e.id, { email: 'done', emailId });
      } catch (error) {
        this.mark(e.id, { email: 'failed' });
        this.log?.('warn', `issue queue: the email of invoice ${e.transactionId} was not queued: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const downloads = due.filter((e) => e.download === 'waiting' && e.transactionId);
    const byKind = new Map<InvoiceKind, typeof downloads>();
    for (const e of downloads) byKind.set(e.kind, [...(byKind.get(e.kind) ?? []), e]);
    for (const [kind, list] of byKind) {
      let state: 'done' | 'failed' | 'waiting' = 'done';
      try {
        for (const type of this.settings().issuing.downloadTypes) {
          await this.ports.download(
            profileId,
            list.map((e) => e.transactionId!),
            kind,
            type,
          );
        }
      } catch (error) {
        // No folder chosen yet: the invoices wait and are downloaded once one is (settings.changed);
        // meanwhile they read as 'noFolder' (shown).
        state = error instanceof AppError && error.code === 'issue_no_folder' ? 'waiting' : 'failed';
        if (state === 'waiting') continue;
        this.log?.('warn', `issue queue: ${list.length} issued invoices were not downloaded: ${error instanceof Error ? error.message : String(error)}`);
      }
      for (const e of list) this.mark(e.id, { download: state });
    }
  }

  /** Issued invoices whose follow-ups wait. */
  private due(profileId: string, limit = 200): IssueEntry[] {
    return (
      prepared(
        this.store.db,
        `SELECT * FROM issue_queue WHERE profile_id = ? AND state = 'issued' AND (download_state = 'waiting' OR email_state = 'waiting') ORDER BY id LIMIT ?`,
      ).all(profileId, limit) as unknown as Row[]
    ).map(toEntry);
  }

  private mark(id: number, patch: { download?: FollowUpState; email?: FollowUpState; emailId?: number | null }): void {
    const r = prepared(this.store.db, 'SELECT * FROM issue_queue WHERE id = ?').get(id) as Row | undefined;
    if (!r) return;
    prepared(this.store.db, 'UPDATE issue_queue SET download_state = ?, email_state = ?, email_id = ?, updated_at = ? WHERE id = ?').run(
      patch.download ?? r.download_state,
      patch.email ?? r.email_state,
      patch.emailId === undefined ? r.email_id : patch.emailId,
      new Date().toISOString(),
      id,
    );
    this.marked.push(id);
  }
}
