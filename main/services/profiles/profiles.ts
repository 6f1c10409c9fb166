import { randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors';
import type { Store } from '../store';
import { checkServiceUrl, PRESETS } from './urls';

export type ProfileKind = 'sandbox' | 'test' | 'production' | 'custom';

export interface Profile {
  id: string;
  name: string;
  kind: ProfileKind;
  /** Null for the sandbox (its address is known only once it runs). */
  baseUrl: string | null;
  tokenUrl: string | null;
  builtin: boolean;
  active: boolean;
}

export interface ProfileInput {
  name: string;
  kind: Exclude<ProfileKind, 'sandbox'>;
  baseUrl?: string | null;
  tokenUrl?: string | null;
}

export interface ProfilePatch {
  name?: string;
  baseUrl?: string | null;
  tokenUrl?: string | null;
}

export const SANDBOX_PROFILE_ID = 'sandbox';
const ACTIVE_KEY = 'profiles.activeId';

interface Row {
  id: string;
  name: string;
  kind: ProfileKind;
  base_url: string | null;
  token_url: string | null;
  builtin: number;
}

function notFound(id: string): AppError {
  return new AppError('profile_not_found', {
    en: `There is no connection profile "${id}".`,
    vi: `Không có cấu hình kết nối "${id}".`,
  });
}

/**
 * Connection profiles, stored in the database: the built-in Sandbox (default on first run),
 * the test/production presets and Custom ones. Exactly one is active.
 */
export class ProfileService {
  private readonly listeners = new Set<(active: Profile) => void>();

  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.ensureBuiltins();
  }

  /** Called when the active profile changes (or the active one is edited). */
  onActiveChange(listener: (active: Profile) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private ensureBuiltins(): void {
    this.store.transaction((db) => {
      const stamp = this.now().toISOString();
      db.prepare(
        `INSERT INTO profiles(id, name, kind, base_url, token_url, builtin, created_at, updated_at)
         VALUES (?, 'Sandbox', 'sandbox', NULL, NULL, 1, ?, ?) ON CONFLICT(id) DO NOTHING`,
      ).run(SANDBOX_PROFILE_ID, stamp, stamp);
      db.prepare(`INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING`).run(ACTIVE_KEY, JSON.stringify(SANDBOX_PROFILE_ID));
    });
  }

  activeId(): string {
    const row = this.store.db.prepare('SELECT value FROM settings WHERE key = ?').get(ACTIVE_KEY) as { value: string } | undefined;
    const id = row ? (JSON.parse(row.value) as string) : SANDBOX_PROFILE_ID;
    const exists = this.store.db.prepare('SELECT 1 AS x FROM profiles WHERE id = ?').get(id);
    return exists ? id : SANDBOX_PROFILE_ID;
  }

  list(): Profile[] {
    const active = this.activeId();
    const rows = this.store.db
      .prepare('SELECT id, name, kind, base_url, token_url, builtin FROM profiles ORDER BY builtin DESC, created_at, rowid')
      .all() as unknown as Row[];
    return rows.map((r) => toProfile(r, active));
  }

  get(id: string): Profile {
    const row = this.store.db.prepare('SELECT id, name, kind, base_url, token_url, builtin FROM profiles WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw notFound(id);
    return toProfile(row, this.activeId());
  }

  /** By id or (case-insensitive) name, for the CLI's `--profile NAME`. */
  find(idOrName: string): Profile {
    const row = this.store.db
      .prepare('SELECT id, name, kind, base_url, token_url, builtin FROM profiles WHERE id = ? OR name = ? COLLATE NOCASE')
      .get(idOrName, idOrName) as Row | undefined;
    if (!row) throw notFound(idOrName);
    return toProfile(row, this.activeId());
  }

  active(): Profile {
    return this.get(this.activeId());
  }

  add(input: ProfileInput): Profile {
    const name = checkName(input.name);
    const urls = resolveUrls(input.kind, input.baseUrl, input.tokenUrl);
    const id = randomUUID();
    const stamp = this.now().toISOString();
    this.store.transaction((db) => {
      this.assertNameFree(name);
      db.prepare('INSERT INTO profiles(id, name, kind, base_url, token_url, builtin, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)').run(
        id,
        name,
        input.kind,
        urls.baseUrl,
        urls.tokenUrl,
        stamp,
        stamp,
      );
    });
    return this.get(id);
  }

  /** What {@link update} would store (checked, normalised), without storing it. */
  resolvePatch(id: string, patch: ProfilePatch): { name: string; baseUrl: string | null; tokenUrl: string | null } {
    const current = this.get(id);
    if (current.builtin && (patch.baseUrl !== undefined || patch.tokenUrl !== undefined)) {
      throw new AppError('profile_builtin', {
        en: 'The built-in Sandbox runs on this computer; its address cannot be changed.',
        vi: 'Sandbox tích hợp chạy trên máy này; không thể đổi địa chỉ của nó.',
      });
    }
    const name = patch.name === undefined ? current.name : checkName(patch.name);
    const urls =
      current.kind === 'sandbox'
        ? { baseUrl: null, tokenUrl: null }
        : resolveUrls(
            current.kind,
            patch.baseUrl === undefined ? current.baseUrl : patch.baseUrl,
            patch.tokenUrl === undefined ? current.tokenUrl : patch.tokenUrl,
          );
    return { name, ...urls };
  }

  update(id: string, patch: ProfilePatch): Profile {
    const { name, ...urls } = this.resolvePatch(id, patch);
    this.store.transaction((db) => {
      this.assertNameFree(name, id);
      db.prepare('UPDATE profiles SET name = ?, base_url = ?, token_url = ?, updated_at = ? WHERE id = ?').run(
        name,
        urls.baseUrl,
        urls.tokenUrl,
        this.now().toISOString(),
        id,
      );
    });
    const updated = this.get(id);
    if (updated.active) this.notify(updated);
    return updated;
  }

  /** Removes a profile and (by cascade) the data kept for it; the Sandbox cannot be removed. */
  remove(id: string): void {
    const profile = this.get(id);
    if (profile.builtin) {
      throw new AppError('profile_builtin', {
        en: 'The built-in Sandbox cannot be removed.',
        vi: 'Không thể xóa Sandbox tích hợp.',
      });
    }
    this.store.transaction((db) => {
      db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
      if (profile.active) db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(SANDBOX_PROFILE_ID), ACTIVE_KEY);
    });
    if (profile.active) this.notify(this.active());
  }

  activate(id: string): Profile {
    const before = this.activeId();
    this.get(id);
    this.store.transaction((db) => {
      db.prepare('INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(ACTIVE_KEY, JSON.stringify(id));
    });
    const active = this.get(id);
    if (before !== id) this.notify(active);
    return active;
  }

  private notify(active: Profile): void {
    for (const listener of this.listeners) listener(active);
  }

  private assertNameFree(name: string, exceptId?: string): void {
    const row = this.store.db.prepare('SELECT id FROM profiles WHERE name = ? COLLATE NOCASE').get(name) as { id: string } | undefined;
    if (row && row.id !== exceptId) {
      throw new AppError(
        'profile_name_taken',
        { en: `A profile named "${name}" already exists.`, vi: `Đã có cấu hình tên "${name}".` },
        { issues: [{ path: 'name', message: `A profile named "${name}" already exists.`, messageVi: `Đã có cấu hình tên "${name}".` }] },
      );
    }
  }
}

function toProfile(r: Row, activeId: string): Profile {
  return { id: r.id, name: r.name, kind: r.kind, baseUrl: r.base_url, tokenUrl: r.token_url, builtin: r.builtin === 1, active: r.id === activeId };
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name || name.length > 80) {
    const en = 'Profile name: enter a name of 1 to 80 characters.';
    const vi = 'Tên cấu hình: hãy nhập tên từ 1 đến 80 ký tự.';
    throw new AppError('profile_name_invalid', { en, vi }, { issues: [{ path: 'name', message: en, messageVi: vi }] });
  }
  return name;
}

/** Presets fill their own addresses; Custom requires a base URL, the token URL is optional. */
function resolveUrls(
  kind: ProfileInput['kind'],
  baseUrl: string | null | undefined,
  tokenUrl: string | null | undefined,
): { baseUrl: string; tokenUrl: string | null } {
  if (kind === 'test' || kind === 'production') {
    const preset = PRESETS[kind];
    return {
      baseUrl: baseUrl ? checkServiceUrl('baseUrl', baseUrl) : preset.baseUrl,
      tokenUrl: tokenUrl ? checkServiceUrl('tokenUrl', tokenUrl) : preset.tokenUrl,
    };
  }
  if (!baseUrl?.trim()) {
    const en = 'Service address (base URL): required for a Custom profile.';
    const vi = 'Địa chỉ dịch vụ (base URL): bắt buộc với cấu hình Tùy chỉnh.';
    throw new AppError('profile_url_invalid', { en, vi }, { issues: [{ path: 'baseUrl', message: en, messageVi: vi }] });
  }
  return {
    baseUrl: checkServiceUrl('baseUrl', baseUrl),
    tokenUrl: tokenUrl?.trim() ? checkServiceUrl('tokenUrl', tokenUrl) : null,
  };
}
