import type { CachedTemplate, TemplatesList } from '../../../common/calls/templates';
import { AppError, type ErrorPayload } from '../../../common/errors';
import type { EventBus } from '../../../common/ipc/bus';
import type { InvoiceTemplate } from '../../../common/model';
import { vietnamToday } from '../../../common/rules';
import { isApiError } from '../api';
import { clientFor, type ServiceAccess } from '../drafting/access';
import type { Store } from '../store';

/** The four kinds the series picker may need: (with code, ticket). */
export const TEMPLATE_KINDS: ReadonlyArray<{ withCode: boolean; ticket: boolean }> = [
  { withCode: true, ticket: false },
  { withCode: false, ticket: false },
  { withCode: true, ticket: true },
  { withCode: false, ticket: true },
];

interface CacheRow {
  year: number;
  with_code: number;
  ticket: number;
  template_id: string;
  body: string;
}

export function toCached(t: InvoiceTemplate, kind: { withCode: boolean; ticket: boolean }, year: number): CachedTemplate {
  return {
    id: String(t.IPTemplateID),
    name: String(t.TemplateName ?? ''),
    series: String(t.InvSeries ?? ''),
    inactive: t.Inactive === true,
    withCode: kind.withCode,
    ticket: kind.ticket,
    year,
    isMoreVATRate: t.IsMoreVATRate === true,
    isPetrol: t.IsPetrol === true,
    isSendSummary: t.IsSendSummary === true,
    isInheritFromOldTemplate: t.IsInheritFromOldTemplate ?? null,
    raw: { ...t },
  };
}

/**
 * Templates per profile: fetched with the service's filters (docs/service.md#templates: invoiceWithCode, ticket, year) for
 * each kind, cached in the database so the series picker works offline, refreshed when the
 * connection comes back.
 */
export class TemplatesService {
  private refreshing: Promise<TemplatesList> | undefined;
  private readonly now: () => Date;
  private readonly offOnline: () => void;

  constructor(
    private readonly deps: {
      store: Store;
      access: ServiceAccess;
      bus?: EventBus;
      now?: () => Date;
      log?: (level: 'info' | 'warn' | 'error', message: string) => void;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
    let wasOnline: boolean | undefined;
    this.offOnline =
      deps.bus?.on('app.online', ({ online }) => {
        if (online && wasOnline !== true) void this.list({ refresh: true }).catch(() => {});
        wasOnline = online;
      }) ?? (() => {});
  }

  close(): void {
    this.offOnline();
  }

  private currentYear(): number {
    return Number(vietnamToday(this.now()).slice(0, 4));
  }

  cached(profileId: string, year: number): { templates: CachedTemplate[]; fetchedAt: string | null } {
    const rows = this.deps.store.db
      .prepare('SELECT year, with_code, ticket, template_id, body FROM template_cache WHERE profile_id = ? AND year = ? ORDER BY series, template_id')
      .all(profileId, year) as unknown as CacheRow[];
    const state = this.deps.store.db.prepare('SELECT fetched_at FROM template_cache_state WHERE profile_id = ? AND year = ?').get(profileId, year) as
      { fetched_at: string } | undefined;
    const templates = rows.map((r) => toCached(JSON.parse(r.body) as InvoiceTemplate, { withCode: r.with_code === 1, ticket: r.ticket === 1 }, r.year));
    return { templates, fetchedAt: state?.fetched_at ?? null };
  }

  /** Fetches every kind and replaces the cache of (profile, year) in one transaction. */
  async refresh(year = this.currentYear()): Promise<TemplatesList> {
    const session = await this.deps.access.session();
    const client = clientFor(session);
    try {
      const fetched: Array<{ kind: { withCode: boolean; ticket: boolean }; list: InvoiceTemplate[] }> = [];
      for (const kind of TEMPLATE_KINDS) {
        const list = await client.templates({ withCode: kind.withCode, ticket: kind.ticket, year });
        fetched.push({ kind, list });
      }
      const stamp = this.now().toISOString();
      this.deps.store.transaction((db) => {
        db.prepare('DELETE FROM template_cache WHERE profile_id = ? AND year = ?').run(session.profileId, year);
        const insert = db.prepare(
          'INSERT OR REPLACE INTO template_cache (profile_id, year, with_code, ticket, template_id, series, body, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        );
        for (const { kind, list } of fetched) {
          for (const t of list) {
            insert.run(
              session.profileId,
              year,
              kind.withCode ? 1 : 0,
              kind.ticket ? 1 : 0,
              String(t.IPTemplateID),
              String(t.InvSeries ?? ''),
              JSON.stringify(t),
              stamp,
            );
          }
        }
        db.prepare('INSERT OR REPLACE INTO template_cache_state (profile_id, year, fetched_at) VALUES (?, ?, ?)').run(session.profileId, year, stamp);
      });
      this.deps.bus?.emit('templates.changed', { profileId: session.profileId, fetchedAt: stamp });
      return { profileId: session.profileId, ...this.cached(session.profileId, year), error: null };
    } catch (error) {
      if (isApiError(error) && error.kind === 'auth') await this.deps.access.reportAuthFailure?.(session.profileId);
      throw error;
    } finally {
      await client.close();
    }
  }

  /**
   * The cache of the active profile; with `refresh` (or an empty cache) it first asks the
   * service, and on failure still answers with the cache plus the error.
   */
  async list(options: { refresh?: boolean; year?: number } = {}): Promise<TemplatesList> {
    const year = options.year ?? this.currentYear();
    const profileId = this.deps.access.activeProfileId();
    const cache = this.cached(profileId, year);
    if (!options.refresh && cache.fetchedAt) return { profileId, ...cache, error: null };
    try {
      this.refreshing ??= this.refresh(year).finally(() => (this.refreshing = undefined));
      return await this.refreshing;
    } catch (error) {
      const payload: ErrorPayload =
        error instanceof AppError
          ? error.toPayload()
          : { code: 'internal', message: 'The templates could not be fetched.', messageVi: 'Không lấy được danh sách mẫu.' };
      this.deps.log?.('warn', `templates refresh failed: ${payload.code}`);
      return { profileId, ...cache, error: payload };
    }
  }
}
