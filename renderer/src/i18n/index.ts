import i18next, { type ParseKeys } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { vi } from './vi';

export type Language = 'vi' | 'en';
/** Any key of the messages; a misspelt one fails the typecheck. */
export type MessageKey = ParseKeys;
export const LANGUAGES: ReadonlyArray<{ code: Language; label: string }> = [
  { code: 'vi', label: 'Tiếng Việt' },
  { code: 'en', label: 'English' },
];
const STORAGE_KEY = 'einvoice.language';

function storedLanguage(): Language {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'en' ? 'en' : 'vi';
  } catch {
    return 'vi';
  }
}

export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage may be unavailable; the choice still applies to this session.
  }
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

export async function initI18n(): Promise<typeof i18next> {
  const lng = storedLanguage();
  document.documentElement.lang = lng;
  await i18next.use(initReactI18next).init({
    resources: { vi: { translation: vi }, en: { translation: en } },
    lng,
    fallbackLng: 'vi',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
