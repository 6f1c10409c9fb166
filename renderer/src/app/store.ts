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
  setArea(area: Area): void;
  setOnline(online: boolean): void;
  setInfo(info: CallResponse<'app.info'>): void;
  openEmails(search: string): void;
  clearEmailSearch(): void;
}

export const useAppStore = create<AppState>((set) => ({
  area: 'drafts',
  online: undefined,
  info: undefined,
  emailSearch: null,
  setArea: (area) => set({ area }),
  setOnline: (online) => set({ online }),
  setInfo: (info) => set({ info, online: info.online }),
  openEmails: (search) => set({ area: 'emails', emailSearch: search }),
  clearEmailSearch: () => set({ emailSearch: null }),
}));
