import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../common/calls/settings';
import { EventBus } from '../../../common/ipc/bus';
import { SettingsService } from '../../../main/services/settings/settings';
import { openDatabase, type Store } from '../../../main/services/store';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-set-'));
  store = openDatabase(dir);
});
afterEach(() => {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('defaults to Vietnamese and merges partial updates, persisted and published', () => {
  const bus = new EventBus();
  const seen: unknown[] = [];
  bus.on('settings.changed', (s) => seen.push(s));
  const settings = new SettingsService(store, bus);
  expect(settings.get()).toEqual(DEFAULT_SETTINGS);
  expect(settings.get().language).toBe('vi');
  const next = settings.update({ language: 'en', amountInWords: { zeroTens: 'lẻ' }, batchSizes: { download: 20 } });
  expect(next).toEqual({
    ...DEFAULT_SETTINGS,
    language: 'en',
    amountInWords: { ...DEFAULT_SETTINGS.amountInWords, zeroTens: 'lẻ' },
    batchSizes: { ...DEFAULT_SETTINGS.batchSizes, download: 20 },
  });
  expect(new SettingsService(store).get()).toEqual(next);
  expect(seen).toEqual([next]);
  expect(() => settings.update({ batchSizes: { download: 51 } })).toThrow();
  expect(settings.get().batchSizes.download).toBe(20);
  expect(settings.update({ downloadFolder: '/tmp/x' }).downloadFolder).toBe('/tmp/x');
  expect(settings.update({ downloadFolder: null }).downloadFolder).toBeNull();
});
