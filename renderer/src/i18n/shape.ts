/**
 * The shape of a Vietnamese message block with every text widened to `string`: the English
 * block is typed with it, so a key missing in English fails the typecheck. Numeric keys
 * (`itemType: { 1: … }`) become their string form, which is how i18next looks them up.
 * A text may have an English singular beside it (`count_one` next to `count`): i18next picks it
 * when the call's `count` is 1 (Vietnamese nouns do not change with the number).
 */
export type MessagesOf<T> = { [K in keyof T as K extends number ? `${K}` : K]: T[K] extends string ? string : MessagesOf<T[K]> } & {
  [K in keyof T as T[K] extends string ? (K extends string ? `${K}_one` : never) : never]?: string;
};
