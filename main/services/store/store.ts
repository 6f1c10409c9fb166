import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { AppError } from '../../../common/errors';
import { migrations as defaultMigrations, type Migration } from './migrations';

export const DATABASE_FILE_NAME = 'einvoice.db';
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface OpenDatabaseOptions {
  /** Defaults to the one ordered list in `migrations.ts`. Tests pass a prefix of it. */
  migrations?: readonly Migration[];
  /** How long a write waits for the other process (app or CLI) to finish (ms). */
  busyTimeoutMs?: number;
  fileName?: string;
}

/** The one database of the app: `einvoice.db` in the data folder, shared by the app and the CLI. */
export interface Store {
  readonly db: DatabaseSync;
  readonly path: string;
  /** The schema version the file is at (the last migration applied). */
  readonly version: number;
  /**
   * Runs `fn` in a write transaction started with BEGIN IMMEDIATE (the write lock is taken up
   * front, waiting up to the busy timeout, so two processes never fail half-way with
   * SQLITE_BUSY). Nested calls become savepoints. `fn` must be synchronous.
   */
  transaction<T>(fn: (db: DatabaseSync) => T): T;
  /**
   * Runs `fn` on one snapshot of the database (a read transaction): its statements agree with one
   * another even while another process writes. Inside a transaction, `fn` simply runs in it.
   * `fn` must not write (a `transaction` inside it throws).
   */
  read<T>(fn: (db: DatabaseSync) => T): T;
  close(): void;
}

function unreadable(file: string, cause?: unknown): AppError {
  return new AppError(
    'store_unreadable',
    {
      en: `The database file ${file} cannot be read: it is damaged or is not an eInvoice Desk database. It has been left untouched; move it away (or restore a backup) and start again.`,
      vi: `Không đọc được tệp cơ sở dữ liệu ${file}: tệp bị hỏng hoặc không phải cơ sở dữ liệu của eInvoice Desk. Tệp được giữ nguyên; hãy chuyển tệp đi nơi khác (hoặc khôi phục bản sao lưu) rồi khởi động lại.`,
    },
    cause === undefined ? {} : { cause },
  );
}

function tooNew(file: string, found: number, known: number): AppError {
  return new AppError('store_too_new', {
    en: `The database ${file} was written by a newer version of eInvoice Desk (schema ${found}; this version knows up to ${known}). It has been left untouched; please update the app.`,
    vi: `Cơ sở dữ liệu ${file} được tạo bởi phiên bản eInvoice Desk mới hơn (lược đồ ${found}; phiên bản này chỉ biết đến ${known}). Tệp được giữ nguyên; vui lòng cập nhật ứng dụng.`,
  });
}

/** Checks the list is 1..n with no gaps, so a bad append fails loudly in tests. */
export function checkMigrations(list: readonly Migration[]): number {
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration #${i} has version ${m.version}; expected ${i + 1}`);
  });
  return list.length;
}

/**
 * Reads the header of an existing file without opening it through SQLite (which could write a
 * journal): refuses a file that is not a SQLite database or whose schema is newer than we know.
 */
function inspectHeader(file: string, latest: number): void {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw unreadable(file, error);
  }
  try {
    const header = Buffer.alloc(100);
    const read = fs.readSync(fd, header, 0, 100, 0);
    if (read === 0) return; // an empty file is a new database
    if (read < 100 || !header.subarray(0, 16).equals(SQLITE_MAGIC)) throw unreadable(file);
    const version = header.readInt32BE(60);
    if (version > latest) throw tooNew(file, version, latest);
  } finally {
    fs.closeSync(fd);
  }
}

function userVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

/**
 * Opens (creating if needed) `<dataDir>/einvoice.db` in WAL mode and brings its schema up to
 * date inside one immediate transaction. A file that is unreadable or newer than this app is
 * refused with an AppError and left byte-for-byte untouched.
 */
export function openDatabase(dataDir: string, options: OpenDatabaseOptions = {}): Store {
  const list = options.migrations ?? defaultMigrations;
  const latest = checkMigrations(list);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, options.fileName ?? DATABASE_FILE_NAME);

  inspectHeader(file, latest);

  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  let version: number;
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 15_000))}`);
    // Reading the schema proves the file is a database we can parse, before anything is written.
    db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
    version = userVersion(db);
  } catch (error) {
    db.close();
    throw unreadable(file, error);
  }
  if (version > latest) {
    db.close();
    throw tooNew(file, version, latest);
  }

  try {
    const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string } | undefined;
    if (mode?.journal_mode !== 'wal') throw new Error(`journal_mode is ${String(mode?.journal_mode)}`);
    // FULL: a commit (a claimed and armed batch, a download job's progress) survives a power cut.
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    // A page cache of up to 32 MB (the default is 2 MB): the indexes of a 100 000-row email queue
    // stay in memory while an import adds to them, instead of being read again page by page.
    db.exec('PRAGMA cache_size = -32768');
  } catch (error) {
    db.close();
    throw unreadable(file, error);
  }

  let depth = 0;
  const transaction = <T>(fn: (db: DatabaseSync) => T): T => {
    const savepoint = `sp_${depth}`;
    // SQLite rolls a whole transaction back by itself on a full disk or an I/O error; a savepoint
    // opened then would start (and its RELEASE commit) a transaction of its own.
    if (depth > 0 && !db.isTransaction) throw new Error('The enclosing transaction was rolled back by the database; nothing of it was written.');
    if (depth === 0 && db.isTransaction) throw new Error('store.transaction(fn) inside store.read(fn): a read must not write.');
    db.exec(depth === 0 ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`);
    depth++;
    const undo = () => {
      if (depth === 0) {
        if (db.isTransaction) db.exec('ROLLBACK');
      } else if (db.isTransaction) {
        db.exec(`ROLLBACK TO ${savepoint}`);
        db.exec(`RELEASE ${savepoint}`);
      }
    };
    let result: T;
    try {
      result = fn(db);
      if (result instanceof Promise) throw new Error('store.transaction(fn): fn must be synchronous');
    } catch (error) {
      depth--;
      undo();
      throw error;
    }
    depth--;
    try {
      db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
    } catch (error) {
      // A COMMIT that fails (a deferred constraint, a full disk) leaves the transaction open: end it.
      undo();
      throw error;
    }
    return result;
  };

  const read = <T>(fn: (db: DatabaseSync) => T): T => {
    if (db.isTransaction) return fn(db);
    db.exec('BEGIN');
    let result: T;
    try {
      result = fn(db);
      if (result instanceof Promise) throw new Error('store.read(fn): fn must be synchronous');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
    return result;
  };

  try {
    version = migrate(db, list, transaction, file, latest);
  } catch (error) {
    db.close();
    throw error;
  }

  return {
    db,
    path: file,
    get version() {
      return version;
    },
    transaction,
    read,
    close() {
      if (db.isOpen) db.close();
    },
  };
}

function migrate(db: DatabaseSync, list: readonly Migration[], transaction: <T>(fn: (db: DatabaseSync) => T) => T, file: string, latest: number): number {
  if (userVersion(db) === latest) return latest;
  return transaction(() => {
    // Re-read under the write lock: the other process may have migrated meanwhile.
    const current = userVersion(db);
    if (current > latest) throw tooNew(file, current, latest);
    for (const migration of list) {
      if (migration.version <= current) continue;
      try {
        migration.up(db);
      } catch (error) {
        throw new AppError(
          'store_migration_failed',
          {
            en: `The database could not be upgraded (step ${migration.version}: ${migration.name}). Nothing was changed.`,
            vi: `Không nâng cấp được cơ sở dữ liệu (bước ${migration.version}: ${migration.name}). Dữ liệu chưa bị thay đổi.`,
          },
          { cause: error },
        );
      }
    }
    db.exec(`PRAGMA user_version = ${latest}`);
    return latest;
  });
}
