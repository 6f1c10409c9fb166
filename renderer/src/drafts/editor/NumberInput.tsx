import { memo, useState, type InputHTMLAttributes } from 'react';
import { shownFromStored, storedFromTyped, type DotStyle } from './money';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'inputMode'> {
  /** What the draft holds: a canonical decimal string, blank, or refused text (marked). */
  value: string;
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
export const NumberInput = memo(function NumberInput({ value, dot, decimals, onValue, onFocus, onBlur, ...rest }: Props) {
  const [typed, setTyped] = useState<string | null>(null);
  const shown = typed ?? shownFromStored(value, decimals === undefined ? { dot } : { dot, decimals });
  return (
    <input
      {...rest}
      inputMode="decimal"
      autoComplete="off"
      value={shown}
      onFocus={(e) => {
        setTyped(e.target.value);
        onFocus?.(e);
      }}
      onChange={(e) => {
        setTyped(e.target.value);
        onValue(storedFromTyped(e.target.value, { dot }));
      }}
      onBlur={(e) => {
        setTyped(null);
        onBlur?.(e);
      }}
    />
  );
});
