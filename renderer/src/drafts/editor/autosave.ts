import type { DraftSummary } from '../../../../common/calls/drafts';
import { CallError } from '../../../../common/ipc/bridge';
import { bridge } from '../../bridge';
import { whenIdle } from '../../app/idle';
import type { DraftLine, InvoiceDraft } from './money';
import { useEditor, type DraftMeta } from './store';

const DEBOUNCE_MS = 350;
/** Unsaved edits parked synchronously in localStorage when the page goes away mid-debounce. */
const UNSAVED_KEY = 'einvoice.unsavedDraft';
/** Even while the cashier keeps typing, a save starts at least this often. */
const MAX_WAIT_MS = 800;

let timer: ReturnType<typeof setTimeout> | undefined;
let cancelIdle: (() => void) | undefined;
let firstDirtyAt = 0;
let inFlight: Promise<void> | undefined;
let declared = false;

let sent = false;
let cancelDeclare: (() => void) | undefined;

/** The lines as the last save here left them, and the draft's revision after it. */
let lastSaved: { id: string; revision: number; lines: readonly DraftLine[] } | null = null;

/**
 * The lines changed since the last save here (edits make new line objects, so a changed line is
 * one that is not the same object); null when the draft goes whole: no save yet, lines added or
 * taken out, or most of them changed.
 */
function changedLines(id: string, lines: readonly DraftLine[]): Array<{ at: number; line: DraftLine }> | null {
  if (lastSaved?.id !== id || lastSaved.lines.length !== lines.length) return null;
  const changed: Array<{ at: number; line: DraftLine }> = [];
  for (let at = 0; at < lines.length; at++) {
    if (lines[at] === lastSaved.lines[at]) continue;
    changed.push({ at, line: lines[at]! });
    if (changed.length * 2 > lines.length) return null;
  }
  return changed;
}

/**
 * Saves the draft: only its header and changed lines when it can (a long draft's autosave sends a
 * line, not the whole draft), whole when it cannot or when the stored draft is not the revision
 * the last save here made (`draft_changed`: then nothing was written, and the whole draft goes).
 */
async function save(id: string, draft: InvoiceDraft, meta: DraftMeta, learn: boolean): Promise<DraftSummary> {
  const { lines, ...head } = draft;
  const changes = learn ? null : changedLines(id, lines);
  let answer: DraftSummary | undefined;
  if (changes && lastSaved) {
    try {
      answer = await bridge.call('drafts.saveChanges', { id, base: lastSaved.revision, head, lineCount: lines.length, lines: changes, meta });
    } catch (error) {
      if (!(error instanceof CallError && error.payload.code === 'draft_changed')) throw error;
    }
  }
  answer ??= await bridge.call('drafts.save', { id, draft, meta, learn });
  lastSaved = { id, revision: answer.revision, lines };
  return answer;
}

/**
 * Tells the updater whether edits are unsaved. The first keystroke after a save flips it: the
 * call goes out in idle time after that keystroke's frame, and only the latest state is sent.
 */
function declare(busy: boolean): void {
  if (declared === busy) return;
  declared = busy;
  cancelDeclare ??= whenIdle(() => {
    cancelDeclare = undefined;
    if (sent === declared) return;
    sent = declared;
    void bridge
      .call('updates.declareWork', {
        key: 'drafts.unsaved',
        busy: sent,
        message: { en: 'A draft has unsaved edits', vi: 'Có hóa đơn nháp chưa lưu xong' },
      })
      .catch(() => {});
  }, 200);
}

/** Saves the open draft now (waits for a save in flight first). `learn` feeds the catalogues. */
export async function flushSave(learn = false): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  cancelIdle?.();
  cancelIdle = undefined;
  while (inFlight) await inFlight;
  const s = useEditor.getState();
  // A draft in the issue queue is read-only: the service would refuse the save (draft_locked).
  if (!s.id || !s.draft || s.issue) return;
  if (s.version === s.savedVersion && !learn) return;
  const { id, draft, meta, version } = s;
  s.markSaving(version);
  inFlight = (async () => {
    try {
      const saved = await save(id, draft, meta, learn);
      if (useEditor.getState().id === id) useEditor.getState().markSaved(version, saved.updatedAt);
      dropParked(id);
    } catch (error) {
      if (useEditor.getState().id === id) useEditor.getState().markSaveFailed(error instanceof Error ? error.message : String(error));
    } finally {
      inFlight = undefined;
    }
  })();
  await inFlight;
  const after = useEditor.getState();
  if (after.id === id && after.version !== after.savedVersion) schedule();
  else declare(false);
}

function schedule(): void {
  const now = Date.now();
  if (timer === undefined && cancelIdle === undefined) firstDirtyAt = now;
  if (cancelIdle) return;
  clearTimeout(timer);
  const wait = Math.max(0, Math.min(DEBOUNCE_MS, firstDirtyAt + MAX_WAIT_MS - now));
  // The whole draft is serialised and sent: in idle time after a frame, never in a keystroke's own.
  timer = setTimeout(() => {
    timer = undefined;
    cancelIdle = whenIdle(() => {
      cancelIdle = undefined;
      void flushSave();
    }, 500);
  }, wait);
}

/** Starts the autosaver: debounced (~350 ms, at most ~0.8 s behind), one save in flight at a time. */
export function startAutosave(): () => void {
  const off = useEditor.subscribe((state, prev) => {
    if (state.id && state.version !== prev.version && state.version !== state.savedVersion) {
      declare(true);
      schedule();
    }
  });
  const onHide = () => {
    if (document.visibilityState === 'hidden') void flushSave();
  };
  const onUnload = () => {
    // A save started now may not finish before the page is gone: park the edits synchronously;
    // the next open of this draft takes them back and saves them.
    const s = useEditor.getState();
    if (s.id && s.draft && s.version !== s.savedVersion) {
      try {
        localStorage.setItem(UNSAVED_KEY, JSON.stringify({ id: s.id, draft: s.draft, meta: s.meta, at: new Date().toISOString() }));
      } catch {
        // storage full or unavailable: the save below is the only chance
      }
    }
    void flushSave();
  };
  document.addEventListener('visibilitychange', onHide);
  window.addEventListener('pagehide', onUnload);
  return () => {
    off();
    document.removeEventListener('visibilitychange', onHide);
    window.removeEventListener('pagehide', onUnload);
    void flushSave();
  };
}

function dropParked(id: string): void {
  try {
    const raw = localStorage.getItem(UNSAVED_KEY);
    if (raw && (JSON.parse(raw) as { id?: string }).id === id) localStorage.removeItem(UNSAVED_KEY);
  } catch {
    // nothing parked
  }
}

/** Edits parked for draft `id` by a page that went away before its save finished, if newer than `updatedAt`. */
export function takeParked(id: string, updatedAt: string): { draft: unknown; meta: unknown } | null {
  try {
    const raw = localStorage.getItem(UNSAVED_KEY);
    if (!raw) return null;
    const parked = JSON.parse(raw) as { id?: string; draft?: unknown; meta?: unknown; at?: string };
    if (parked.id !== id || !parked.draft || !parked.at) return null;
    if (parked.at <= updatedAt) {
      localStorage.removeItem(UNSAVED_KEY);
      return null;
    }
    return { draft: parked.draft, meta: parked.meta };
  } catch {
    return null;
  }
}
