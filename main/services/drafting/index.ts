import type { Settings } from '../../../common/calls/settings';
import type { EventBus } from '../../../common/ipc/bus';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import { computeOptionsFromSettings, type InvoiceDraft } from '../../../common/money';
import { Catalogues } from '../catalogues/catalogues';
import { DraftsRepository } from '../drafts/repository';
import { PreviewService } from '../preview/preview';
import type { Store } from '../store';
import { TemplatesService } from '../templates/templates';
import type { ServiceAccess } from './access';

export { accessFromSessions, type ServiceAccess, type ServiceSession } from './access';

export { computeOptionsFromSettings } from '../../../common/money';

export type DraftingCallName =
  | 'drafts.list'
  | 'drafts.get'
  | 'drafts.create'
  | 'drafts.save'
  | 'drafts.saveChanges'
  | 'drafts.duplicate'
  | 'drafts.delete'
  | 'drafts.restore'
  | 'drafts.export'
  | 'drafts.import'
  | 'catalogues.items'
  | 'catalogues.buyers'
  | 'catalogues.importCsv'
  | 'templates.list'
  | 'preview.run'
  | 'preview.open';

export interface Drafting {
  drafts: DraftsRepository;
  catalogues: Catalogues;
  templates: TemplatesService;
  preview: PreviewService;
  handlers: Pick<ContractHandlers, DraftingCallName>;
  close(): void;
}

/** Drafts, catalogues, the template cache and preview over one database and one service access. */
export function createDrafting(deps: {
  store: Store;
  access: ServiceAccess;
  bus?: EventBus;
  settings?: () => Settings;
  now?: () => Date;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
}): Drafting {
  const now = deps.now ?? (() => new Date());
  const catalogues = new Catalogues(deps.store, now);
  const drafts = new DraftsRepository(deps.store, {
    now,
    computeOptions: () => computeOptionsFromSettings(deps.settings?.()),
    learn: (draft) => catalogues.learnFromDraft(draft),
  });
  const templates = new TemplatesService({ store: deps.store, access: deps.access, bus: deps.bus, now, log: deps.log });
  const preview = new PreviewService({ store: deps.store, drafts, access: deps.access, bus: deps.bus, now, templates });
  /** Announces what happened to a draft and passes the answer on. */
  const changed = <T extends { id: string }>(answer: T, kind: 'created' | 'saved' | 'deleted' | 'restored'): T => {
    deps.bus?.emit('drafts.changed', { id: answer.id, kind });
    return answer;
  };

  const handlers: Drafting['handlers'] = {
    'drafts.list': (req) => drafts.list(req),
    'drafts.get': (req) => drafts.get(req.id),
    'drafts.create': (req) => changed(drafts.create((req.draft ?? {}) as Partial<InvoiceDraft>), 'created'),
    'drafts.save': (req) => changed(drafts.save(req.id, req.draft as InvoiceDraft, req.meta, req.learn === true), 'saved'),
    'drafts.saveChanges': ({ id, meta, ...changes }) => changed(drafts.saveChanges(id, changes, meta), 'saved'),
    'drafts.duplicate': (req) => changed(drafts.duplicate(req.id), 'created'),
    'drafts.delete': (req) => changed(drafts.delete(req.id), 'deleted'),
    'drafts.restore': (req) => changed(drafts.restore(req.id), 'restored'),
    'drafts.export': (req) => drafts.export(req.id),
    'drafts.import': (req) => changed(drafts.import(req.invoice), 'created'),
    'catalogues.items': (req) => ({ items: catalogues.searchItems(req.query, req.limit ?? 10) }),
    'catalogues.buyers': (req) => ({ buyers: catalogues.searchBuyers(req.query, req.limit ?? 10) }),
    'catalogues.importCsv': (req) => catalogues.importCsv(req.kind, req.csv),
    'templates.list': (req) => templates.list(req),
    'preview.run': (req) => preview.run(req.draftId),
    'preview.open': (req) => preview.open(req.previewId),
  };

  return {
    drafts,
    catalogues,
    templates,
    preview,
    handlers,
    close: () => templates.close(),
  };
}
