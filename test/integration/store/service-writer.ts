// Bundled by the two-process test and run as a separate process: the real store and settings
// service (what the CLI runs), writing in a loop while the test process writes too.
import { SettingsService } from '../../../main/services/settings/settings';
import { openDatabase } from '../../../main/services/store';

const [dataDir, countArg] = process.argv.slice(2) as [string, string];
const store = openDatabase(dataDir);
const settings = new SettingsService(store);
const pause = new Int32Array(new SharedArrayBuffer(4));
let errors = 0;
for (let i = 0; i < Number(countArg); i++) {
  try {
    settings.update({ batchSizes: { email: (i % 100) + 1 } });
    store.transaction((db) => {
      db.prepare('INSERT INTO settings(key, value) VALUES (?, ?)').run(`cli-${i}`, '{}');
      Atomics.wait(pause, 0, 0, 1); // hold the write lock a moment
    });
  } catch (error) {
    errors++;
    process.stderr.write(`${String(error)}\n`);
  }
  Atomics.wait(pause, 0, 0, 1);
}
store.close();
process.stdout.write(JSON.stringify({ errors }));
process.exit(errors === 0 ? 0 : 1);
