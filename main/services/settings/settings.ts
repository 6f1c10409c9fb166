import { DEFAULT_SETTINGS, SettingsSchema, type Settings, type SettingsPatch } from '../../../common/calls/settings';
import type { EventBus } from '../../../common/ipc/bus';
import type { Store } from '../store';

const KEY = 'app.settings';

/** User preferences, one JSON document in the `settings` table (shared by the app and the CLI). */
export class SettingsService {
  constructor(
    private readonly store: Store,
    private readonly bus?: EventBus,
  ) {}

  get(): Settings {
    const row = this.store.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return structuredClone(DEFAULT_SETTINGS);
    let stored: unknown;
    try {
      stored = JSON.parse(row.value);
    } catch {
      return structuredClone(DEFAULT_SETTINGS);
    }
    // Merge over the defaults so settings added later get their default values.
    const merged = mergeSettings(DEFAULT_SETTINGS, (stored ?? {}) as SettingsPatch);
    const parsed = SettingsSchema.safeParse(merged);
    return parsed.success ? parsed.data : structuredClone(DEFAULT_SETTINGS);
  }

  update(patch: SettingsPatch): Settings {
    const next = this.store.transaction((db) => {
      const value = SettingsSchema.parse(mergeSettings(this.get(), patch));
      db.prepare('INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(value));
      return value;
    });
    this.bus?.emit('settings.changed', next);
    return next;
  }
}

function mergeSettings(base: Settings, patch: SettingsPatch): Settings {
  return {
    language: patch.language ?? base.language,
    amountInWords: { ...base.amountInWords, ...stripUndefined(patch.amountInWords ?? {}) },
    downloadFolder: patch.downloadFolder === undefined ? base.downloadFolder : patch.downloadFolder,
    batchSizes: { ...base.batchSizes, ...stripUndefined(patch.batchSizes ?? {}) },
    decimalDigits: { ...base.decimalDigits, ...stripUndefined(patch.decimalDigits ?? {}) },
    issuing: { ...base.issuing, ...stripUndefined(patch.issuing ?? {}) },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
