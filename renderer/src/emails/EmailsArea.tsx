import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_STATES, type EmailEntry, type EmailQueueStatus, type EmailReject, type EmailState } from '../../../common/calls/emails';
import { DEFAULT_INVOICE_KIND, INVOICE_KINDS, pick, type InvoiceKind } from '../../../common/model';
import { bridge } from '../bridge';
import './emails.css';
import { errorText, useLang } from '../app/error-text';

type SortKey = 'id' | 'transactionId' | 'receiverName' | 'receiverEmail' | 'state' | 'updatedAt' | 'attempts' | 'kind';
const KINDS = INVOICE_KINDS;
const ROW_HEIGHT = 40;
const EDITABLE: readonly EmailState[] = ['queued', 'failed', 'unknown', 'cancelled'];


interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

/** The email queue screen: counts per state, filter, search, sort, a virtualised table, bulk actions, add, import, export. */
export function EmailsArea() {
  const { t } = useTranslation();
  const lang = useLang();
  const [status, setStatus] = useState<EmailQueueStatus | null>(null);
  const [items, setItems] = useState<EmailEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [filter, setFilter] = useState<EmailState | 'all'>('all');
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  const [sort, setSort] = useState<SortKey>('id');
  const [dir, setDir] = useState<'asc' | 'desc'>('desc');
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<Notice | null>(null);
  const [badRows, setBadRows] = useState<EmailReject[]>([]);
  const [editing, setEditing] = useState<EmailEntry | null>(null);
  const loadSeq = useRef(0);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), 200);
    return () => clearTimeout(timer);
  }, [search]);

  const load = useCallback(async () => {
    const seq = ++loadSeq.current;
    const res = await bridge.call('emails.list', {
      ...(filter === 'all' ? {} : { states: [filter] }),
      ...(debounced.trim() ? { search: debounced.trim() } : {}),
      sort,
      dir,
    });
    if (seq !== loadSeq.current) return;
    setItems(res.items);
    setTotal(res.total);
    setStatus((s) => (s ? { ...s, counts: res.counts } : s));
    setSelected((prev) => {
      if (prev.size === 0) return prev;
      const ids = new Set(res.items.map((e) => e.id));
      const next = new Set([...prev].filter((id) => ids.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [filter, debounced, sort, dir]);

  // Reload on every change of the query, and (throttled) when the queue changes.
  useEffect(() => {
    void load().catch((e: unknown) => setNotice({ kind: 'error', text: errorText(e, lang) }));
  }, [load, lang]);
  useEffect(() => {
    void bridge.call('emails.status', {}).then(setStatus, () => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const off = bridge.on('emails.changed', (s) => {
      setStatus(s);
      if (timer) return;
      const gap = s.total > 2000 ? 1500 : 300;
      timer = setTimeout(
        () => {
          timer = undefined;
          last = Date.now();
          void load().catch(() => {});
        },
        Math.max(0, gap - (Date.now() - last)),
      );
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [load]);

  const run = async (fn: () => Promise<string | null>) => {
    try {
      const text = await fn();
      if (text) setNotice({ kind: 'ok', text });
      await load();
    } catch (e) {
      setNotice({ kind: 'error', text: t('emailQueue.error', { message: errorText(e, lang) }) });
    }
  };

  const selectedIds = useMemo(() => [...selected], [selected]);
  const selectedEntries = useMemo(() => items.filter((e) => selected.has(e.id)), [items, selected]);

  const bulk = (call: 'emails.retry' | 'emails.cancel' | 'emails.remove') =>
    run(async () => {
      if (call === 'emails.remove' && !window.confirm(t('emailQueue.confirmRemove', { count: selectedIds.length }))) return null;
      if (call === 'emails.retry') {
        const unknown = selectedEntries.filter((e) => e.state === 'unknown').length;
        if (unknown > 0 && !window.confirm(t('emailQueue.confirmRetryUnknown', { count: unknown }))) return null;
      }
      const r = await bridge.call(call, { ids: selectedIds });
      setSelected(new Set());
      return t('emailQueue.changed', { changed: r.changed, skipped: r.skipped });
    });

  // Click (or Space) toggles one row; Shift extends from the last toggled row to this one.
  const anchor = useRef<number | null>(null);
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const toggle = useCallback((id: number, index: number, range: boolean) => {
    const from = anchor.current;
    anchor.current = index;
    setSelected((prev) => {
      const next = new Set(prev);
      if (range && from !== null) {
        const on = !prev.has(id);
        const [a, b] = from < index ? [from, index] : [index, from];
        for (const e of itemsRef.current.slice(a, b + 1)) {
          if (on) next.add(e.id);
          else next.delete(e.id);
        }
      } else if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const allSelected = items.length > 0 && selected.size === items.length;

  const sortBy = (key: SortKey) => {
    if (sort === key) setDir(dir === 'asc' ? 'desc' : 'asc');
    else {
      setSort(key);
      setDir('asc');
    }
  };
  const ariaSort = (key: SortKey) => (sort === key ? (dir === 'asc' ? 'ascending' : 'descending') : 'none');

  const counts = status?.counts;
  const sender = status?.sender;
  const senderText = sender
    ? sender.state === 'backoff'
      ? t('emailQueue.sender.backoff', { time: sender.nextAttemptAt ? new Date(sender.nextAttemptAt).toLocaleTimeString(lang) : '…' })
      : t(`emailQueue.sender.${sender.state}`)
    : '';
  const senderError = sender?.lastError ? pick(sender.lastError, lang) : null;

  const exportCsv = () =>
    run(async () => {
      const r = await bridge.call('emails.exportCsv', {
        ...(filter === 'all' ? {} : { states: [filter] }),
        ...(debounced.trim() ? { search: debounced.trim() } : {}),
      });
      const url = URL.createObjectURL(new Blob([r.csv], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = r.fileName;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return t('emailQueue.exported', { count: r.count });
    });

  return (
    <section className="emails" aria-labelledby="emails-heading">
      <h2 id="emails-heading" className="visually-hidden">
        {t('areas.emails')}
      </h2>
      <div className={`emails-sender emails-sender-${sender?.state ?? 'idle'}`}>
        <p role="status" data-testid="email-sender-status">
          {senderText}
          {senderError && sender?.state !== 'idle' && sender?.state !== 'flushing' ? ` — ${senderError}` : ''}
        </p>
        <button type="button" onClick={() => void run(async () => (await bridge.call('emails.flush', {}), null))}>
          {t('emailQueue.sendNow')}
        </button>
      </div>

      <div role="group" aria-label={t('emailQueue.filters')} className="emails-filters">
        {(['all', ...EMAIL_STATES] as const).map((s) => {
          const n = s === 'all' ? (status?.total ?? 0) : (counts?.[s] ?? 0);
          return (
            <button key={s} type="button" aria-pressed={filter === s} className={`chip chip-${s}`} onClick={() => setFilter(s)} data-state={s}>
              {t(`emailQueue.states.${s}`)} <span className="chip-count">{n}</span>
            </button>
          );
        })}
      </div>

      <div className="emails-toolbar">
        <label className="field grow">
          <span>{t('emailQueue.search')}</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label className="field">
          <span>{t('emailQueue.sortBy')}</span>
          <select value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
            {(['id', 'transactionId', 'receiverName', 'receiverEmail', 'kind', 'state', 'attempts', 'updatedAt'] as const).map((k) => (
              <option key={k} value={k}>
                {t(`emailQueue.col.${k}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('emailQueue.sortDir')}</span>
          <select value={dir} onChange={(e) => setDir(e.target.value as 'asc' | 'desc')}>
            <option value="asc">{t('emailQueue.asc')}</option>
            <option value="desc">{t('emailQueue.desc')}</option>
          </select>
        </label>
        <button type="button" onClick={() => void exportCsv()}>
          {t('emailQueue.export')}
        </button>
      </div>

      <div className="emails-actions" role="group" aria-label={t('emailQueue.selected', { count: selected.size })}>
        <span aria-live="polite">{t('emailQueue.selected', { count: selected.size })}</span>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.retry')}>
          {t('emailQueue.retry')}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.cancel')}>
          {t('emailQueue.cancel')}
        </button>
        <button type="button" disabled={selected.size === 0} onClick={() => void bulk('emails.remove')}>
          {t('emailQueue.remove')}
        </button>
        <button
          type="button"
          disabled={selectedEntries.length !== 1 || !EDITABLE.includes(selectedEntries[0]!.state)}
          onClick={() => setEditing(selectedEntries[0] ?? null)}
        >
          {t('emailQueue.edit')}
        </button>
      </div>

      {notice && (
        <p role={notice.kind === 'error' ? 'alert' : 'status'} className={`notice notice-${notice.kind}`}>
          {notice.text}
        </p>
      )}

      <div className="emails-table" role="table" aria-label={t('emailQueue.table')} aria-rowcount={items.length + 1}>
        <div role="rowgroup">
          <div role="row" className="emails-row emails-head" aria-rowindex={1}>
            <span role="columnheader">
              <input type="checkbox" aria-label={t('emailQueue.selectAll')} checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((e) => e.id)))} />
            </span>
            {(['transactionId', 'receiverName', 'receiverEmail', 'kind', 'state'] as const).map((k) => (
              <span role="columnheader" key={k} aria-sort={ariaSort(k)}>
                <button type="button" className="sort" onClick={() => sortBy(k)}>
                  {t(`emailQueue.col.${k}`)}
                  {sort === k ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
              </span>
            ))}
            <span role="columnheader">{t('emailQueue.col.result')}</span>
            <span role="columnheader" aria-sort={ariaSort('attempts')}>
              <button type="button" className="sort" onClick={() => sortBy('attempts')}>
                {t('emailQueue.col.attempts')}
              </button>
            </span>
            <span role="columnheader" aria-sort={ariaSort('updatedAt')}>
              <button type="button" className="sort" onClick={() => sortBy('updatedAt')}>
                {t('emailQueue.col.updatedAt')}
                {sort === 'updatedAt' ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
              </button>
            </span>
          </div>
        </div>
        <VirtualRows items={items} selected={selected} lang={lang} onToggle={toggle} />
        <p className="emails-total">{t('emailQueue.total', { shown: items.length, total: status?.total ?? total })}</p>
      </div>

      <div className="emails-forms">
        <AddForm onDone={(text) => void run(async () => text)} />
        <ImportForm
          onDone={(text, bad) => {
            setBadRows(bad);
            void run(async () => text);
          }}
          onError={(text) => setNotice({ kind: 'error', text })}
        />
      </div>
      {badRows.length > 0 && (
        <section aria-labelledby="emails-bad-rows" className="emails-bad">
          <h3 id="emails-bad-rows">{t('emailQueue.import.badRows')}</h3>
          <ul data-testid="email-bad-rows">
            {badRows.map((r, i) => (
              <li key={`${r.line ?? r.index}-${i}`}>
                <strong>{r.line !== null ? t('emailQueue.import.line', { line: r.line }) : `#${(r.index ?? 0) + 1}`}</strong>
                {r.transactionId ? ` (${r.transactionId})` : ''}: {pick(r.reason, lang)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {editing && (
        <EditDialog
          entry={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void load();
          }}
        />
      )}
    </section>
  );
}

interface VirtualRowsProps {
  items: EmailEntry[];
  selected: ReadonlySet<number>;
  lang: 'vi' | 'en';
  onToggle: (id: number, index: number, range: boolean) => void;
}

/** The scrolling body of the table: virtualised (only the visible rows exist), arrow keys move between rows. */
const VirtualRows = memo(function VirtualRows({ items, selected, lang, onToggle }: VirtualRowsProps) {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const focusRow = (index: number) => {
    const i = Math.max(0, Math.min(items.length - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLInputElement>(`[data-index="${i}"] input[type=checkbox]`)?.focus());
  };
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: items.length - 1 };
    const target = moves[e.key];
    if (target !== undefined && items.length > 0) {
      e.preventDefault();
      focusRow(target);
    }
  };
  return (
    <div ref={scrollRef} className="emails-scroll" role="rowgroup" onKeyDown={onGridKey} data-testid="email-scroll">
      {items.length === 0 ? (
        <p className="emails-empty">{t('emailQueue.empty')}</p>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((v) => {
            const e = items[v.index]!;
            return (
              <Row
                key={e.id}
                entry={e}
                index={v.index}
                start={v.start}
                selected={selected.has(e.id)}
                focusable={v.index === active}
                lang={lang}
                onToggle={onToggle}
                onFocusRow={setActive}
              />
            );
          })}
        </div>
      )}
    </div>
  );
});

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function formatDate(iso: string, lang: string): string {
  let f = dateFormats.get(lang);
  if (!f) dateFormats.set(lang, (f = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'vi-VN', { dateStyle: 'short', timeStyle: 'short' })));
  return f.format(new Date(iso));
}

interface RowProps {
  entry: EmailEntry;
  index: number;
  start: number;
  selected: boolean;
  focusable: boolean;
  lang: 'vi' | 'en';
  onToggle: (id: number, index: number, range: boolean) => void;
  onFocusRow: (index: number) => void;
}

/** One table row; memoised so scrolling re-renders only the rows that enter the window. */
const Row = memo(function Row({ entry: e, index, start, selected, focusable, lang, onToggle, onFocusRow }: RowProps) {
  const { t } = useTranslation();
  const err = e.lastError ? pick(e.lastError, lang) : null;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      data-state={e.state}
      data-tx={e.transactionId}
      className={`emails-row state-${e.state}${selected ? ' is-selected' : ''}`}
      style={{ transform: `translateY(${start}px)`, height: ROW_HEIGHT }}
    >
      <span role="cell">
        <input
          type="checkbox"
          aria-label={t('emailQueue.selectRow', { tx: e.transactionId })}
          checked={selected}
          tabIndex={focusable ? 0 : -1}
          onFocus={() => onFocusRow(index)}
          onClick={(ev) => onToggle(e.id, index, ev.shiftKey)}
          onChange={() => {}}
        />
      </span>
      <span role="cell" className="mono" title={e.transactionId}>
        {e.transactionId}
      </span>
      <span role="cell" title={e.receiverName}>
        {e.receiverName}
      </span>
      <span role="cell" title={[e.receiverEmail, e.ccEmail && `CC ${e.ccEmail}`, e.bccEmail && `BCC ${e.bccEmail}`].filter(Boolean).join(' · ')}>
        {e.receiverEmail}
      </span>
      <span role="cell">{t(`emailQueue.kinds.${e.kind}`)}</span>
      <span role="cell">
        <span className={`badge badge-${e.state}`}>{t(`emailQueue.states.${e.state}`)}</span>
      </span>
      <span role="cell" title={err ?? ''}>
        {e.sendEmailStatus !== null && <span className="code">{t('emailQueue.statusCode', { code: e.sendEmailStatus })} </span>}
        {e.errorCode && <span className="code">[{e.errorCode}] </span>}
        {err}
      </span>
      <span role="cell">{e.attempts}</span>
      <span role="cell">{formatDate(e.updatedAt, lang)}</span>
    </div>
  );
});

function KindSelect({ value, onChange, label }: { value: InvoiceKind; onChange: (k: InvoiceKind) => void; label: string }) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as InvoiceKind)}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {t(`emailQueue.kinds.${k}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

const EMPTY_FORM = { transactionId: '', receiverName: '', receiverEmail: '', ccEmail: '', bccEmail: '', replyEmail: '' };
const FIELDS = ['transactionId', 'receiverName', 'receiverEmail', 'ccEmail', 'bccEmail', 'replyEmail'] as const;

function AddForm({ onDone }: { onDone: (text: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [form, setForm] = useState(EMPTY_FORM);
  const [kind, setKind] = useState<InvoiceKind>(DEFAULT_INVOICE_KIND);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await bridge.call('emails.add', { entries: [{ ...form, kind }] });
      const bad = r.rejected[0];
      if (bad) setError(pick(bad.reason, lang));
      else {
        setForm(EMPTY_FORM);
        onDone(t('emailQueue.add.added'));
      }
    } catch (err) {
      setError(errorText(err, lang));
    }
  };
  return (
    <details className="emails-form">
      <summary>{t('emailQueue.add.title')}</summary>
      <form onSubmit={(e) => void submit(e)} aria-label={t('emailQueue.add.title')}>
        {FIELDS.map((f) => (
          <label className="field" key={f}>
            <span>{t(`emailQueue.add.${f}`)}</span>
            <input
              value={form[f]}
              required={f === 'transactionId' || f === 'receiverEmail'}
              type="text"
              inputMode={f.endsWith('Email') ? 'email' : undefined}
              onChange={(e) => setForm({ ...form, [f]: e.target.value })}
            />
          </label>
        ))}
        <KindSelect value={kind} onChange={setKind} label={t('emailQueue.add.kind')} />
        {error && (
          <p role="alert" className="notice notice-error">
            {error}
          </p>
        )}
        <button type="submit">{t('emailQueue.add.submit')}</button>
      </form>
    </details>
  );
}

function ImportForm({ onDone, onError }: { onDone: (text: string, bad: EmailReject[]) => void; onError: (text: string) => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const [kind, setKind] = useState<InvoiceKind>(DEFAULT_INVOICE_KIND);
  const fileRef = useRef<HTMLInputElement>(null);
  const onFile = async () => {
    const file = fileRef.current?.files?.[0];
    if (!file) return;
    try {
      const text = new TextDecoder('utf-8').decode(await file.arrayBuffer());
      const r = await bridge.call('emails.importCsv', { text, kind });
      onDone(t('emailQueue.import.result', { added: r.added.length, bad: r.rejected.length }), r.rejected);
    } catch (err) {
      onError(errorText(err, lang));
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };
  return (
    <fieldset className="emails-form">
      <legend>{t('emailQueue.import.title')}</legend>
      <p className="hint">{t('emailQueue.import.hint')}</p>
      <KindSelect value={kind} onChange={setKind} label={t('emailQueue.import.kind')} />
      <label className="field">
        <span>{t('emailQueue.import.file')}</span>
        <input ref={fileRef} type="file" accept=".csv,text/csv" onChange={() => void onFile()} />
      </label>
    </fieldset>
  );
}

function EditDialog({ entry, onClose, onSaved }: { entry: EmailEntry; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const ref = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState({
    receiverName: entry.receiverName,
    receiverEmail: entry.receiverEmail,
    ccEmail: entry.ccEmail,
    bccEmail: entry.bccEmail,
    replyEmail: entry.replyEmail,
  });
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await bridge.call('emails.update', { id: entry.id, ...form });
      onSaved();
    } catch (err) {
      setError(errorText(err, lang));
    }
  };
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="email-edit-title" className="emails-dialog">
      <form onSubmit={(e) => void save(e)}>
        <h3 id="email-edit-title">{t('emailQueue.editDialog.title', { tx: entry.transactionId })}</h3>
        {(['receiverName', 'receiverEmail', 'ccEmail', 'bccEmail', 'replyEmail'] as const).map((f) => (
          <label className="field" key={f}>
            <span>{t(`emailQueue.add.${f}`)}</span>
            <input value={form[f]} required={f === 'receiverEmail'} onChange={(e) => setForm({ ...form, [f]: e.target.value })} />
          </label>
        ))}
        {error && (
          <p role="alert" className="notice notice-error">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="submit">{t('emailQueue.editDialog.save')}</button>
          <button type="button" onClick={() => ref.current?.close()}>
            {t('emailQueue.editDialog.close')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
