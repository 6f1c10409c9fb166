import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DraftMetaSchema, InvoiceDraftSchema, type DraftSummary } from '../../../common/calls/drafts';
import { pick } from '../../../common/model';
import { CallError } from '../../../common/ipc/bridge';
import { bridge } from '../bridge';
import { formatDate, formatDateTime } from '../../../common/format';
import { saveTextFile } from '../app/save-file';
import { useLive } from '../app/useLive';
import { flushSave, startAutosave, takeParked } from './editor/autosave';
import { DraftEditor } from './editor/DraftEditor';
import { newLineAfter, type InvoiceDraft } from './editor/money';
import { useEditor } from './editor/store';
import { errorText, useLang } from '../app/error-text';
import { ColumnHeaders, FileButton } from '../app/fields';
import { Notice } from '../app/Notice';
import { IssueStateBadge } from '../issuing/IssueStateBadge';

const OPEN_KEY = 'einvoice.openDraft';
type Sort = 'updated' | 'created' | 'date' | 'buyer' | 'total';

function remember(id: string | null): void {
  try {
    if (id) sessionStorage.setItem(OPEN_KEY, id);
    else sessionStorage.removeItem(OPEN_KEY);
  } catch {
    // no storage: the list opens instead after a reload
  }
}

/**
 * "Hóa đơn nháp" in the side bar always leads to the list: an open draft is saved (and teaches
 * the catalogues, like going back) and closed. The shell calls this when that button is pressed.
 */
export async function showDraftList(): Promise<void> {
  if (!useEditor.getState().id) return;
  await flushSave(true);
  remember(null);
  useEditor.getState().close();
}

/** Opens a draft in the editor (with edits parked by a page that went away), and remembers it across a reload. */
export async function openDraft(draftId: string): Promise<void> {
  const rec = await bridge.call('drafts.get', { id: draftId });
  useEditor.getState().load(rec);
  const parked = takeParked(rec.id, rec.updatedAt);
  const draft = parked && !rec.issue ? InvoiceDraftSchema.safeParse(parked.draft) : null;
  const meta = parked ? DraftMetaSchema.safeParse(parked.meta) : null;
  if (draft?.success) useEditor.getState().restoreUnsaved(draft.data as InvoiceDraft, meta?.success ? meta.data : rec.meta);
  remember(rec.id);
}

export function DraftsArea() {
  const id = useEditor((s) => s.id);
  const close = useEditor((s) => s.close);
  const [error, setError] = useState<string | null>(null);
  const { i18n } = useTranslation();

  useEffect(() => startAutosave(), []);

  const open = useCallback(
    async (draftId: string) => {
      try {
        await openDraft(draftId);
        setError(null);
      } catch (e) {
        // Forget the open draft only when it is really gone: a call cut short by a reload must
        // bring the same draft back after it.
        if (e instanceof CallError && e.payload.code === 'draft_not_found') remember(null);
        setError(errorText(e, i18n.language));
      }
    },
    [i18n.language],
  );

  // After a reload, come back to the draft that was open.
  useEffect(() => {
    if (useEditor.getState().id) return;
    const stored = (() => {
      try {
        return sessionStorage.getItem(OPEN_KEY);
      } catch {
        return null;
      }
    })();
    if (stored) void open(stored);
  }, [open]);

  // Alt+N: a new draft, from the list or from inside another draft (saved first).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code !== 'KeyN' || !e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      void (async () => {
        await flushSave(true); // leaving a draft counts as saving it: the catalogues learn from it
        try {
          const rec = await bridge.call('drafts.create', { draft: { lines: [newLineAfter(undefined)] } });
          await open(rec.id);
        } catch (error) {
          setError(errorText(error, i18n.language));
        }
      })();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, i18n.language]);

  if (id) {
    return (
      <DraftEditor
        onClose={() => {
          remember(null);
          close();
        }}
      />
    );
  }
  return <DraftList onOpen={open} error={error} />;
}

function DraftList({ onOpen, error }: { onOpen(id: string): Promise<void>; error: string | null }) {
  const { t, i18n } = useTranslation();
  const lang = useLang();
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<Sort>('updated');
  const [direction, setDirection] = useState<'asc' | 'desc'>('desc');
  const [debounced, setDebounced] = useState(query);
  const [message, setMessage] = useState<string | null>(error);
  const [undo, setUndo] = useState<DraftSummary | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query), 150);
    return () => clearTimeout(timer);
  }, [query]);
  // Another window or the CLI changed a draft: show it.
  const live = useLive(
    'drafts.list',
    { ...(debounced.trim() ? { query: debounced } : {}), sort, direction },
    { 'drafts.changed': 'reload', 'issuing.changed': 'reload' },
    { onError: (e) => setMessage(errorText(e, i18n.language)), throttleMs: () => 300 },
  );
  const items = live.data?.items ?? [];
  const total = live.data?.total ?? 0;
  const refresh = live.reload;

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refresh();
    } catch (e) {
      setMessage(errorText(e, i18n.language));
    }
  };

  const create = () =>
    act(async () => {
      const rec = await bridge.call('drafts.create', { draft: { lines: [newLineAfter(undefined)] } });
      await onOpen(rec.id);
    });

  const remove = (d: DraftSummary) =>
    act(async () => {
      await bridge.call('drafts.delete', { id: d.id });
      setUndo(d);
      setMessage(null);
    });

  const exportDraft = (d: DraftSummary) =>
    act(async () => {
      const r = await bridge.call('drafts.export', { id: d.id });
      saveTextFile(r.fileName, JSON.stringify(r.invoice, null, 2), 'application/json');
    });

  const restore = () =>
    undo &&
    act(async () => {
      await bridge.call('drafts.restore', { id: undo.id });
      setUndo(null);
    });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.code === 'KeyZ' && (e.ctrlKey || e.metaKey) && undo && !(e.target instanceof HTMLInputElement)) {
        e.preventDefault();
        void restore();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const importFile = async (file: File) =>
    act(async () => {
      let json: unknown;
      try {
        json = JSON.parse(await file.text());
      } catch {
        setMessage(t('drafts.list.importNotJson'));
        return;
      }
      const rec = await bridge.call('drafts.import', { invoice: json });
      setMessage(t('drafts.list.imported', { buyer: rec.buyerName || rec.id }));
    });

  const importCsv = async (kind: 'items' | 'buyers', file: File) =>
    act(async () => {
      const r = await bridge.call('catalogues.importCsv', { kind, csv: await file.text() });
      const first = r.problems[0];
      setMessage(
        t('drafts.list.csvImported', { imported: r.imported, skipped: r.skipped }) +
          (first ? ` ${t('drafts.list.csvRow', { row: first.row })}: ${pick(first.message, i18n.language)}` : ''),
      );
    });

  return (
    <div className="draft-list">
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => void create()} aria-keyshortcuts="Alt+N">
          {t('drafts.list.new')}
        </button>
        <label className="search">
          <span>{t('drafts.list.search')}</span>
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t('drafts.list.searchHint')} />
        </label>
        <label>
          <span>{t('drafts.list.sort')}</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
            {(['updated', 'created', 'date', 'buyer', 'total'] as const).map((s) => (
              <option key={s} value={s}>
                {t(`drafts.list.sortBy.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setDirection((d) => (d === 'asc' ? 'desc' : 'asc'))} aria-label={t(`drafts.list.direction.${direction}`)}>
          {direction === 'asc' ? '↑' : '↓'}
        </button>
        <FileButton label={t('drafts.list.import')} accept=".json,application/json" onFile={importFile} />
        <FileButton label={t('drafts.list.importItems')} accept=".csv,text/csv" onFile={(file) => importCsv('items', file)} />
        <FileButton label={t('drafts.list.importBuyers')} accept=".csv,text/csv" onFile={(file) => importCsv('buyers', file)} />
      </div>
      <div aria-live="polite">
        <Notice notice={message ? { kind: 'info', text: message } : null} />
        <Notice notice={undo ? { kind: 'info', text: t('drafts.list.deleted', { buyer: undo.buyerName || t('drafts.list.noBuyer') }) } : null}>
          <button type="button" onClick={() => void restore()} aria-keyshortcuts="Control+Z">
            {t('drafts.list.undo')}
          </button>
        </Notice>
      </div>
      <p className="count">{t('drafts.list.count', { count: total })}</p>
      {items.length === 0 ? (
        <p className="empty">{t('drafts.list.empty')}</p>
      ) : (
        <table className="drafts-table">
          <ColumnHeaders
            columns={[
              { label: t('drafts.list.col.buyer'), className: 'buyer' },
              t('drafts.list.col.taxCode'),
              t('drafts.list.col.date'),
              t('drafts.list.col.series'),
              { label: t('drafts.list.col.total'), className: 'num' },
              t('drafts.list.col.updated'),
              t('drafts.list.col.previewed'),
              { label: t('issuing.drafts.col'), className: 'issue' },
              { label: t('drafts.list.col.actions'), className: 'row-actions' },
            ]}
          />
          <tbody>
            {items.map((d) => (
              <tr key={d.id}>
                <td className="buyer">
                  <button type="button" className="link" onClick={() => void onOpen(d.id)}>
                    {d.buyerName || t('drafts.list.noBuyer')}
                  </button>
                </td>
                <td>{d.buyerTaxCode}</td>
                <td>{d.invDate ? formatDate(d.invDate, lang) : ''}</td>
                <td>{d.invSeries}</td>
                <td className="num">
                  {new Intl.NumberFormat('vi-VN').format(d.total as Intl.StringNumericLiteral)} {d.currency}
                </td>
                <td>{formatDateTime(d.updatedAt, lang)}</td>
                <td>{d.lastPreviewedAt ? formatDateTime(d.lastPreviewedAt, lang) : '—'}</td>
                <td className="issue" data-testid="draft-issue" data-state={d.issue?.state ?? 'draft'}>
                  <IssueStateBadge issue={d.issue} />
                </td>
                <td>
                  <div className="actions">
                    <button
                      type="button"
                      onClick={() => void act(() => bridge.call('drafts.duplicate', { id: d.id }))}
                      aria-label={t('drafts.list.duplicateOf', { buyer: d.buyerName || d.id })}
                    >
                      {t('drafts.list.duplicate')}
                    </button>
                    <button type="button" onClick={() => void exportDraft(d)} aria-label={t('drafts.list.exportOf', { buyer: d.buyerName || d.id })}>
                      {t('drafts.list.export')}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      disabled={d.issue !== null}
                      onClick={() => void remove(d)}
                      aria-label={t('drafts.list.deleteOf', { buyer: d.buyerName || d.id })}
                    >
                      {t('drafts.list.delete')}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export { flushSave };
