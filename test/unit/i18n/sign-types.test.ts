/** A cashier reads how an invoice is signed in words; the service's number for it stays out of sight. */
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { SIGN_TYPES } from '../../../common/model/issuing';
import { screenT } from '../../support/i18n';

let t: Record<'vi' | 'en', TFunction>;
beforeAll(async () => {
  t = await screenT();
});

describe('sign type words', () => {
  it.each(['vi', 'en'] as const)('names every sign type in words only, each differently (%s)', (lang) => {
    const short = SIGN_TYPES.map((n) => t[lang](`issuing.signType.${n}`));
    const options = SIGN_TYPES.map((n) => t[lang](`issuing.settings.signTypeOption.${n}`));
    for (const text of [...short, ...options, t[lang]('issuing.settings.signTypeHint'), t[lang]('issuing.settings.certificate')]) {
      expect(text).not.toMatch(/\b\d\b/); // a series such as 1C26MAA may be named
    }
    expect(new Set(short).size).toBe(SIGN_TYPES.length);
    expect(new Set(options).size).toBe(SIGN_TYPES.length);
  });
});
