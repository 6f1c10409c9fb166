import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { EventBus } from '../../../common/ipc/bus';
import { ApiClient } from '../../../main/services/api';
import { DownloadsService, type DownloadClient, type DownloadsDeps } from '../../../main/services/downloads';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { makeTempDir } from '../../support/temp-dir';

/** Observes which IDs the engine asked for (wraps the real HTTP client; no mocking). */
export class CountingClient implements DownloadClient {
  readonly requested: string[][] = [];
  constructor(readonly inner: ApiClient) {}
  download(...args: Parameters<ApiClient['download']>) {
    this.requested.push([...args[0]]);
    return this.inner.download(...args);
  }
  fetchBytes(link: string, opts?: { signal?: AbortSignal }) {
    return this.inner.fetchBytes(link, opts);
  }
  idsRequested(): string[] {
    return this.requested.flat();
  }
}

export interface Harness {
  dir: string;
  out: string;
  store: Store;
  bus: EventBus;
  client: CountingClient;
  service: DownloadsService;
  profileId: string;
  close(): Promise<void>;
}

export function clientFor(sandbox: Sandbox, extra: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}): ApiClient {
  return new ApiClient({ baseUrl: sandbox.baseUrl, token: sandbox.devToken, retry: { baseDelayMs: 20, maxDelayMs: 200 }, timeoutMs: 10_000, ...extra });
}

export function harness(sandbox: Sandbox, deps: Partial<DownloadsDeps> = {}, dataDir?: string): Harness {
  const tmp = dataDir ? { dir: dataDir, cleanup: () => {} } : makeTempDir('einvoice-dl-');
  const store = openDatabase(tmp.dir);
  const profileId = new ProfileService(store).activeId();
  const bus = new EventBus();
  const client = new CountingClient(clientFor(sandbox));
  const out = path.join(tmp.dir, 'out');
  const service = new DownloadsService({
    store,
    bus,
    activeProfileId: () => profileId,
    session: async () => ({ profileId, client }),
    engine: { retryDelayMs: 50 },
    ...deps,
  });
  return {
    dir: tmp.dir,
    out,
    store,
    bus,
    client,
    service,
    profileId,
    async close() {
      await service.close();
      await client.inner.close();
      store.close();
      if (!dataDir) tmp.cleanup();
    },
  };
}

/** Every file under `dir` (relative paths), temp names included. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The job's item counts straight from its items (what the counters on the job row must equal). */
export function countItems(
  store: Store,
  jobId: string,
): { total: number; pending: number; placing: number; saved: number; skipped: number; failed: number; bytes: number } {
  const c = { total: 0, pending: 0, placing: 0, saved: 0, skipped: 0, failed: 0, bytes: 0 };
  const rows = store.db
    .prepare('SELECT status, count(*) AS n, coalesce(sum(bytes), 0) AS b FROM download_items WHERE job_id = ? GROUP BY status')
    .all(jobId) as Array<{
    status: 'pending' | 'placing' | 'saved' | 'skipped' | 'failed';
    n: number;
    b: number;
  }>;
  for (const r of rows) {
    c[r.status] = r.n;
    c.total += r.n;
    c.bytes += r.b;
  }
  return c;
}

export type CliDone = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** Runs the built CLI (`out/main/cli.cjs`) as its own process; `done` resolves when it exits. */
export function runCli(cli: string, args: string[], env: Record<string, string>): { child: ChildProcess; done: Promise<CliDone> } {
  const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<CliDone>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}

/** The built CLI the process tests run. */
export const BUILT_CLI = path.resolve(__dirname, '../../../out/main/cli.cjs');

/** A sandbox for the tests of one file that run the built CLI (refused when it is not built). */
export function sandboxForBuiltCli(seed: number): () => Sandbox {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    if (!fs.existsSync(BUILT_CLI)) throw new Error('build first: node scripts/build.mjs --quiet');
    sandbox = await startSandbox({ port: 0, invoiceCount: 1800, seed });
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => sandbox!;
}

/** The first `count` issued-with-code IDs of the sandbox, written one a line to `<dir>/ids.txt`. */
export function writeIdsFile(sandbox: Sandbox, dir: string, count: number): { ids: string[]; idsFile: string } {
  const ids = sandbox.catalogue.list('withCode').slice(0, count);
  if (ids.length !== count) throw new Error(`the sandbox has ${ids.length} such invoices, not ${count}`);
  const idsFile = path.join(dir, 'ids.txt');
  fs.writeFileSync(idsFile, ids.join('\n') + '\n');
  return { ids, idsFile };
}
