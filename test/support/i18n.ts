import i18next, { type TFunction } from 'i18next';
import { en } from '../../renderer/src/i18n/en';
import { vi } from '../../renderer/src/i18n/vi';

/** The app's messages in both languages, as the screens translate them (a fresh i18next instance). */
export async function screenT(): Promise<Record<'vi' | 'en', TFunction>> {
  const i18n = i18next.createInstance();
  await i18n.init({ resources: { vi: { translation: vi }, en: { translation: en } }, lng: 'vi', interpolation: { escapeValue: false } });
  return { vi: i18n.getFixedT('vi'), en: i18n.getFixedT('en') };
}
