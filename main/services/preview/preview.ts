import { randomUUID } from 'node:crypto';
import type { PreviewResult } from '../../../common/calls/preview';
import { AppError } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import { computeInvoice } from '../../../common/money';
import type { InvoiceData } from '../../../common/model';
import { isMultiRate, seriesChoiceProblems, type SeriesTemplate } from '../../../common/rules';
import { isApiError, type FetchedBytes } from '../api';
import { clientFor, type ServiceAccess } from '../drafting/access';
import type { DraftsRepository } from '../drafts/repository';
import type { Store } from '../store';
import { fieldPathForCode, fieldProblemWords } from './field-path';

export interface KeptPreview {
  id: string;
  draftId: string;
  kind: 'pdf' | 'page';
  contentType: string | null;
  /** Only for `page`: where the page is (opened locked to its origin). */
  link: string | null;
  bytes: Uint8Array;
  createdAt: string;
}

/** How a host shows a kept preview (Electron: the embedded window); absent in the browser host. */
export type PreviewOpener = (preview: KeptPreview) => Promise<void> | void;

const KEEP_PER_DRAFT = 3;

function isPdf(bytes: Uint8Array, contentType: string | null): boolean {
  if (contentType && /application\/pdf/i.test(contentType)) return true;
  // %PDF-
  return bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;
}

/**
 * Preview: sends the stored draft to `unpublishview`, fetches what the link serves AT ONCE (the
 * link lives 30 s), keeps the bytes in the database and records `lastPreviewedAt`. The draft is
 * never modified by a failed preview. Service error codes that name a field come back as an
 * AppError whose issue path points into the draft (`lines[2].UnitPrice`).
 */
export class PreviewService {
  private opener: PreviewOpener | undefined;
  private readonly now: () => Date;
  /** Bytes shown like a preview that belong to no draft (an issued invoice as the service shows it): the last few, in memory. */
  private readonly views = new Map<string, KeptPreview>();

  constructor(
    private readonly deps: {
      store: Store;
      drafts: DraftsRepository;
      access: ServiceAccess;
      bus?: EventBus;
      now?: () => Date;
      /** The cached templates of a profile for a year, to check the series before sending. */
      templates?: { cached(profileId: string, year: number): { templates: SeriesTemplate[] } };
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  setOpener(opener: PreviewOpener | undefined): void {
    this.opener = opener;
  }

  async run(draftId: string): Promise<PreviewResult> {
    const record = this.deps.drafts.get(draftId);
    this.checkSeries(record.draft);
    const invoice = this.deps.drafts.invoiceData(draftId);
    let kept: KeptPreview;
    try {
      const { link, fetched } = await this.render(invoice, { fetch: true });
      const pdf = isPdf(fetched.bytes, fetched.contentType);
      kept = {
        id: randomUUID(),
        draftId,
        kind: pdf ? 'pdf' : 'page',
        contentType: fetched.contentType,
        link: pdf ? null : link,
        bytes: fetched.bytes,
        createdAt: this.now().toISOString(),
      };
    } catch (error) {
      if (isApiError(error)) {
        const path = fieldPathForCode(error.serviceCode, record.draft);
        if (path) {
          const what = fieldProblemWords(error.serviceCode);
          throw new AppError(
            error.code,
            { en: error.message, vi: error.messageVi },
            {
              issues: [{ path, message: what.en, messageVi: what.vi, ...(error.serviceCode ? { code: error.serviceCode } : {}) }],
              cause: error,
            },
          );
        }
      }
      throw error;
    }
    this.deps.store.transaction((db) => {
      db.prepare('INSERT INTO draft_previews (id, draft_id, kind, content_type, link, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        kept.id,
        kept.draftId,
        kept.kind,
        kept.contentType,
        kept.link,
        kept.bytes,
        kept.createdAt,
      );
      db.prepare(
        `DELETE FROM draft_previews WHERE draft_id = ? AND id NOT IN (SELECT id FROM draft_previews WHERE draft_id = ? ORDER BY created_at DESC LIMIT ${KEEP_PER_DRAFT})`,
      ).run(draftId, draftId);
      this.deps.drafts.markPreviewed(draftId, kept.createdAt);
    });
    this.deps.bus?.emit('drafts.changed', { id: draftId, kind: 'previewed' });
    return { previewId: kept.id, draftId, kind: kept.kind, size: kept.bytes.length, createdAt: kept.createdAt };
  }

  /** The series rule the editor shows, enforced here too: a multi-rate draft needs a multi-rate template. */
  private checkSeries(draft: Parameters<typeof computeInvoice>[0]): void {
    if (!this.deps.templates) return;
    const year = Number(/^(\d{4})-/.exec(draft.InvDate)?.[1] ?? this.now().getUTCFullYear());
    const { templates } = this.deps.templates.cached(this.deps.access.activeProfileId(), year);
    const multiRate = isMultiRate(computeInvoice(draft).taxRates);
    const wrong = seriesChoiceProblems({ series: draft.InvSeries, isTicket: draft.IsTicket, multiRate, templates }).find((p) => p.severity === 'error');
    if (wrong) {
      throw new AppError(
        wrong.code,
        { en: wrong.message, vi: wrong.messageVi },
        { issues: [{ path: wrong.path, message: wrong.message, messageVi: wrong.messageVi }] },
      );
    }
  }

  /**
   * Sends an invoice to `unpublishview` for the active session and, with `fetch`, fetches what
   * the link serves at once (it lives 30 s). A refused sign-in is reported to the sign-in gate.
   * The draft screen keeps the result (`run`); the CLI previews a file with it.
   */
  async render<F extends boolean>(
    invoice: InvoiceData,
    options: { fetch: F; signal?: AbortSignal },
  ): Promise<{ link: string; fetched: F extends true ? FetchedBytes : null }> {
    const session = await this.deps.access.session();
    const client = clientFor(session, 'preview');
    const signal = options.signal ? { signal: options.signal } : {};
    try {
      const { link } = await client.preview(invoice, signal);
      const fetched = options.fetch ? await client.fetchBytes(link, { ...signal, retry: { retries: 2, baseDelayMs: 100, maxTotalMs: 10_000 } }) : null;
      return { link, fetched: fetched as F extends true ? FetchedBytes : null };
    } catch (error) {
      if (isApiError(error) && error.kind === 'auth') await this.deps.access.reportAuthFailure?.(session.profileId);
      throw error;
    } finally {
      await client.close();
    }
  }

  /** Keeps a PDF that is not a draft's preview (named `name`) so `open` shows it the same way; returns its id. */
  keepView(bytes: Uint8Array, contentType: string | null, name: string): string {
    const id = randomUUID();
    this.views.set(id, { id, draftId: name, kind: 'pdf', contentType, link: null, bytes, createdAt: this.now().toISOString() });
    for (const old of this.views.keys()) if (this.views.size > KEEP_PER_DRAFT) this.views.delete(old);
    return id;
  }

  get(previewId: string): KeptPreview | null {
    const view = this.views.get(previewId);
    if (view) return view;
    const row = this.deps.store.db
      .prepare('SELECT id, draft_id, kind, content_type, link, bytes, created_at FROM draft_previews WHERE id = ?')
      .get(previewId) as
      | { id: string; draft_id: string; kind: 'pdf' | 'page'; content_type: string | null; link: string | null; bytes: Uint8Array | null; created_at: string }
      | undefined;
    if (!row) return null;
    return {
      id: row.id,
      draftId: row.draft_id,
      kind: row.kind,
      contentType: row.content_type,
      link: row.link,
      bytes: row.bytes ?? new Uint8Array(),
      createdAt: row.created_at,
    };
  }

  async open(previewId: string): Promise<{ opened: boolean; path: string | null }> {
    const kept = this.get(previewId);
    if (!kept) {
      throw new AppError('preview_not_found', {
        en: 'That preview is no longer kept. Preview the draft again.',
        vi: 'Bản xem trước này không còn được lưu. Hãy xem trước lại bản nháp.',
      });
    }
    if (this.opener) {
      await this.opener(kept);
      return { opened: true, path: null };
    }
    return { opened: false, path: `/api/preview/${encodeURIComponent(previewId)}` };
  }
}
