/** Stands for the value of a message looked up once (see withSlot). */
export const SLOT = '\u0000';

/**
 * A message with one value, looked up once: `text` is the message with SLOT as its value, and the
 * function puts each value in its place. The rows of a long table then call no translation (one
 * lookup with interpolation per row and frame showed up in a scrolling profile).
 */
export function withSlot(text: string): (value: string) => string {
  const parts = text.split(SLOT);
  return (value) => parts.join(value);
}
