import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase } from '../../../main/services/store';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-2proc-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('two processes write to the same database at once without "database is locked"', async () => {
  const store = openDatabase(dir);
  const N = 400;
  const child = spawn(process.execPath, [path.join(__dirname, 'store-writer.mjs'), store.path, String(N), 'child'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

  // Write from this process in a loop for as long as the child writes (and at least N times),
  // yielding between writes so both really interleave; each transaction holds the lock a moment.
  const insert = store.db.prepare('INSERT INTO settings(key, value) VALUES (?, ?)');
  let mine = 0;
  let childDone = false;
  void exited.then(() => (childDone = true));
  let overlapped = 0;
  while (mine < N || !childDone) {
    store.transaction(() => {
      insert.run(`parent-${mine}`, '{}');
      for (let k = 0; k < 20; k++) store.db.prepare('SELECT count(*) FROM settings').get();
    });
    mine++;
    if (!childDone && (store.db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'child-%'").get() as { n: number }).n > 0) overlapped++;
    await new Promise((r) => setImmediate(r));
  }
  const code = await exited;
  expect(err.includes('locked')).toBe(false);
  expect(err).toBe('');
  expect(JSON.parse(out)).toEqual({ errors: 0 });
  expect(code).toBe(0);
  // The two really wrote at the same time: this process committed while the child was mid-run.
  expect(overlapped).toBeGreaterThan(10);
  expect(store.db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'child-%'").get()).toEqual({ n: N });
  expect(store.db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'parent-%'").get()).toEqual({ n: mine });
  store.close();
}, 60_000);

it("two connections opening the same file agree on the migrated schema and see each other's writes", () => {
  const a = openDatabase(dir);
  const b = openDatabase(dir);
  expect(a.version).toBe(b.version);
  a.transaction((db) => db.prepare("INSERT INTO settings(key, value) VALUES ('x', '1')").run());
  expect(b.db.prepare("SELECT value FROM settings WHERE key = 'x'").get()).toEqual({ value: '1' });
  a.close();
  b.close();
});

it("the app's services and a CLI process (real store + settings service in both) write at once", async () => {
  const { build } = await import('esbuild');
  const bundle = path.join(dir, 'service-writer.cjs');
  await build({ entryPoints: [path.join(__dirname, 'service-writer.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'error' });
  const { ProfileService } = await import('../../../main/services/profiles');
  const { SettingsService } = await import('../../../main/services/settings/settings');
  const dataDir = path.join(dir, 'data');
  const store = openDatabase(dataDir);
  const profiles = new ProfileService(store);
  const settings = new SettingsService(store);
  const N = 300;
  const child = spawn(process.execPath, [bundle, dataDir, String(N)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let childDone = false;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => ((childDone = true), resolve(code))));
  let mine = 0;
  let overlapped = 0;
  while (!childDone || mine < 50) {
    profiles.add({ name: `Shop ${mine}`, kind: 'custom', baseUrl: `https://shop${mine}.example.vn/invoice` });
    settings.update({ batchSizes: { download: (mine % 50) + 1 } });
    mine++;
    if (!childDone && (store.db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'cli-%'").get() as { n: number }).n > 0) overlapped++;
    await new Promise((r) => setTimeout(r, 1));
  }
  expect(await exited).toBe(0);
  expect(err).toBe('');
  expect(JSON.parse(out)).toEqual({ errors: 0 });
  expect(overlapped).toBeGreaterThan(10);
  expect(store.db.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'cli-%'").get()).toEqual({ n: N });
  expect(profiles.list()).toHaveLength(mine + 1);
  store.close();
}, 60_000);
