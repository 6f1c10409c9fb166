import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../common/errors';
import { migrations, openDatabase, type Migration } from '../../../main/services/store';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-store-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function schema(db: DatabaseSync): string[] {
  return (
    db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as Array<{
      type: string;
      name: string;
      sql: string | null;
    }>
  ).map((r) => `${r.type}:${r.name}:${r.sql ?? ''}`);
}

function caught(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a throw');
}

describe('openDatabase', () => {
  it('creates einvoice.db from empty in WAL mode at the latest version', () => {
    const store = openDatabase(dir);
    try {
      expect(store.path).toBe(path.join(dir, 'einvoice.db'));
      expect(store.version).toBe(migrations.length);
      expect((store.db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
      expect((store.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(migrations.length);
      expect((store.db.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout).toBeGreaterThanOrEqual(1000);
      expect((store.db.prepare('PRAGMA foreign_keys').get() as { foreign_keys: number }).foreign_keys).toBe(1);
      expect(schema(store.db).some((s) => s.startsWith('table:profiles:'))).toBe(true);
    } finally {
      store.close();
    }
  });

  it('migration versions are consecutive from 1', () => {
    migrations.forEach((m, i) => expect(m.version).toBe(i + 1));
  });

  it('upgrades from each earlier version to the same schema as from empty', () => {
    const fresh = openDatabase(path.join(dir, 'fresh'));
    const expected = schema(fresh.db);
    fresh.close();
    for (let k = 0; k <= migrations.length; k++) {
      const sub = path.join(dir, `from-${k}`);
      const old = openDatabase(sub, { migrations: migrations.slice(0, k) });
      expect(old.version).toBe(k);
      old.close();
      const upgraded = openDatabase(sub);
      expect(upgraded.version).toBe(migrations.length);
      expect(schema(upgraded.db)).toEqual(expected);
      upgraded.close();
    }
  });

  it('rewrites a download job error stored as { message, messageVi } into { en, vi } on upgrade', () => {
    const old = openDatabase(dir, { migrations: migrations.slice(0, 6) });
    old.db.prepare("INSERT INTO profiles(id, name, kind, builtin, created_at, updated_at) VALUES ('sandbox', 'Sandbox', 'sandbox', 1, 'x', 'x')").run();
    const insert = old.db.prepare(
      `INSERT INTO download_jobs(id, profile_id, fingerprint, type, with_code, calc, folder, existing, unzip, status, last_error, created_at, updated_at)
       VALUES (?, 'sandbox', 'f', 'Pdf', 1, 0, '/tmp/x', 'skip', 0, 'paused', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    );
    insert.run('old-error', JSON.stringify({ message: 'Authentication failed', messageVi: 'Xác thực thất bại' }));
    insert.run('no-error', null);
    old.close();
    const store = openDatabase(dir);
    const rows = store.db.prepare('SELECT id, last_error FROM download_jobs ORDER BY id').all() as Array<{ id: string; last_error: string | null }>;
    expect(rows.map((r) => [r.id, r.last_error === null ? null : JSON.parse(r.last_error)])).toEqual([
      ['no-error', null],
      ['old-error', { en: 'Authentication failed', vi: 'Xác thực thất bại' }],
    ]);
    store.close();
  });

  it('turns the email outbox and history times into ISO text on upgrade, keeping every row and its history', () => {
    const old = openDatabase(dir, { migrations: migrations.slice(0, 11) });
    old.db.prepare("INSERT INTO profiles(id, name, kind, builtin, created_at, updated_at) VALUES ('sandbox', 'Sandbox', 'sandbox', 1, 'x', 'x')").run();
    const t = Date.parse('2026-11-25T03:04:05.678Z');
    old.db
      .prepare(
        `INSERT INTO email_outbox(id, profile_id, transaction_id, receiver_email, kind, state, next_attempt_at, claimed_at, created_at, updated_at, done_at)
         VALUES (?, 'sandbox', ?, 'a@x.vn', 'withCode', ?, ?, ?, ?, ?, ?)`,
      )
      .run(1, 'TX1', 'sent', 0, null, t, t + 1000, t + 2000);
    old.db
      .prepare(
        `INSERT INTO email_outbox(id, profile_id, transaction_id, receiver_email, kind, state, next_attempt_at, claimed_at, created_at, updated_at, done_at)
         VALUES (?, 'sandbox', ?, 'b@x.vn', 'withCode', ?, ?, ?, ?, ?, ?)`,
      )
      .run(2, 'TX2', 'queued', t + 60_000, null, t, t, null);
    old.db.prepare("INSERT INTO email_attempts(entry_id, state, receiver_email, at) VALUES (1, 'unknown', 'a@x.vn', ?)").run(t - 5000);
    old.close();
    const store = openDatabase(dir);
    const rows = store.db.prepare('SELECT id, next_attempt_at, claimed_at, created_at, updated_at, done_at FROM email_outbox ORDER BY id').all();
    expect(rows).toEqual([
      {
        id: 1,
        next_attempt_at: '',
        claimed_at: null,
        created_at: '2026-11-25T03:04:05.678Z',
        updated_at: '2026-11-25T03:04:06.678Z',
        done_at: '2026-11-25T03:04:07.678Z',
      },
      {
        id: 2,
        next_attempt_at: '2026-11-25T03:05:05.678Z',
        claimed_at: null,
        created_at: '2026-11-25T03:04:05.678Z',
        updated_at: '2026-11-25T03:04:05.678Z',
        done_at: null,
      },
    ]);
    expect(store.db.prepare('SELECT entry_id, at FROM email_attempts').all()).toEqual([{ entry_id: 1, at: '2026-11-25T03:04:00.678Z' }]);
    // The history still belongs to its entry: removing the entry removes its history.
    store.db.prepare('DELETE FROM email_outbox WHERE id = 1').run();
    expect(store.db.prepare('SELECT count(*) AS n FROM email_attempts').get()).toEqual({ n: 0 });
    store.close();
  });

  it('read runs on one snapshot while another process writes, ends it after a throw, and runs inside a transaction as it is', () => {
    const store = openDatabase(dir);
    store.db.exec('CREATE TABLE t(id INTEGER PRIMARY KEY)');
    const other = openDatabase(dir);
    const n = (db: DatabaseSync) => (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    const seen = store.read((db) => {
      const before = n(db);
      other.transaction((o) => o.exec('INSERT INTO t VALUES (1)'));
      return [before, n(db)];
    });
    expect(seen).toEqual([0, 0]);
    expect(store.db.isTransaction).toBe(false);
    expect(n(store.db)).toBe(1);
    expect(() =>
      store.read(() => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.db.isTransaction).toBe(false);
    store.transaction((db) => {
      db.exec('INSERT INTO t VALUES (2)');
      expect(store.read((d) => n(d))).toBe(2);
    });
    expect(n(other.db)).toBe(2);
    expect(() => store.read(() => store.transaction((db) => db.exec('INSERT INTO t VALUES (3)')))).toThrow(/a read must not write/);
    expect(store.db.isTransaction).toBe(false);
    expect(n(store.db)).toBe(2);
    other.close();
    store.close();
  });

  it('a COMMIT that fails ends its transaction: the next write goes through', () => {
    const store = openDatabase(dir);
    store.db.exec('CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(id INTEGER PRIMARY KEY, p INTEGER REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED)');
    expect(() => store.transaction((db) => db.exec('INSERT INTO c VALUES (1, 99)'))).toThrow(/FOREIGN KEY/);
    expect(store.db.isTransaction).toBe(false);
    store.transaction((db) => db.exec('INSERT INTO p VALUES (1)'));
    expect(store.db.prepare('SELECT count(*) AS n FROM p').get()).toEqual({ n: 1 });
    expect(store.db.prepare('SELECT count(*) AS n FROM c').get()).toEqual({ n: 0 });
    store.close();
  });

  it('a transaction the database rolled back by itself (a full disk) is not continued by the next savepoint', () => {
    const store = openDatabase(dir);
    store.db.exec('CREATE TABLE t(id INTEGER PRIMARY KEY)');
    const pieces: unknown[] = [];
    expect(() =>
      store.transaction(() => {
        for (const id of [1, 2]) {
          try {
            store.transaction((db) => {
              db.exec(`INSERT INTO t VALUES (${id})`);
              // What SQLite does on SQLITE_FULL or an I/O error: the whole transaction is gone.
              if (id === 1) {
                db.exec('ROLLBACK');
                throw new Error('database or disk is full');
              }
            });
            pieces.push('ok');
          } catch (error) {
            pieces.push((error as Error).message);
          }
        }
      }),
    ).toThrow();
    expect(pieces[0]).toBe('database or disk is full');
    expect(pieces[1]).toMatch(/rolled back/);
    expect(store.db.isTransaction).toBe(false);
    expect(store.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    store.close();
  });

  it('keeps rows written at an earlier version through the upgrade', () => {
    const old = openDatabase(dir, { migrations: migrations.slice(0, 1) });
    old.db.prepare("INSERT INTO settings(key, value) VALUES ('language', '\"en\"')").run();
    old.close();
    const store = openDatabase(dir);
    expect(store.db.prepare("SELECT value FROM settings WHERE key = 'language'").get()).toEqual({ value: '"en"' });
    store.close();
  });

  it('refuses a database newer than the app and leaves it byte-identical', () => {
    const db = new DatabaseSync(path.join(dir, 'einvoice.db'));
    db.exec('CREATE TABLE future(x); PRAGMA user_version = 999;');
    db.close();
    const before = fs.readFileSync(path.join(dir, 'einvoice.db'));
    const error = caught(() => openDatabase(dir));
    expect(error.code).toBe('store_too_new');
    expect(error.message).toMatch(/newer version/);
    expect(error.messageVi).toMatch(/mới hơn/);
    expect(fs.readFileSync(path.join(dir, 'einvoice.db')).equals(before)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['einvoice.db']);
  });

  it('refuses a garbage file and leaves it byte-identical', () => {
    const garbage = Buffer.from('this is not a database at all\n'.repeat(200));
    fs.writeFileSync(path.join(dir, 'einvoice.db'), garbage);
    const error = caught(() => openDatabase(dir));
    expect(error.code).toBe('store_unreadable');
    expect(error.messageVi).toMatch(/Không đọc được/);
    expect(fs.readFileSync(path.join(dir, 'einvoice.db')).equals(garbage)).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['einvoice.db']);
  });

  it('refuses a file with a valid header but damaged pages, untouched', () => {
    const db = new DatabaseSync(path.join(dir, 'einvoice.db'));
    db.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1);');
    db.close();
    const bytes = fs.readFileSync(path.join(dir, 'einvoice.db'));
    bytes.fill(0xab, 100); // keep the 100-byte header, wreck page 1's b-tree and the rest
    fs.writeFileSync(path.join(dir, 'einvoice.db'), bytes);
    const error = caught(() => openDatabase(dir));
    expect(error.code).toBe('store_unreadable');
    expect(fs.readFileSync(path.join(dir, 'einvoice.db')).equals(bytes)).toBe(true);
  });

  it('a failing migration rolls back every step of that run', () => {
    const broken: Migration[] = [
      ...migrations,
      { version: migrations.length + 1, name: 'good', up: (db) => db.exec('CREATE TABLE extra_ok(x)') },
      { version: migrations.length + 2, name: 'bad', up: (db) => db.exec('CREATE TABLE profiles(x)') },
    ];
    openDatabase(dir).close();
    const error = caught(() => openDatabase(dir, { migrations: broken }));
    expect(error.code).toBe('store_migration_failed');
    const store = openDatabase(dir);
    expect(store.version).toBe(migrations.length);
    expect(schema(store.db).some((s) => s.includes('extra_ok'))).toBe(false);
    store.close();
  });

  it('rejects a migrations list with a gap', () => {
    expect(() => openDatabase(dir, { migrations: [{ version: 2, name: 'x', up: () => {} }] })).toThrow(/expected 1/);
  });
});

describe('store.transaction', () => {
  it('commits, rolls back on throw, and nests as savepoints', () => {
    const store = openDatabase(dir);
    const put = (k: string) => store.db.prepare("INSERT INTO settings(key, value) VALUES (?, '1')").run(k);
    store.transaction(() => put('a'));
    expect(() =>
      store.transaction(() => {
        put('b');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    store.transaction(() => {
      put('c');
      expect(() =>
        store.transaction(() => {
          put('d');
          throw new Error('inner');
        }),
      ).toThrow('inner');
      put('e');
    });
    const keys = (store.db.prepare('SELECT key FROM settings ORDER BY key').all() as Array<{ key: string }>).map((r) => r.key);
    expect(keys).toEqual(['a', 'c', 'e']);
    expect(store.db.isTransaction).toBe(false);
    store.close();
  });

  it('refuses an async callback and rolls back', () => {
    const store = openDatabase(dir);
    expect(() =>
      store.transaction(async () => {
        store.db.prepare("INSERT INTO settings(key, value) VALUES ('z', '1')").run();
      }),
    ).toThrow(/synchronous/);
    expect(store.db.prepare("SELECT count(*) AS n FROM settings WHERE key = 'z'").get()).toEqual({ n: 0 });
    store.close();
  });
});
