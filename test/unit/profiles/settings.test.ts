import { expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../common/calls/settings';
import { EventBus } from '../../../common/ipc/bus';
import { SettingsService } from '../../../main/services/settings/settings';
import { freshStorePerTest } from '../../support/temp-dir';

const db = freshStorePerTest('einv-set-');

it('defaults to Vietnamese and merges partial updates, persisted and published', () => {
  const bus = new EventBus();
  const seen: unknown[] = [];
  bus.on('settings.changed', (s) => seen.push(s));
  const settings = new SettingsService(db.store, bus);
  expect(settings.get()).toEqual(DEFAULT_SETTINGS);
  expect(settings.get().language).toBe('vi');
  const next = settings.update({ language: 'en', amountInWords: { zeroTens: 'lẻ' }, batchSizes: { download: 20 } });
  expect(next).toEqual({
    ...DEFAULT_SETTINGS,
    language: 'en',
    amountInWords: { ...DEFAULT_SETTINGS.amountInWords, zeroTens: 'lẻ' },
    batchSizes: { ...DEFAULT_SETTINGS.batchSizes, download: 20 },
  });
  expect(new SettingsService(db.store).get()).toEqual(next);
  expect(seen).toEqual([next]);
  expect(() => settings.update({ batchSizes: { download: 51 } })).toThrow();
  expect(settings.get().batchSizes.download).toBe(20);
  expect(settings.update({ downloadFolder: '/tmp/x' }).downloadFolder).toBe('/tmp/x');
  expect(settings.update({ downloadFolder: null }).downloadFolder).toBeNull();
});

it('keeps the decimal digits the shop issues with; null goes back to following the draft; out of range is refused', () => {
  const settings = new SettingsService(db.store);
  expect(Object.values(settings.get().decimalDigits).every((v) => v === null)).toBe(true);
  settings.update({ decimalDigits: { QuantityDecimalDigits: 3 } });
  expect(new SettingsService(db.store).get().decimalDigits).toEqual({ ...DEFAULT_SETTINGS.decimalDigits, QuantityDecimalDigits: 3 });
  expect(() => settings.update({ decimalDigits: { AmountDecimalDigits: 16 } })).toThrow();
  expect(settings.update({ decimalDigits: { QuantityDecimalDigits: null } }).decimalDigits).toEqual(DEFAULT_SETTINGS.decimalDigits);
});
