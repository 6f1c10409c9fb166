import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../common/errors';
import type { DownloadOptions } from '../../../main/services/api';
import type { DownloadResult } from '../../../main/services/api/normalise';
import { DownloadsService, type DownloadClient, type DownloadSession } from '../../../main/services/downloads';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

/** A client whose answers wait until released, so a job stays running. */
class HeldClient implements DownloadClient {
  calls = 0;
  private release!: () => void;
  readonly released = new Promise<void>((r) => (this.release = r));
  async download(ids: readonly string[], _opts?: DownloadOptions): Promise<DownloadResult> {
    this.calls++;
    await this.released;
    return {
      kind: 'items',
      envelopeSuccess: true,
      items: ids.map((id) => ({ transactionId: id, content: new TextEncoder().encode(id), errorCode: null, link: null })),
    };
  }
  async fetchBytes(): Promise<never> {
    throw new Error('no links');
  }
  go(): void {
    this.release();
  }
}

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const tmp = makeTempDir('einvoice-dl-owner-');
  cleanups.push(tmp.cleanup);
  const dataDir = path.join(tmp.dir, 'data');
  const open = (session: (signal: AbortSignal) => Promise<DownloadSession>) => {
    const store: Store = openDatabase(dataDir);
    const profileId = new ProfileService(store).activeId();
    const service = new DownloadsService({ store, activeProfileId: () => profileId, session: (_p, signal) => session(signal), engine: { durable: false } });
    cleanups.push(async () => {
      await service.close();
      store.close();
    });
    return { service, profileId };
  };
  return { open, out: path.join(tmp.dir, 'out') };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
  return undefined;
}

describe('one owner per job', () => {
  it('a second window cannot start, pause, cancel or resume a job another live one runs; it can once that one has closed', async () => {
    const { open, out } = setup();
    const held = new HeldClient();
    const a = open(async () => ({ profileId: '', client: held }));
    const idle = new HeldClient();
    const b = open(async () => ({ profileId: '', client: idle }));
    const { job } = await a.service.create({ ids: ['A1', 'A2'], type: 'Pdf', folder: out });
    a.service.start(job.id);
    await new Promise((r) => setTimeout(r, 20));
    expect(held.calls).toBe(1);

    expect(codeOf(() => b.service.start(job.id))).toBe('download_running_elsewhere');
    await expect(b.service.pause(job.id)).rejects.toMatchObject({ code: 'download_running_elsewhere', messageVi: expect.stringMatching(/cửa sổ khác/) });
    await expect(b.service.cancel(job.id)).rejects.toMatchObject({ code: 'download_running_elsewhere' });
    expect(b.service.resumeInterrupted()).toEqual([]);
    expect(idle.calls).toBe(0);

    held.go();
    await a.service.whenDone(job.id);
    expect(b.service.view(job.id)).toMatchObject({ status: 'done', saved: 2 });
    expect(b.service.repo.get(job.id)!.owner).toBeNull();
    await b.service.remove(job.id); // no owner any more: allowed
  });

  it('a job left running by a window that is gone (its owner no longer exists) is taken over', async () => {
    const { open, out } = setup();
    const held = new HeldClient();
    const a = open(async () => ({ profileId: '', client: held }));
    const { job } = await a.service.create({ ids: ['B1'], type: 'Pdf', folder: out });
    a.service.start(job.id);
    await new Promise((r) => setTimeout(r, 20));
    // What a killed process leaves behind: the row names an owner whose process does not exist.
    a.service.repo['store'].db.prepare("UPDATE download_jobs SET owner = '999999999:gone' WHERE id = ?").run(job.id);
    const fresh = new HeldClient();
    fresh.go();
    const b = open(async () => ({ profileId: '', client: fresh }));
    expect(b.service.resumeInterrupted()).toEqual([job.id]);
    expect(await b.service.whenDone(job.id)).toMatchObject({ status: 'done', saved: 1 });
    // The first window lost the job: whatever it still had in flight records nothing.
    held.go();
    await a.service.whenDone(job.id);
    expect(b.service.repo.page(job.id, 0, 10).items[0]).toMatchObject({ state: 'saved', bytes: 2 });
  });

  it('a job is not continued against another service address than the one it was created for', async () => {
    const { open, out } = setup();
    const client = new HeldClient();
    client.go();
    let baseUrl = 'http://127.0.0.1:8101/api';
    const a = open(async () => ({ profileId: '', baseUrl, client }));
    const { job } = await a.service.createOrResume({ ids: ['C1', 'C2'], type: 'Pdf', folder: out }, undefined, 'scope', baseUrl);
    baseUrl = 'http://127.0.0.1:9999/api';
    a.service.start(job.id);
    const view = await a.service.whenDone(job.id);
    expect(client.calls).toBe(0);
    expect(view.status).toBe('paused');
    expect(view.lastError?.en).toMatch(/created for the service at http:\/\/127\.0\.0\.1:8101\/api.*not continued against another service/);
    expect(view.lastError?.vi).toMatch(/Không tiếp tục với dịch vụ khác/);
    // Back at the first address, it goes on.
    baseUrl = 'http://127.0.0.1:8101/api/';
    a.service.start(job.id);
    expect(await a.service.whenDone(job.id)).toMatchObject({ status: 'done', saved: 2 });
  });
});
