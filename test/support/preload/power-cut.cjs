// A power cut keeps what reached the disk (was fsync'd) and may drop every write that did not.
// Node cannot watch SQLite's fsync calls, so this relies on SQLite's documented contract for WAL
// mode: with synchronous=FULL (or EXTRA) the WAL is synced before each COMMIT returns; with NORMAL a
// commit is synced only by a later checkpoint, so none is promised to survive.
//
// Loaded into a spawned CLI with NODE_OPTIONS=--require (tests only; nothing in the product reads
// it): with EINVOICE_TEST_DURABLE_COPY=<folder>, right after every commit of a connection running
// FULL or EXTRA (an explicit COMMIT or a statement in autocommit mode that changed rows) it copies
// the database file and its WAL into <folder>/gen-<n>: that copy is what the disk is known to hold.
// Under NORMAL it copies nothing. After a SIGKILL, `cutPower` throws the live files away and puts
// back the newest copy, so every write not synced by then is lost — at least as much as a real
// power cut could lose; a real disk may keep more, never less.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const FILES = (db) => [db, `${db}-wal`];

/** Copies the database and its WAL as the next generation in `folder` (atomic: a kill mid-copy leaves the previous one). */
function snapshot(dbFile, folder) {
  fs.mkdirSync(folder, { recursive: true });
  const gens = generations(folder);
  const next = (gens.at(-1) ?? 0) + 1;
  const tmp = path.join(folder, `gen-${next}.tmp`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp);
  for (const f of FILES(dbFile)) if (fs.existsSync(f)) fs.copyFileSync(f, path.join(tmp, path.basename(f)));
  fs.renameSync(tmp, path.join(folder, `gen-${next}`));
  for (const g of gens) fs.rmSync(path.join(folder, `gen-${g}`), { recursive: true, force: true });
  return next;
}

function generations(folder) {
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .map((n) => /^gen-(\d+)$/.exec(n))
    .filter(Boolean)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

/** The power cut, after the writer was killed: the database is what the newest copy holds; the shared-memory index is rebuilt. */
function cutPower(dbFile, folder) {
  const gen = generations(folder).at(-1);
  if (gen === undefined) throw new Error(`no durable copy in ${folder}`);
  const from = path.join(folder, `gen-${gen}`);
  for (const f of [...FILES(dbFile), `${dbFile}-shm`]) fs.rmSync(f, { force: true });
  for (const f of FILES(dbFile)) {
    const copy = path.join(from, path.basename(f));
    if (fs.existsSync(copy)) fs.copyFileSync(copy, f);
  }
  return gen;
}

module.exports = { snapshot, cutPower };

const folder = process.env.EINVOICE_TEST_DURABLE_COPY;
if (folder) {
  const { DatabaseSync, StatementSync } = require('node:sqlite');
  const owner = new WeakMap(); // statement → its connection
  const seen = new WeakMap(); // connection → { changes, synced }
  const prepare = DatabaseSync.prototype.prepare;
  const state = (db) => {
    let s = seen.get(db);
    if (!s) {
      const level = Number(Object.values(prepare.call(db, 'PRAGMA synchronous').get())[0]);
      s = { changes: 0, synced: level >= 2, total: prepare.call(db, 'SELECT total_changes() AS n') };
      seen.set(db, s);
    }
    return s;
  };
  /** After a call on `db`: a commit that changed rows is on the disk now (FULL), so copy what the disk holds. */
  const afterCall = (db) => {
    if (!db.isOpen || db.isTransaction) return;
    const s = state(db);
    const changes = s.total.get().n;
    if (changes === s.changes) return;
    s.changes = changes;
    if (s.synced) snapshot(db.location(), folder);
  };
  const exec = DatabaseSync.prototype.exec;
  DatabaseSync.prototype.exec = function (sql) {
    const r = exec.call(this, sql);
    // The synchronous level is read once the connection is set up (openDatabase sets it after opening).
    if (/^\s*PRAGMA\s+synchronous\s*=/i.test(sql)) seen.delete(this);
    else afterCall(this);
    return r;
  };
  DatabaseSync.prototype.prepare = function (sql) {
    const st = prepare.call(this, sql);
    owner.set(st, this);
    return st;
  };
  for (const name of ['run', 'get', 'all']) {
    const original = StatementSync.prototype[name];
    StatementSync.prototype[name] = function (...args) {
      const r = original.apply(this, args);
      const db = owner.get(this);
      if (db) afterCall(db);
      return r;
    };
  }
}
