import { create } from 'zustand';
import type { CallResponse } from '../../../common/contract';

export const AREAS = ['drafts', 'downloads', 'emails', 'templates', 'settings'] as const;
export type Area = (typeof AREAS)[number];

interface AppState {
  area: Area;
  online: boolean | undefined;
  info: CallResponse<'app.info'> | undefined;
  setArea(area: Area): void;
  setOnline(online: boolean): void;
  setInfo(info: CallResponse<'app.info'>): void;
}

export const useAppStore = create<AppState>((set) => ({
  area: 'drafts',
  online: undefined,
  info: undefined,
  setArea: (area) => set({ area }),
  setOnline: (online) => set({ online }),
  setInfo: (info) => set({ info, online: info.online }),
}));
