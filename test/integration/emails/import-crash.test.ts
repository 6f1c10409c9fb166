import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInSession } from '../../../main/services/auth';
import { EmailService } from '../../../main/services/emails';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openDatabase } from '../../../main/services/store';
import { CRASH_SEEDS, seededRandom } from '../../support/crash';
import { makeTempDir } from '../../support/temp-dir';
import { buildOnce, cliEnv, spawnCli } from './cli-support';

let sb: Sandbox;
let tmp: { dir: string; cleanup: () => void };

beforeAll(async () => {
  buildOnce();
  tmp = makeTempDir('einvoice-import-crash-');
  sb = await startSandbox({ port: 0, seed: 5, invoiceCount: 10 });
}, 300_000);
afterAll(async () => {
  await sb?.close();
  tmp?.cleanup();
});

const ROWS = 60_000;
/** Each kill is a whole import of ROWS rows: a few of them show the path. */
const KILLS = Math.min(CRASH_SEEDS, 6);

/** Rows committed so far by the import writing into `file` (0 until its table exists). */
function committed(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM email_outbox').get() as { n: number }).n);
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

describe('kill -9 during a large CSV import (`einvoice email --csv`)', () => {
  it(`keeps the chunks it committed, in file order, and the next start builds the sort indexes it had left out (${KILLS} kills)`, async () => {
    const ids = Array.from({ length: ROWS }, (_, i) => `TX${String(i).padStart(6, '0')}`);
    const csvFile = path.join(tmp.dir, 'year.csv');
    fs.writeFileSync(
      csvFile,
      `TransactionID;ReceiverName;ReceiverEmail\n${ids.map((id, i) => `${id};Khách ${i};k${(i * 7919) % ROWS}@example.com`).join('\n')}\n`,
    );
    let cut = 0;
    for (let seed = 0; seed < KILLS; seed++) {
      const random = seededRandom(7100 + seed);
      const dataDir = path.join(tmp.dir, `data-${seed}`);
      const dbFile = path.join(dataDir, 'einvoice.db');
      const env = cliEnv(dataDir, { EINVOICE_TOKEN: sb.devToken });
      const { child, done } = spawnCli(['email', '--csv', csvFile, '--with-code', '--base-url', sb.baseUrl], env, tmp.dir);
      let exited = false;
      void done.then(() => (exited = true));
      // Killed after its first chunk is in, somewhere in the rest of the file.
      const until = Date.now() + 60_000;
      while (!exited && committed(dbFile) === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, Math.floor(random() * 400)));
      child.kill('SIGKILL');
      await done;

      const store = openDatabase(dataDir);
      try {
        const left = (
          store.db
            .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'index' AND name IN ('email_outbox_by_name', 'email_outbox_by_email')")
            .get() as { n: number }
        ).n;
        if (left < 2) cut++;
        const rows = (store.db.prepare('SELECT transaction_id AS tx FROM email_outbox ORDER BY id').all() as Array<{ tx: string }>).map((r) => r.tx);
        // Whole chunks only, and the file's first rows in its order.
        expect(rows.length).toBeGreaterThan(0);
        expect(rows).toEqual(ids.slice(0, rows.length));
        expect(store.db.prepare("SELECT n FROM email_state_counts WHERE profile_id = 'sandbox' AND state = 'queued'").get()).toEqual({ n: rows.length });

        const emails = new EmailService({
          store,
          activeProfileId: () => 'sandbox',
          gate: { ready: async () => ({ profile: { id: 'sandbox' } }) as unknown as SignedInSession, reportAuthFailure: async () => {} },
        });
        expect(
          (
            store.db
              .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('email_outbox_by_name', 'email_outbox_by_email') ORDER BY name")
              .all() as Array<{ name: string }>
          ).map((r) => r.name),
        ).toEqual(['email_outbox_by_email', 'email_outbox_by_name']);
        const byAddress = emails.list({ sort: 'receiverEmail', dir: 'asc', offset: 0, limit: 50 }).items.map((e) => e.receiverEmail);
        expect(byAddress).toEqual([...byAddress].sort());
        await emails.stop();
      } finally {
        store.close();
      }
    }
    // The kills landed while the indexes were left out (not all before or after the import's writing).
    expect(cut).toBeGreaterThan(0);
  }, 600_000);
});
