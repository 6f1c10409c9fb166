import { memo, useState, type InputHTMLAttributes } from 'react';
import { shownFromStored, storedFromTyped, type DotStyle } from './money';
import { useEditor } from './store';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'inputMode'> {
  /** What the draft holds: a canonical decimal string, blank, or refused text (marked). */
  value: string;
  /** The draft path of the field (also its `data-path`). */
  'data-path': string;
  dot: DotStyle;
  /** Fixed decimals when shown (amounts in a currency); quantities show their own digits. */
  decimals?: number | undefined;
  /** Receives what the draft should hold for the text typed (common/money's one parser). */
  onValue(stored: string): void;
}

/**
 * A number field read the Vietnamese way: while focused it keeps exactly what is typed; every
 * keystroke goes through `storedFromTyped` (a refused entry is kept, marked, and explained by the
 * draft check); once left it shows the value formatted (`25.000`, `1,5`).
 */
export const NumberInput = memo(function NumberInput({ value, 'data-path': path, dot, decimals, onValue, onFocus, onBlur, ...rest }: Props) {
  // What is being typed, with what it stored: when the draft's value changes under the cursor
  // (a line removed or put back), the field shows the new value instead of stale text.
  const [typed, setTyped] = useState<{ text: string; stored: string } | null>(null);
  const shown = typed && typed.stored === value ? typed.text : shownFromStored(value, decimals === undefined ? { dot } : { dot, decimals });
  return (
    <input
      {...rest}
      data-path={path}
      inputMode="decimal"
      autoComplete="off"
      // A number has nothing to spell-check (Electron's spellchecker is on by default).
      spellCheck={false}
      value={shown}
      onFocus={(e) => {
        setTyped({ text: e.target.value, stored: value });
        useEditor.getState().setEditing(path);
        onFocus?.(e);
      }}
      onChange={(e) => {
        const stored = storedFromTyped(e.target.value, { dot });
        setTyped({ text: e.target.value, stored });
        onValue(stored);
      }}
      onBlur={(e) => {
        setTyped(null);
        if (useEditor.getState().editingPath === path) useEditor.getState().setEditing(null);
        onBlur?.(e);
      }}
    />
  );
});
