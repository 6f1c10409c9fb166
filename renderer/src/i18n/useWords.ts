import i18next, { type TFunction } from 'i18next';
import { useMemo, useSyncExternalStore } from 'react';
import type { MessageKey } from '.';

const onLanguage = (changed: () => void) => {
  i18next.on('languageChanged', changed);
  return () => i18next.off('languageChanged', changed);
};
const currentLanguage = () => i18next.language;

/**
 * The UI's language, for screens drawn again on every keystroke: one subscription, where
 * react-i18next's `useTranslation` does several hooks' work on every render.
 */
export function useLanguage(): string {
  return useSyncExternalStore(onLanguage, currentLanguage);
}

/** `t` in the UI's language: the same function until the language changes. */
export function useT(): TFunction {
  const lang = useLanguage();
  return useMemo(() => i18next.getFixedT(lang), [lang]);
}

/**
 * Messages without values, looked up once per language. A screen drawn again on every keystroke
 * then calls no translation: every lookup runs i18next's interpolation, and the editor's lookups
 * together were about 13 % of a keystroke's script in a profile of typing in a draft. `keys` is a
 * constant of the module.
 */
export function useWords<K extends MessageKey>(keys: readonly K[]): Record<K, string> {
  const t = useT();
  return useMemo(() => {
    const words = {} as Record<K, string>;
    for (const k of keys) {
      const key: MessageKey = k;
      // Typed over every key, some of which are groups; these are messages, so never undefined.
      words[k] = t(key) ?? key;
    }
    return words;
  }, [t, keys]);
}
