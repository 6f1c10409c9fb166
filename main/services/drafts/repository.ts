import type { SQLInputValue } from 'node:sqlite';
import type { DraftRecord, DraftSummary } from '../../../common/calls/drafts';
import type { ParsedRequest } from '../../../common/contract';
import { InvoiceDraftSchema, DraftMetaSchema } from '../../../common/calls/drafts';
import { AppError } from '../../../common/errors';
import { InvoiceDataSchema, type InvoiceData } from '../../../common/model';
import {
  computeInvoice,
  draftFromInvoiceData,
  emptyDraft,
  IncrementalCompute,
  serialiseDraft,
  toDecimalString,
  type ComputeOptions,
  type InvoiceDraft,
} from '../../../common/money';
import { newRefID, vietnamToday } from '../../../common/rules';
import type { Store } from '../store';

export type DraftMeta = DraftRecord['meta'];
/** What `drafts.saveChanges` carries besides the draft's id and meta. */
export type DraftChanges = Pick<ParsedRequest<'drafts.saveChanges'>, 'base' | 'head' | 'lineCount' | 'lines'>;
export type DraftSort = 'updated' | 'created' | 'date' | 'buyer' | 'total';

export interface ListOptions {
  query?: string;
  sort?: DraftSort;
  direction?: 'asc' | 'desc';
  limit?: number;
  /** Include drafts in the bin (default false). */
  includeDeleted?: boolean;
}

interface Row {
  id: string;
  body: string;
  meta: string;
  buyer_name: string;
  buyer_tax_code: string;
  inv_series: string;
  inv_date: string;
  currency: string;
  total: string;
  line_count: number;
  revision: number;
  created_at: string;
  updated_at: string;
  last_previewed_at: string | null;
  deleted_at: string | null;
  issue_id: number | null;
  issue_state: NonNullable<DraftSummary['issue']>['state'] | null;
  issue_inv_no: string | null;
}

const DERIVED_COLUMNS = ['buyer_name', 'buyer_tax_code', 'inv_series', 'inv_date', 'currency', 'total', 'total_num', 'line_count'] as const;
const SUMMARY_COLUMNS = `id, buyer_name, buyer_tax_code, inv_series, inv_date, currency, total, line_count, revision, created_at, updated_at, last_previewed_at,
  deleted_at, issue_id, (SELECT state FROM issue_queue q WHERE q.id = drafts.issue_id) AS issue_state,
  (SELECT inv_no FROM issue_queue q WHERE q.id = drafts.issue_id) AS issue_inv_no`;

/** A draft queued for issuing (or issued) cannot change: say so, in words. */
export function draftLocked(): AppError {
  return new AppError('draft_locked', {
    en: 'This invoice has been sent for issuing and can no longer be changed. If the service refused it, use "Edit and queue again" in the issue queue.',
    vi: 'Hóa đơn này đã được gửi phát hành nên không thể sửa nữa. Nếu hệ thống từ chối, hãy dùng "Sửa và gửi lại" trong hàng đợi phát hành.',
  });
}

/** A save of only what changed was based on a revision the draft is no longer at: save it whole. */
export function draftChanged(): AppError {
  return new AppError('draft_changed', {
    en: 'This draft was changed elsewhere since it was last saved here. It is saved whole instead.',
    vi: 'Bản nháp này đã được sửa ở nơi khác kể từ lần lưu trước tại đây. Bản nháp sẽ được lưu lại toàn bộ.',
  });
}

const DEFAULT_META: DraftMeta = { wordsEdited: false, words: '' };

export function draftNotFound(id: string): AppError {
  return new AppError('draft_not_found', {
    en: `There is no draft ${id} (it may have been deleted).`,
    vi: `Không có bản nháp ${id} (có thể đã bị xoá).`,
  });
}

function summary(row: Omit<Row, 'body' | 'meta'>): DraftSummary {
  return {
    id: row.id,
    buyerName: row.buyer_name,
    buyerTaxCode: row.buyer_tax_code,
    invSeries: row.inv_series,
    invDate: row.inv_date,
    currency: row.currency,
    total: row.total,
    lineCount: row.line_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastPreviewedAt: row.last_previewed_at,
    revision: row.revision,
    issue: row.issue_id !== null && row.issue_state ? { id: row.issue_id, state: row.issue_state, invNo: row.issue_inv_no } : null,
  };
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface DraftsRepositoryOptions {
  now?: () => Date;
  /** Options of the amounts and words (e.g. the amount-in-words setting). */
  computeOptions?: () => ComputeOptions;
  /** Called after an explicit save with `learn`, inside the same transaction. */
  learn?: (draft: InvoiceDraft) => void;
}

/**
 * Drafts in the database. Every write is one statement or one BEGIN IMMEDIATE transaction, so
 * a kill -9 or a power cut leaves each draft either at its previous save or at the new one.
 */
export class DraftsRepository {
  private readonly now: () => Date;
  /**
   * The last saved draft's lines, computed: autosave sends the whole draft every time, and a
   * 1 000-line draft computed afresh cost about 9 ms of this process per save.
   */
  private lastSaved: { id: string; engine: IncrementalCompute } | null = null;

  constructor(
    private readonly store: Store,
    private readonly options: DraftsRepositoryOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  /** The columns the list shows, searches and sorts by, derived from the draft on every write. */
  private derived(draft: InvoiceDraft, id?: string): Record<(typeof DERIVED_COLUMNS)[number], string | number> {
    const options = this.options.computeOptions?.() ?? {};
    if (id !== undefined && this.lastSaved?.id !== id) this.lastSaved = { id, engine: new IncrementalCompute(undefined, 'content') };
    const computed = id === undefined ? computeInvoice(draft, options) : this.lastSaved!.engine.compute(draft, options);
    return {
      buyer_name: (draft.BuyerLegalName.trim() || draft.BuyerFullName.trim()).slice(0, 500),
      buyer_tax_code: draft.BuyerTaxCode.trim(),
      inv_series: draft.InvSeries.trim(),
      inv_date: draft.InvDate,
      currency: computed.currency,
      total: toDecimalString(computed.totals.TotalAmountOC),
      total_num: computed.totals.TotalAmountOC.toNumber(),
      line_count: draft.lines.length,
    };
  }

  private row(id: string, includeDeleted = false): Row {
    const row = this.store.db
      .prepare(`SELECT ${SUMMARY_COLUMNS}, body, meta FROM drafts WHERE id = ?${includeDeleted ? '' : ' AND deleted_at IS NULL'}`)
      .get(id) as Row | undefined;
    if (!row) throw draftNotFound(id);
    return row;
  }

  /** The list's columns of one draft, without reading the draft itself. */
  private summaryOf(id: string): DraftSummary {
    const row = this.store.db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM drafts WHERE id = ?`).get(id) as Row | undefined;
    if (!row) throw draftNotFound(id);
    return summary(row);
  }

  private record(row: Row): DraftRecord {
    const draft = InvoiceDraftSchema.parse(JSON.parse(row.body)) as InvoiceDraft;
    const metaParsed = DraftMetaSchema.safeParse(JSON.parse(row.meta || '{}'));
    return { ...summary(row), draft, meta: metaParsed.success ? metaParsed.data : { ...DEFAULT_META } };
  }

  get(id: string): DraftRecord {
    return this.record(this.row(id));
  }

  /** The draft as InvoiceData (what preview sends and export writes). */
  invoiceData(id: string): InvoiceData {
    const rec = this.get(id);
    const data = serialiseDraft(rec.draft, this.options.computeOptions?.() ?? {});
    if (rec.meta.wordsEdited && rec.meta.words.trim()) data.TotalAmountInWords = rec.meta.words.trim();
    return data;
  }

  create(init: Partial<InvoiceDraft> = {}, meta: DraftMeta = DEFAULT_META): DraftRecord {
    const now = this.now();
    const stamp = now.toISOString();
    const draft = emptyDraft({ RefID: newRefID(), InvDate: vietnamToday(now), ...init });
    if (!draft.RefID) draft.RefID = newRefID();
    const id = newRefID();
    const d = this.derived(draft);
    this.store.transaction((db) => {
      db.prepare(
        `INSERT INTO drafts (id, body, meta, ${DERIVED_COLUMNS.join(', ')}, revision, created_at, updated_at)
         VALUES (:id, :body, :meta, ${DERIVED_COLUMNS.map((c) => `:${c}`).join(', ')}, 1, :stamp, :stamp)`,
      ).run({ id, body: JSON.stringify(draft), meta: JSON.stringify(meta), ...d, stamp });
    });
    return this.get(id);
  }

  /** One atomic write of the whole draft (autosave and explicit save). */
  save(id: string, draft: InvoiceDraft, meta?: DraftMeta, learn = false): DraftSummary {
    return this.write(id, draft, meta, learn, null);
  }

  /**
   * The header and the changed lines of a draft last saved at revision `changes.base`, in one
   * atomic write; `draft_changed` when the stored draft is another revision or line count.
   */
  saveChanges(id: string, changes: DraftChanges, meta?: DraftMeta): DraftSummary {
    const row = this.store.db.prepare('SELECT body, revision FROM drafts WHERE id = ? AND deleted_at IS NULL AND issue_id IS NULL').get(id) as
      { body: string; revision: number } | undefined;
    if (!row) throw this.refusal(id, null);
    if (row.revision !== changes.base) throw draftChanged();
    const lines = (JSON.parse(row.body) as InvoiceDraft).lines.slice();
    if (lines.length !== changes.lineCount || changes.lines.some(({ at }) => at >= lines.length)) throw draftChanged();
    for (const { at, line } of changes.lines) lines[at] = line;
    // The write checks the revision again: another process may have saved since the read.
    return this.write(id, { ...changes.head, lines }, meta, false, changes.base);
  }

  private write(id: string, draft: InvoiceDraft, meta: DraftMeta | undefined, learn: boolean, base: number | null): DraftSummary {
    const d = this.derived(draft, id);
    const stamp = this.stamp();
    // The answer is read in the same transaction: its revision is this write's, not a later one's
    // by another process (the screen bases its next save of changed lines on it).
    return this.store.transaction((db) => {
      const result = db
        .prepare(
          `UPDATE drafts SET body = :body, meta = COALESCE(:meta, meta), ${DERIVED_COLUMNS.map((c) => `${c} = :${c}`).join(', ')},
             revision = revision + 1, updated_at = :stamp
           WHERE id = :id AND deleted_at IS NULL AND issue_id IS NULL AND (:base IS NULL OR revision = :base)`,
        )
        .run({ body: JSON.stringify(draft), meta: meta ? JSON.stringify(meta) : null, ...d, stamp, id, base });
      if (Number(result.changes) === 0) throw this.refusal(id, base);
      if (learn) this.options.learn?.(draft);
      return this.summaryOf(id);
    });
  }

  list(options: ListOptions = {}): { items: DraftSummary[]; total: number } {
    const where: string[] = [];
    const params: SQLInputValue[] = [];
    if (!options.includeDeleted) where.push('deleted_at IS NULL');
    const q = options.query?.trim();
    if (q) {
      const like = `%${escapeLike(q)}%`;
      const parts = ["buyer_name LIKE ? ESCAPE '\\'", "buyer_tax_code LIKE ? ESCAPE '\\'", "inv_series LIKE ? ESCAPE '\\'", "inv_date LIKE ? ESCAPE '\\'"];
      params.push(like, like, like, like);
      // A number matches the total (typed with or without thousand separators).
      const digits = q.replace(/[\s.,]/g, '');
      if (/^\d+$/.test(digits)) {
        parts.push("total LIKE ? ESCAPE '\\'");
        params.push(`%${digits}%`);
      }
      // dd/mm/yyyy matches the date.
      const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(q);
      if (dmy) {
        parts.push('inv_date = ?');
        params.push(`${dmy[3]}-${dmy[2]!.padStart(2, '0')}-${dmy[1]!.padStart(2, '0')}`);
      }
      where.push(`(${parts.join(' OR ')})`);
    }
    const dir = options.direction === 'asc' ? 'ASC' : 'DESC';
    const order =
      {
        updated: `updated_at ${dir}`,
        created: `created_at ${dir}`,
        date: `inv_date ${dir}, updated_at DESC`,
        buyer: `buyer_name COLLATE NOCASE ${dir}, updated_at DESC`,
        total: `total_num ${dir}, updated_at DESC`,
      }[options.sort ?? 'updated'] ?? `updated_at ${dir}`;
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.store.db.prepare(`SELECT count(*) AS n FROM drafts ${clause}`).get(...params) as { n: number }).n;
    const rows = this.store.db
      .prepare(`SELECT ${SUMMARY_COLUMNS} FROM drafts ${clause} ORDER BY ${order} LIMIT ?`)
      .all(...params, options.limit ?? 200) as unknown as Row[];
    return { items: rows.map(summary), total };
  }

  duplicate(id: string): DraftRecord {
    const source = this.get(id);
    return this.create({ ...source.draft, RefID: newRefID(), InvDate: vietnamToday(this.now()) }, source.meta);
  }

  /** Moves a draft to the bin (undo with `restore`). */
  delete(id: string): { id: string; deletedAt: string } {
    const stamp = this.stamp();
    const result = this.store.db.prepare('UPDATE drafts SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL AND issue_id IS NULL').run(stamp, id);
    if (Number(result.changes) === 0) throw this.refusal(id, null);
    return { id, deletedAt: stamp };
  }

  restore(id: string): DraftSummary {
    const result = this.store.db.prepare('UPDATE drafts SET deleted_at = NULL WHERE id = ?').run(id);
    if (Number(result.changes) === 0) throw draftNotFound(id);
    return this.summaryOf(id);
  }

  /** Empties the bin of drafts deleted before `before` (housekeeping). */
  purgeDeleted(before: Date): number {
    return Number(this.store.db.prepare('DELETE FROM drafts WHERE deleted_at IS NOT NULL AND deleted_at < ?').run(before.toISOString()).changes);
  }

  /**
   * Why a write to a draft changed nothing: it is being issued, it is another revision than
   * `base` (when the write named one), or it is not there (never was, or in the bin).
   */
  private refusal(id: string, base: number | null): AppError {
    const row = this.store.db.prepare('SELECT issue_id IS NOT NULL AS locked FROM drafts WHERE id = ? AND deleted_at IS NULL').get(id) as
      { locked: number } | undefined;
    if (row?.locked) return draftLocked();
    return row && base !== null ? draftChanged() : draftNotFound(id);
  }

  /** A draft reopened after the service refused it goes out as a new invoice: a new RefID. */
  renewRefId(id: string): DraftSummary {
    const record = this.get(id);
    return this.save(id, { ...record.draft, RefID: newRefID() }, record.meta);
  }

  markPreviewed(id: string, at: string): void {
    this.store.db.prepare('UPDATE drafts SET last_previewed_at = ? WHERE id = ?').run(at, id);
  }

  export(id: string): { fileName: string; invoice: InvoiceData } {
    const rec = this.get(id);
    const invoice = this.invoiceData(id);
    const who =
      (rec.buyerName || 'draft')
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 40) || 'draft';
    return { fileName: `${rec.invDate || 'draft'}-${who}.json`, invoice };
  }

  import(raw: unknown): DraftRecord {
    const parsed = InvoiceDataSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AppError('draft_import_invalid', {
        en: `The file is not an InvoiceData JSON: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || 'root'}: ${i.message}`)
          .join('; ')}`,
        vi: `Tệp không phải InvoiceData JSON hợp lệ: ${parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || 'gốc'}: ${i.message}`)
          .join('; ')}`,
      });
    }
    const draft = draftFromInvoiceData(parsed.data, this.options.computeOptions?.() ?? {});
    const computedWords = computeInvoice(draft, this.options.computeOptions?.() ?? {}).words;
    const given = typeof parsed.data.TotalAmountInWords === 'string' ? parsed.data.TotalAmountInWords.trim() : '';
    const meta: DraftMeta = given && given !== computedWords ? { wordsEdited: true, words: given } : { ...DEFAULT_META };
    return this.create(draft, meta);
  }
}
