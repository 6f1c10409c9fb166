import { useRef } from 'react';

/**
 * About how wide `text` is, in `ch` (the width of a "0"; every digit is as wide in the app's
 * fonts), leaning wide: digits 1, dots, commas and spaces ½, capitals
 * 1.4, anything else 1.1; rounded up to a half, and half a `ch` to spare.
 */
export function widthInCh(text: string): number {
  let width = 0;
  for (const c of text) width += /\d/.test(c) ? 1 : /[.,\s]/.test(c) ? 0.5 : /\p{Lu}/u.test(c) ? 1.4 : 1.1;
  return Math.ceil(width * 2) / 2 + 0.5;
}

/**
 * A figure a keystroke changes, in a one-line box that Chromium lays out on its own (`.fig` in
 * editor.css). The box is as wide as the widest text it has shown (a figure typed up, then down
 * again, keeps its room): only a figure wider than ever before lays out what is around it.
 * `fill` takes the cell's width instead (a column of a fixed width); `widest` names texts that
 * take turns in the box, to size it for them from the start.
 */
export function Fig({ text, testId, fill = false, widest }: { text: string; testId?: string; fill?: boolean; widest?: readonly string[] }) {
  const room = useRef(0);
  // Only ever grows, so rendering twice gives the same width; a box that fills its cell needs none.
  if (!fill) room.current = Math.max(room.current, ...[text, ...(widest ?? [])].map(widthInCh));
  return (
    <span className="fig" data-testid={testId} style={fill ? undefined : { width: `${room.current}ch` }}>
      {text}
    </span>
  );
}
