/** English says "1 draft" and "2 drafts"; Vietnamese, whose nouns do not change with the number, says one text. */
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../../renderer/src/i18n/en';
import { screenT } from '../../support/i18n';

let t: Record<'vi' | 'en', TFunction>;
beforeAll(async () => {
  t = await screenT();
});

/** Every key path of a message tree that ends in `_one`. */
function singulars(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? (k.endsWith('_one') ? [`${prefix}${k}`] : []) : singulars(v as object, `${prefix}${k}.`),
  );
}

describe('plural words', () => {
  it('picks the singular for one and the plain text otherwise, in English only', () => {
    expect(t.en('drafts.list.count', { count: 1 })).toBe('1 draft');
    expect(t.en('drafts.list.count', { count: 2 })).toBe('2 drafts');
    expect(t.en('drafts.list.count', { count: 0 })).toBe('0 drafts');
    expect(t.vi('drafts.list.count', { count: 1 })).toBe('1 bản nháp');
    expect(t.en('emails.confirmRemove', { count: 1 })).toBe('Remove 1 email from the queue?');
    expect(t.en('emails.confirmRemove', { count: 3 })).toBe('Remove 3 emails from the queue?');
  });

  it('has a plain text beside every singular, and the singular is used', () => {
    // Keys found at run time: looked up untyped.
    const tr = t.en as unknown as (key: string, options: { count: number }) => string;
    const keys = singulars(en);
    expect(keys.length).toBeGreaterThan(5);
    for (const key of keys) {
      const base = key.slice(0, -'_one'.length);
      expect(tr(base, { count: 7 }), base).not.toBe(base);
      expect(tr(base, { count: 1 }), key).toBe(tr(key, { count: 1 }));
    }
  });
});
