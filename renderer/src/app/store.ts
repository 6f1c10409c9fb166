import { useCallback, useEffect, useState } from 'react';
import { create } from 'zustand';
import type { CallResponse } from '../../../common/contract';

/** The areas in the order of the side bar. */
export const AREAS = ['drafts', 'issuing', 'issued', 'downloads', 'emails', 'templates', 'settings'] as const;
export type Area = (typeof AREAS)[number];
/** Alt+digit of each area: the first five kept their keys when the issue queue and the issued invoices joined, next to the drafts. */
export const AREA_KEYS: Readonly<Record<Area, number>> = { drafts: 1, downloads: 2, emails: 3, templates: 4, settings: 5, issuing: 6, issued: 7 };

interface AppState {
  area: Area;
  online: boolean | undefined;
  info: CallResponse<'app.info'> | undefined;
  /** A search the email queue starts with (set by "open in the email queue" elsewhere), cleared once used. */
  emailSearch: string | null;
  /** Forms of the open area with edits not saved yet (by key): leaving asks first. */
  unsaved: readonly string[];
  /** The area asked for while edits were unsaved: the screen asks whether to leave them. */
  leaving: Area | null;
  /** Opens an area; with unsaved edits in the open one, asks first (`leaving`). */
  setArea(area: Area): void;
  markUnsaved(key: string, unsaved: boolean): void;
  /** Answers `leaving`: stay (and save), or go on and let the edits go. */
  stay(): void;
  leaveUnsaved(): void;
  setOnline(online: boolean): void;
  setInfo(info: CallResponse<'app.info'>): void;
  openEmails(search: string): void;
  clearEmailSearch(): void;
}

export const useAppStore = create<AppState>((set, get) => ({
  area: 'drafts',
  online: undefined,
  info: undefined,
  emailSearch: null,
  unsaved: [],
  leaving: null,
  setArea: (area) => {
    if (area !== get().area && get().unsaved.length > 0) set({ leaving: area });
    else set({ area, leaving: null });
  },
  markUnsaved: (key, unsaved) => {
    const now = get().unsaved;
    if (unsaved !== now.includes(key)) set({ unsaved: unsaved ? [...now, key] : now.filter((k) => k !== key) });
  },
  stay: () => set({ leaving: null }),
  leaveUnsaved: () => {
    const next = get().leaving;
    if (next) set({ area: next, leaving: null, unsaved: [] });
  },
  setOnline: (online) => set({ online }),
  setInfo: (info) => set({ info, online: info.online }),
  openEmails: (search) => {
    get().setArea('emails');
    if (get().area === 'emails') set({ emailSearch: search });
  },
  clearEmailSearch: () => set({ emailSearch: null }),
}));

/** A form says whether it holds edits not saved yet; leaving its area then asks first. */
export function useUnsaved(key: string, unsaved: boolean): void {
  const mark = useAppStore((s) => s.markUnsaved);
  useEffect(() => mark(key, unsaved), [key, unsaved, mark]);
  useEffect(() => () => mark(key, false), [key, mark]);
}

/**
 * A form's edits not saved yet, declared as `useUnsaved` does: `edit(setter)` is the setter that
 * also marks the form edited, `clear()` after a save or a cancel. Only "edited" is kept, never a value.
 */
export function useEdits(key: string) {
  const [edited, setEdited] = useState(false);
  useUnsaved(key, edited);
  const edit = useCallback(
    <T>(set: (value: T) => void) =>
      (value: T) => {
        setEdited(true);
        set(value);
      },
    [],
  );
  const clear = useCallback(() => setEdited(false), []);
  return { edited, edit, clear };
}
