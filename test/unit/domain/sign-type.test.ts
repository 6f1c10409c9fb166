import { describe, expect, it } from 'vitest';
import { invoiceKindOfSeries, signTypeFor } from '../../../common/rules/sign-type';

describe('the sign type an invoice is issued with', () => {
  it('reads the kind from the series: M is a cash register, C with code, K without', () => {
    expect(invoiceKindOfSeries('1C26MAA')).toBe('cashRegister');
    expect(invoiceKindOfSeries('1c26taa')).toBe('withCode');
    expect(invoiceKindOfSeries('1K26TAA')).toBe('withoutCode');
    expect(invoiceKindOfSeries('')).toBe('withoutCode');
  });

  it('a cash-register series is always 5 (6 asynchronously); any other series is HSM, 2 (3 asynchronously)', () => {
    expect([2, 5, 3, 6].map((s) => signTypeFor(s as 2 | 5 | 3 | 6, 'cashRegister'))).toEqual([5, 5, 6, 6]);
    expect([2, 5, 3, 6].map((s) => signTypeFor(s as 2 | 5 | 3 | 6, 'withCode'))).toEqual([2, 2, 3, 3]);
    expect([2, 5, 3, 6].map((s) => signTypeFor(s as 2 | 5 | 3 | 6, 'withoutCode'))).toEqual([2, 2, 3, 3]);
  });
});
