import { z } from 'zod';

/** A text a person reads, in both languages of the app. */
export const BilingualSchema = z.object({ en: z.string(), vi: z.string() });
export type Bilingual = z.infer<typeof BilingualSchema>;

/** The text in `lang` (an i18n language tag): English for `en…`, otherwise Vietnamese, the default. */
export function pick(text: Bilingual, lang: string): string {
  return lang.startsWith('en') ? text.en : text.vi;
}
