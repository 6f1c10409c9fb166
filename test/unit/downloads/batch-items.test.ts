import fs from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrors } from '../../../main/services/api';
import { DownloadsService, TEMP_PREFIX, type DownloadClient } from '../../../main/services/downloads';
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

async function run(client: DownloadClient, ids: string[], type: 'Pdf' | 'All' = 'Pdf', unzip = false) {
  const tmp = makeTempDir('einvoice-dl-batch-');
  temps.push(tmp.cleanup);
  const store = openDatabase(path.join(tmp.dir, 'data'));
  stores.push(store);
  const profileId = new ProfileService(store).activeId();
  const service = new DownloadsService({
    store,
    activeProfileId: () => profileId,
    session: async () => ({ profileId, client }),
    engine: { durable: false, retryDelayMs: 1 },
  });
  const out = path.join(tmp.dir, 'out');
  const { job } = await service.create({ ids, type, folder: out, unzip });
  service.start(job.id);
  const view = await service.whenDone(job.id);
  return { view, items: service.repo.page(job.id, 0, 1000).items, out };
}

const bytesOf = (s: string) => new TextEncoder().encode(s);
const item = (transactionId: string, content: Uint8Array) => ({ transactionId, content, errorCode: null, link: null });

describe('the bytes saved are the invoice asked for', () => {
  it('two IDs differing only by case: the one the answer lacks fails, it never gets the other invoice’s bytes', async () => {
    const client = new ScriptedClient(() => ({ kind: 'items', envelopeSuccess: true, items: [item('INV-A', bytesOf('invoice INV-A'))] }));
    const { view, items, out } = await run(client, ['inv-a', 'INV-A']);
    expect(view).toMatchObject({ saved: 1, failed: 1 });
    expect(fs.readFileSync(path.join(out, 'INV-A.pdf'), 'utf8')).toBe('invoice INV-A');
    expect(items.find((i) => i.transactionId === 'inv-a')).toMatchObject({ state: 'failed', errorCode: 'NotReturned' });
    expect(fs.readdirSync(out)).toEqual(['INV-A.pdf']);
  });

  it('two answers matching one requested ID only by case: that item fails with a reason', async () => {
    const client = new ScriptedClient(() => ({
      kind: 'items',
      envelopeSuccess: true,
      items: [item('X-b', bytesOf('one')), item('x-B', bytesOf('two')), item('ok', bytesOf('ok'))],
    }));
    const { view, items } = await run(client, ['X-B', 'OK']);
    expect(view).toMatchObject({ saved: 1, failed: 1 });
    const failed = items.find((i) => i.transactionId === 'X-B')!;
    expect(failed).toMatchObject({ state: 'failed', errorCode: 'AmbiguousAnswer' });
    expect(failed.message?.vi).toMatch(/chữ hoa/);
  });

  it('a unique case-insensitive match is still accepted', async () => {
    const client = new ScriptedClient(() => ({ kind: 'items', envelopeSuccess: true, items: [item('def', bytesOf('def'))] }));
    const { view, out } = await run(client, ['DEF']);
    expect(view.saved).toBe(1);
    expect(fs.readFileSync(path.join(out, 'DEF.pdf'), 'utf8')).toBe('def');
  });
});

describe('one bad archive fails one item', () => {
  it('an archive that cannot be laid out (a file and a folder of one name) fails only its item and leaves no temp folder', async () => {
    const good = (id: string) => zipSync({ [`${id}.xml`]: bytesOf(`<x>${id}</x>`), [`${id}.pdf`]: bytesOf(`%PDF ${id}`) });
    const bad = zipSync({ 'a/b.xml': bytesOf('<x/>'), a: bytesOf('file named a') });
    const client = new ScriptedClient((ids) => ({ kind: 'items', envelopeSuccess: true, items: ids.map((id) => item(id, id === 'BAD' ? bad : good(id))) }));
    const { view, items, out } = await run(client, ['G1', 'BAD', 'G2'], 'All', true);
    expect(view).toMatchObject({ saved: 2, failed: 1 });
    expect(items.find((i) => i.transactionId === 'BAD')).toMatchObject({ state: 'failed', errorCode: 'ZipUnwritable' });
    expect(fs.readdirSync(out).sort()).toEqual(['G1', 'G2']);
    expect(fs.readdirSync(out).filter((n) => n.startsWith(TEMP_PREFIX))).toEqual([]);
    expect(fs.readFileSync(path.join(out, 'G2', 'G2.xml'), 'utf8')).toBe('<x>G2</x>');
  });
});

describe('a batch whose answer is too large is split', () => {
  it('halves down to one ID, so only the invoice that is really too large fails; calls stay bounded', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `T${i}`);
    const client = new ScriptedClient((asked) => {
      if (asked.includes('T13') || asked.length > 4) throw apiErrors.tooLarge('128', { operation: 'download', httpStatus: 200 });
      return { kind: 'items', envelopeSuccess: true, items: asked.map((id) => item(id, bytesOf(id))) };
    });
    const { view, items } = await run(client, ids);
    expect(view).toMatchObject({ saved: 19, failed: 1 });
    expect(items.find((i) => i.transactionId === 'T13')).toMatchObject({ state: 'failed', errorCode: 'api.rejected' });
    expect(client.calls.length).toBeLessThanOrEqual(2 * ids.length - 1);
    expect(client.calls.filter((c) => c.length === 1 && c[0] === 'T13')).toHaveLength(1);
  });
});
