/** The one parser of typed numbers: vi-VN first, plain forms where they cannot be misread. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec, dotStyleFor, formatTyped, parseTyped, shownFromStored, storedFromTyped, type DotStyle } from '../../../common/money';

const read = (text: string, dot: DotStyle) => {
  const r = parseTyped(text, { dot });
  return r.kind === 'ok' ? r.text : r.kind;
};

describe('parseTyped', () => {
  it('reads the Vietnamese way first', () => {
    expect(read('25.000', 'thousands')).toBe('25000');
    expect(read('1.234.567', 'thousands')).toBe('1234567');
    expect(read('1.234.567', 'either')).toBe('1234567');
    expect(read('1,5', 'either')).toBe('1.5');
    expect(read('1.234,5', 'either')).toBe('1234.5');
    expect(read('1.234,50', 'thousands')).toBe('1234.5');
    expect(read('0,25', 'either')).toBe('0.25');
    expect(read(',5', 'either')).toBe('0.5');
    expect(read('-25.000', 'thousands')).toBe('-25000');
    expect(read('25 000', 'thousands')).toBe('25000');
  });

  it('still reads plain numbers where no Vietnamese reading competes', () => {
    expect(read('25000', 'thousands')).toBe('25000');
    expect(read('1.5', 'either')).toBe('1.5');
    expect(read('12.25', 'either')).toBe('12.25');
    expect(read('0.500', 'either')).toBe('0.5');
    expect(read('1234.567', 'either')).toBe('1234.567');
    expect(read('1.2345', 'either')).toBe('1.2345');
  });

  it('refuses what reads two ways, naming both readings', () => {
    const r = parseTyped('1.500', { dot: 'either' });
    expect(r.kind).toBe('refused');
    if (r.kind !== 'refused') return;
    expect(r.code).toBe('number.ambiguous');
    expect(r.en).toContain('1500');
    expect(r.en).toContain('1,5');
    expect(r.vi).toContain('có thể hiểu là 1500');
  });

  it('refuses a dot that is not a thousands group where a dot only groups (VND)', () => {
    for (const text of ['25.00', '1.5', '1.5000', '.5']) {
      const r = parseTyped(text, { dot: 'thousands' });
      expect(r.kind, text).toBe('refused');
      if (r.kind === 'refused') expect(r.code).toBe('number.dotGroups');
    }
    const r = parseTyped('25.00', { dot: 'thousands' });
    if (r.kind === 'refused') expect(r.vi).toContain('25.000');
  });

  it('refuses a comma before three digits where a dot only groups (VND): an English thousands group, never a few đồng', () => {
    for (const [text, thousands, decimal] of [
      ['25,000', '25.000', '25'],
      ['120,000', '120.000', '120'],
      ['120,500', '120.500', '120,5'],
      ['25,125', '25.125', '25,1250'],
      ['-25,000', '-25.000', '-25'],
    ] as const) {
      const r = parseTyped(text, { dot: 'thousands' });
      expect(r.kind, text).toBe('refused');
      if (r.kind !== 'refused') continue;
      expect(r.code).toBe('number.ambiguous');
      expect(r.en).toContain(`Type ${thousands} or ${decimal}.`);
      expect(r.vi).toContain(`Hãy nhập ${thousands} hoặc ${decimal}.`);
    }
    // What cannot be an English group still reads as a decimal; other fields keep the comma as the decimal mark.
    const decimals: Array<[string, DotStyle, string]> = [
      ['25,5', 'thousands', '25.5'],
      ['0,125', 'thousands', '0.125'],
      ['1.234,567', 'thousands', '1234.567'],
      ['25,1250', 'thousands', '25.125'],
      ['1250,000', 'thousands', '1250'],
      ['1,500', 'either', '1.5'],
    ];
    for (const [text, dot, value] of decimals) expect(read(text, dot), text).toBe(value);
    expect(formatTyped('25.125', { dot: 'thousands' })).toBe('25,1250');
    expect(formatTyped('-120.5', { dot: 'thousands', decimals: 3 })).toBe('-120,5000');
    expect(formatTyped('1234.125', { dot: 'thousands' })).toBe('1.234,125');
    expect(formatTyped('1.125', { dot: 'either' })).toBe('1,125');
  });

  it('refuses malformed input with a message in both languages', () => {
    for (const text of ['abc', '1,2,3', '1,234.5', '12.34.5', '1.23.456', '--5', '.', ',']) {
      const r = parseTyped(text, { dot: 'either' });
      expect(r.kind, text).toBe('refused');
      if (r.kind === 'refused') {
        expect(r.en.length).toBeGreaterThan(10);
        expect(r.vi.length).toBeGreaterThan(10);
      }
    }
    expect(parseTyped('  ', { dot: 'either' }).kind).toBe('blank');
    expect(parseTyped('-5', { dot: 'either', allowNegative: false }).kind).toBe('refused');
  });

  it('chooses the style from what the field holds', () => {
    expect(dotStyleFor('amount', 'VND')).toBe('thousands');
    expect(dotStyleFor('amount', 'USD')).toBe('either');
    expect(dotStyleFor('quantity')).toBe('either');
    expect(dotStyleFor('exchangeRate', 'USD')).toBe('thousands');
  });

  it('keeps refused text in the draft behind a mark the model cannot read as a number', () => {
    const stored = storedFromTyped('1.500', { dot: 'either' });
    expect(stored).not.toBe('1.5');
    expect(shownFromStored(stored, { dot: 'either' })).toBe('1.500');
    expect(storedFromTyped('1,5', { dot: 'either' })).toBe('1.5');
    expect(shownFromStored('1.5', { dot: 'either' })).toBe('1,5');
    expect(shownFromStored('25000', { dot: 'thousands', decimals: 0 })).toBe('25.000');
  });
});

describe('formatTyped → parseTyped is the identity', () => {
  const decimalText = (maxInt: number, maxScale: number) =>
    fc
      .tuple(fc.bigInt({ min: -(10n ** BigInt(maxInt)), max: 10n ** BigInt(maxInt) }), fc.integer({ min: 0, max: maxScale }))
      .map(([units, scale]) => new Dec(units.toString()).div(new Dec(10).pow(scale)));

  it('for VND amounts (whole đồng and unit prices with decimals)', () => {
    fc.assert(
      fc.property(decimalText(15, 4), (value) => {
        const shown = formatTyped(value, { dot: 'thousands' });
        const back = parseTyped(shown, { dot: 'thousands' });
        expect(back.kind === 'ok' && back.value.eq(value), `${value.toFixed()} → ${shown}`).toBe(true);
        const whole = value.toDecimalPlaces(0);
        const shownWhole = formatTyped(whole, { dot: 'thousands', decimals: 0 });
        const backWhole = parseTyped(shownWhole, { dot: 'thousands' });
        expect(backWhole.kind === 'ok' && backWhole.value.eq(whole)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('for quantities, rates and amounts in currencies with cents', () => {
    fc.assert(
      fc.property(decimalText(13, 6), fc.constantFrom(undefined, 2), (value, decimals) => {
        const v = decimals === undefined ? value : value.toDecimalPlaces(decimals);
        const shown = formatTyped(v, decimals === undefined ? { dot: 'either' } : { dot: 'either', decimals });
        const back = parseTyped(shown, { dot: 'either' });
        expect(back.kind === 'ok' && back.value.eq(v), `${v.toFixed()} → ${shown}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('shows money the vi-VN way', () => {
    expect(formatTyped('25000', { dot: 'thousands', decimals: 0 })).toBe('25.000');
    expect(formatTyped('1234567.5', { dot: 'either', decimals: 2 })).toBe('1.234.567,50');
    expect(formatTyped('1.5', { dot: 'either' })).toBe('1,5');
    expect(formatTyped('1500', { dot: 'either' })).toBe('1500');
    expect(formatTyped('1500000', { dot: 'either' })).toBe('1.500.000');
  });
});
