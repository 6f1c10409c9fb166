import { create } from 'zustand';
import type { DraftRecord } from '../../../../common/calls/drafts';
import type { ItemType } from '../../../../common/model/invoice';
import { changeLineType, newLineAfter, type DraftLine, type InvoiceDraft } from './money';

export type DraftMeta = DraftRecord['meta'];
/** The draft's place in the issue queue; while set the draft is read-only. */
export type DraftIssue = DraftRecord['issue'];
type SaveState = 'saved' | 'dirty' | 'saving' | 'error';
export type HeaderField = Exclude<keyof InvoiceDraft, 'lines' | 'vatOverrides' | 'extra' | 'IsTicket'>;
export type LineField = Exclude<keyof DraftLine, 'extra' | 'ItemType' | 'discountBy'>;

interface EditorState {
  id: string | null;
  draft: InvoiceDraft | null;
  meta: DraftMeta;
  issue: DraftIssue;
  /** Bumped on every edit; the autosaver saves when it differs from `savedVersion`. */
  version: number;
  savedVersion: number;
  saveState: SaveState;
  saveError: string | null;
  lastSavedAt: string | null;
  /** Path of a field to focus (set by the problem list and by preview errors). */
  focusPath: string | null;
  /** Problems the service reported for a field on the last preview, by path (its words and its code). */
  serviceIssues: Record<string, ServiceIssue>;
  /** A line just added and not yet left: its problems wait until the cashier moves off it. */
  freshLine: number | null;
  /** The line Ctrl+Delete removed last, while nothing else was edited since (Ctrl+Z puts it back). */
  lastRemoved: { index: number; line: DraftLine; version: number } | null;
  /** The number cell being typed in: its half-typed entry (`25.0` on the way to `25.000`) is judged once left. */
  editingPath: string | null;
  setEditing(path: string | null): void;
  load(record: DraftRecord): void;
  /** Puts back edits that were not saved yet (parked when the page went away); they save next. */
  restoreUnsaved(draft: InvoiceDraft, meta: DraftMeta): void;
  close(): void;
  setField(field: HeaderField, value: string): void;
  setTicket(isTicket: boolean): void;
  setLine(index: number, patch: Partial<DraftLine>): void;
  setLineType(index: number, type: ItemType): void;
  addLine(after?: number, type?: ItemType): number;
  removeLine(index: number): void;
  /** Puts back the line removed last; false when there is none or other edits followed. */
  restoreRemovedLine(): number | null;
  leaveFreshLine(): void;
  setWords(text: string | null): void;
  setVatOverride(key: string, value: string | null): void;
  markSaving(version: number): void;
  markSaved(version: number, at: string): void;
  markSaveFailed(message: string): void;
  focus(path: string | null): void;
  setIssue(issue: DraftIssue): void;
  setServiceIssues(issues: Record<string, ServiceIssue>): void;
}

export interface ServiceIssue {
  message: string;
  code?: string | undefined;
}

function isBlankLine(line: DraftLine): boolean {
  return line.ItemName.trim() === '' && line.ItemCode.trim() === '' && line.UnitPrice.trim() === '';
}

const NO_META: DraftMeta = { wordsEdited: false, words: '' };

/** The editor with no draft open (a loaded draft starts from this too: nothing unsaved, no service findings). */
const NO_DRAFT = {
  id: null,
  draft: null,
  meta: NO_META,
  issue: null,
  version: 0,
  savedVersion: 0,
  saveState: 'saved',
  serviceIssues: {},
  freshLine: null,
  lastRemoved: null,
} satisfies Partial<EditorState>;

type Issues = Record<string, ServiceIssue>;

/** What the service said, less what it said about these fields (a path, or a prefix ending in `.` or `[`: a whole line, every VAT row). */
function without(paths: readonly string[]): (issues: Issues) => Issues {
  return (issues) => {
    const stale = (path: string) => paths.some((p) => path === p || (/[.[]$/.test(p) && path.startsWith(p)));
    return Object.keys(issues).some(stale) ? Object.fromEntries(Object.entries(issues).filter(([path]) => !stale(path))) : issues;
  };
}

/** What the service said about lines, moved with them: a line put in at `at` (+1) or taken out there (-1, its words go). */
function shifted(at: number, by: 1 | -1): (issues: Issues) => Issues {
  return (issues) => {
    const out: Issues = {};
    for (const [path, issue] of Object.entries(issues)) {
      const m = /^lines\[(\d+)\](.*)$/.exec(path);
      // "Too many lines" is about the count: a line taken out may have settled it.
      if (!m) {
        if (!(by === -1 && path === 'lines')) out[path] = issue;
        continue;
      }
      const i = Number(m[1]);
      if (by === -1 && i === at) continue;
      out[i > at || (by === 1 && i === at) ? `lines[${i + by}]${m[2]}` : path] = issue;
    }
    return out;
  };
}

export const useEditor = create<EditorState>((set, get) => {
  /** Applies an edit; `issues` says what becomes of the service's words about the draft (those about the changed fields go). */
  const edit = (fn: (draft: InvoiceDraft) => InvoiceDraft, issues: (current: Issues) => Issues = (i) => i) => {
    const { draft, version, serviceIssues } = get();
    if (!draft) return;
    set({ draft: fn(draft), version: version + 1, saveState: 'dirty', serviceIssues: issues(serviceIssues) });
  };
  return {
    ...NO_DRAFT,
    saveError: null,
    lastSavedAt: null,
    focusPath: null,
    editingPath: null,
    setEditing: (path) => set({ editingPath: path }),
    load: (record) =>
      set({
        ...NO_DRAFT,
        id: record.id,
        draft: record.draft as InvoiceDraft,
        meta: record.meta,
        issue: record.issue ?? null,
        saveError: null,
        lastSavedAt: record.updatedAt,
        focusPath: null,
        // A new draft's one blank line is as new as an added one.
        freshLine: record.draft.lines.length === 1 && isBlankLine(record.draft.lines[0] as DraftLine) ? 0 : null,
      }),
    restoreUnsaved: (draft, meta) => set((s) => ({ draft, meta, version: s.version + 1, saveState: 'dirty' })),
    close: () => set({ ...NO_DRAFT, editingPath: null }),
    // The buyer's email is what the service calls ReceiverEmail when it emails the invoice.
    setField: (field, value) => edit((d) => ({ ...d, [field]: value }), without(field === 'BuyerEmail' ? [field, 'ReceiverEmail'] : [field])),
    setTicket: (isTicket) => edit((d) => ({ ...d, IsTicket: isTicket }), without(['IsTicket'])),
    setLine: (index, patch) =>
      edit(
        (d) => {
          const lines = d.lines.slice();
          const line = lines[index];
          if (!line) return d;
          lines[index] = { ...line, ...patch };
          return { ...d, lines };
        },
        // A rate changed may settle "one rate only" (said of the whole invoice).
        without([...Object.keys(patch).map((k) => `lines[${index}].${k}`), ...('VATRateName' in patch ? ['TaxRateInfo'] : [])]),
      ),
    setLineType: (index, type) =>
      edit(
        (d) => {
          const line = d.lines[index];
          if (!line) return d;
          const lines = d.lines.slice();
          lines[index] = changeLineType(line, type);
          return { ...d, lines };
        },
        without([`lines[${index}].`]),
      ),
    addLine: (after, type = 1) => {
      const d = get().draft;
      if (!d) return -1;
      const at = after === undefined ? d.lines.length : Math.min(after + 1, d.lines.length);
      const line = newLineAfter(d.lines[at - 1], type);
      edit(
        (draft) => {
          const lines = draft.lines.slice();
          lines.splice(at, 0, line);
          return { ...draft, lines };
        },
        shifted(at, 1),
      );
      set({ freshLine: at });
      return at;
    },
    removeLine: (index) => {
      const d = get().draft;
      const line = d?.lines[index];
      if (!d || !line) return;
      edit(
        (draft) => {
          const lines = draft.lines.slice();
          lines.splice(index, 1);
          return { ...draft, lines };
        },
        shifted(index, -1),
      );
      const fresh = get().freshLine;
      set({ lastRemoved: { index, line, version: get().version }, freshLine: fresh === null || fresh === index ? null : fresh > index ? fresh - 1 : fresh });
    },
    restoreRemovedLine: () => {
      const { lastRemoved, version } = get();
      if (!lastRemoved || lastRemoved.version !== version) return null;
      const at = Math.min(lastRemoved.index, get().draft?.lines.length ?? 0);
      edit(
        (draft) => {
          const lines = draft.lines.slice();
          lines.splice(at, 0, lastRemoved.line);
          return { ...draft, lines };
        },
        shifted(at, 1),
      );
      set({ lastRemoved: null });
      return lastRemoved.index;
    },
    leaveFreshLine: () => set({ freshLine: null }),
    setWords: (text) => {
      const { version, serviceIssues } = get();
      set({
        meta: text === null ? { wordsEdited: false, words: '' } : { wordsEdited: true, words: text },
        version: version + 1,
        saveState: 'dirty',
        serviceIssues: without(['TotalAmountInWords'])(serviceIssues),
      });
    },
    setVatOverride: (key, value) =>
      edit(
        (d) => {
          const vatOverrides = { ...d.vatOverrides };
          if (value === null) delete vatOverrides[key];
          else vatOverrides[key] = value;
          return { ...d, vatOverrides };
        },
        without(['taxRates[']),
      ),
    markSaving: () => set({ saveState: 'saving' }),
    markSaved: (version, at) => {
      const current = get().version;
      set({ savedVersion: version, lastSavedAt: at, saveError: null, saveState: current === version ? 'saved' : 'dirty' });
    },
    markSaveFailed: (message) => set({ saveState: 'error', saveError: message }),
    focus: (path) => set({ focusPath: path }),
    setIssue: (issue) => set({ issue }),
    setServiceIssues: (issues) => set({ serviceIssues: issues }),
  };
});
