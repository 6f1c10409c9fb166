import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DownloadsService } from '../../../main/services/downloads';
import { TEMP_PREFIX } from '../../../main/services/downloads/names';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';
import { ScriptedClient } from './scripted-client';

const temps: Array<() => void> = [];
const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const c of temps.splice(0)) c();
});

const body = (id: string) => `<Invoice>${id}</Invoice>`;

/** A downloads service on a fresh store whose client answers every ID with its XML, and a job of `count` IDs. */
async function jobOf(count: number, engine: { batchSize: number; concurrency: number }) {
  const tmp = makeTempDir('einvoice-dl-recovery-');
  temps.push(tmp.cleanup);
  const store = openDatabase(path.join(tmp.dir, 'data'));
  stores.push(store);
  const profileId = new ProfileService(store).activeId();
  const client = new ScriptedClient((ids) => ({
    kind: 'items',
    envelopeSuccess: true,
    items: ids.map((id) => ({ transactionId: id, content: body(id), errorCode: null, link: null })),
  }));
  const service = new DownloadsService({
    store,
    activeProfileId: () => profileId,
    session: async () => ({ profileId, client }),
    engine: { durable: false, ...engine },
  });
  const out = path.join(tmp.dir, 'out');
  const ids = Array.from({ length: count }, (_, i) => `ID-${String(i).padStart(count > 1000 ? 4 : 3, '0')}`);
  const { job } = await service.create({ ids, type: 'Xml', folder: out }, profileId);
  return { store, client, service, out, ids, job };
}

it('a job left with placing items: complete temp files are placed without asking again, the others are asked once more wherever the reading position is', async () => {
  const { store, client, service, out, ids, job } = await jobOf(120, { batchSize: 10, concurrency: 2 });

  // As a kill leaves it: 10–99 saved; 0–4 placing with their temp file complete; 5–9 and 100–104
  // placing with nothing written (sent back to pending: 5–9 behind the reading position, 100–104 ahead).
  const set = store.db.prepare('UPDATE download_items SET status = ?, file = ?, attempts = 1 WHERE job_id = ? AND seq = ?');
  const temp = (seq: number) => path.join(out, `${TEMP_PREFIX}${job.id.slice(0, 8)}-${seq}`);
  for (let seq = 0; seq < 105; seq++) {
    const name = `${ids[seq]}.xml`;
    if (seq >= 10 && seq < 100) {
      set.run('saved', name, job.id, seq);
      fs.writeFileSync(path.join(out, name), body(ids[seq]!));
    } else {
      set.run('placing', name, job.id, seq);
      if (seq < 5) fs.writeFileSync(temp(seq), body(ids[seq]!));
    }
  }
  fs.writeFileSync(temp(200), 'a leftover of an aborted write');

  service.start(job.id);
  const view = await service.whenDone(job.id);
  expect(view).toMatchObject({ status: 'done', saved: 120, failed: 0, skipped: 0 });
  const asked = client.calls.flat();
  expect(asked.sort()).toEqual([...ids.slice(5, 10), ...ids.slice(100)].sort()); // each once, none of the placed ones
  const files = fs.readdirSync(out).sort();
  expect(files).toEqual(ids.map((id) => `${id}.xml`).sort()); // no temp file left
  for (const id of ids) expect(fs.readFileSync(path.join(out, `${id}.xml`), 'utf8')).toBe(body(id));
  const row = service.repo.get(job.id)!.counts;
  expect(row).toMatchObject({ total: 120, pending: 0, placing: 0, saved: 120 });
  // An attempt is counted once per fetch: the placed ones were fetched once, the ones sent back twice.
  const attempts = store.db.prepare('SELECT seq, attempts FROM download_items WHERE job_id = ? ORDER BY seq').all(job.id) as Array<{
    seq: number;
    attempts: number;
  }>;
  const fetchedTwice = (seq: number) => (seq >= 5 && seq < 10) || (seq >= 100 && seq < 105);
  expect(attempts.filter((a) => a.attempts !== (fetchedTwice(a.seq) ? 2 : 1))).toEqual([]);
  await service.close();
});

it('more placing items than one recovery page, sent back while the workers read: each asked once', async () => {
  const { store, client, service, out, ids, job } = await jobOf(1600, { batchSize: 50, concurrency: 4 });
  // A kill with every other item placing and nothing written (800: two recovery pages), the others
  // pending: the workers read pending items while recovery sends the placing ones back page by page.
  store.db.prepare("UPDATE download_items SET status = 'placing', file = 'ID-' || printf('%04d', seq) || '.xml' WHERE job_id = ? AND seq % 2 = 0").run(job.id);

  service.start(job.id);
  const view = await service.whenDone(job.id);
  expect(view).toMatchObject({ status: 'done', saved: 1600, failed: 0 });
  const asked = client.calls.flat();
  expect(asked.length).toBe(1600);
  expect(new Set(asked).size).toBe(1600);
  expect(fs.readdirSync(out).sort()).toEqual(ids.map((id) => `${id}.xml`));
  await service.close();
});

it('the fetch is counted when the names are recorded, so a crash before the rename leaves one attempt, not none', async () => {
  const { store, service, job } = await jobOf(30, { batchSize: 10, concurrency: 1 });
  const record = service.repo.record.bind(service.repo);
  const atPlacing: number[] = [];
  service.repo.record = (jobId, outcomes) => {
    record(jobId, outcomes);
    const placing = outcomes.filter((o) => o.status === 'placing').map((o) => o.seq);
    if (placing.length === 0) return;
    const rows = store.db
      .prepare('SELECT attempts FROM download_items WHERE job_id = ? AND seq IN (SELECT value FROM json_each(?))')
      .all(jobId, JSON.stringify(placing));
    atPlacing.push(...rows.map((r) => Number(r.attempts)));
  };
  service.start(job.id);
  expect(await service.whenDone(job.id)).toMatchObject({ status: 'done', saved: 30 });
  expect(atPlacing).toEqual(Array.from({ length: 30 }, () => 1));
  const after = store.db.prepare('SELECT attempts FROM download_items WHERE job_id = ?').all(job.id);
  expect(after.map((r) => Number(r.attempts))).toEqual(Array.from({ length: 30 }, () => 1));
  await service.close();
});

it('a batch that fails after its names were recorded is failed with its one attempt, not two', async () => {
  const { store, service, job } = await jobOf(20, { batchSize: 10, concurrency: 1 });
  const record = service.repo.record.bind(service.repo);
  let refused = false;
  service.repo.record = (jobId, outcomes) => {
    // The first batch's final commit is refused, as a full disk would refuse it.
    if (!refused && outcomes.some((o) => o.status === 'saved')) {
      refused = true;
      throw new Error('disk full');
    }
    record(jobId, outcomes);
  };
  service.start(job.id);
  expect(await service.whenDone(job.id)).toMatchObject({ saved: 10, failed: 10 });
  const rows = store.db.prepare('SELECT status, attempts FROM download_items WHERE job_id = ? ORDER BY seq').all(job.id);
  expect(rows.map((r) => `${String(r.status)}:${Number(r.attempts)}`)).toEqual([...Array(10).fill('failed:1'), ...Array(10).fill('saved:1')]);
  await service.close();
});
