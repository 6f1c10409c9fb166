import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageKey } from '.';

/**
 * Messages without values, looked up once per language. A screen drawn again on every keystroke
 * then calls no translation: every lookup runs i18next's interpolation, and the editor's lookups
 * together were about 13 % of a keystroke's script in a profile of typing in a draft. `keys` is a
 * constant of the module.
 */
export function useWords<K extends MessageKey>(keys: readonly K[]): Record<K, string> {
  const { t } = useTranslation();
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
