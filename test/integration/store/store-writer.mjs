// Child process for the two-process test: opens the same database and writes in a loop, each
// write its own immediate transaction, exactly as the CLI would while the app is running.
import { DatabaseSync } from 'node:sqlite';
const [file, countArg, tag] = process.argv.slice(2);
const db = new DatabaseSync(file);
db.exec('PRAGMA busy_timeout = 15000');
const insert = db.prepare('INSERT INTO settings(key, value) VALUES (?, ?)');
let errors = 0;
const pause = new Int32Array(new SharedArrayBuffer(4));
// Hold the write lock for a moment inside each transaction so the two processes really collide.
const hold = () => Atomics.wait(pause, 0, 0, 1);
for (let i = 0; i < Number(countArg); i++) {
  try {
    db.exec('BEGIN IMMEDIATE');
    insert.run(`${tag}-${i}`, JSON.stringify({ i, pid: process.pid }));
    hold();
    db.exec('COMMIT');
    hold();
  } catch (error) {
    errors++;
    console.error(String(error));
    try {
      db.exec('ROLLBACK');
    } catch {
      /* not in a transaction */
    }
  }
}
db.close();
process.stdout.write(JSON.stringify({ errors }));
process.exit(errors === 0 ? 0 : 1);
