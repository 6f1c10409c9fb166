import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CallError } from '../../../common/ipc/bridge';
import { pick } from '../../../common/model';

export type Lang = 'vi' | 'en';

/** The screen's language, as the two the app speaks. */
export function useLang(): Lang {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'vi';
}

/** The plain text of a failed call in the given language (main sends both). */
export function errorText(error: unknown, lang: string): string {
  if (error instanceof CallError) return pick({ en: error.payload.message, vi: error.payload.messageVi }, lang);
  return error instanceof Error ? error.message : String(error);
}

/** `errorText` bound to the screen's current language. */
export function useErrorText(): (error: unknown) => string {
  const lang = useLang();
  return useCallback((error: unknown) => errorText(error, lang), [lang]);
}
