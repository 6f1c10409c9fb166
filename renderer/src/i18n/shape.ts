/**
 * The shape of a Vietnamese message block with every text widened to `string`: the English
 * block is typed with it, so a key missing in English fails the typecheck. Numeric keys
 * (`itemType: { 1: … }`) become their string form, which is how i18next looks them up.
 */
export type MessagesOf<T> = { [K in keyof T as K extends number ? `${K}` : K]: T[K] extends string ? string : MessagesOf<T[K]> };
