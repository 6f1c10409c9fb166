import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { progressLine } from '../../../main/cli/commands/download';
import { DownloadsService, type DownloadClient } from '../../../main/services/downloads';
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

async function run(client: DownloadClient, ids: string[], type: 'Pdf' | 'Xml' = 'Pdf') {
  const tmp = makeTempDir('einvoice-dl-unit-');
  temps.push(tmp.cleanup);
  const store = openDatabase(path.join(tmp.dir, 'data'));
  stores.push(store);
  const profileId = new ProfileService(store).activeId();
  const service = new DownloadsService({ store, activeProfileId: () => profileId, session: async () => ({ profileId, client }), engine: { durable: false } });
  const out = path.join(tmp.dir, 'out');
  const { job } = await service.create({ ids, type, folder: out });
  service.start(job.id);
  const view = await service.whenDone(job.id);
  return { view, items: service.repo.page(job.id, 0, 1000).items, out };
}

describe('engine and odd answers', () => {
  it('matches answers to requested IDs (case-insensitively), ignores extra and repeated ones, fails missing ones', async () => {
    const client = new ScriptedClient((ids) => ({
      kind: 'items',
      envelopeSuccess: true,
      items: [
        { transactionId: 'abc', content: new Uint8Array([1]), errorCode: null, link: null },
        { transactionId: 'ABC', content: new Uint8Array([9]), errorCode: null, link: null },
        { transactionId: '../../etc/passwd', content: new Uint8Array([6]), errorCode: null, link: null },
        { transactionId: ids[1]!.toLowerCase(), content: new Uint8Array([2]), errorCode: null, link: null },
        { transactionId: 'L', content: null, errorCode: null, link: 'https://viewer.example/x.pdf' },
      ],
    }));
    const { view, items, out } = await run(client, ['abc', 'DEF', 'missing', 'L']);
    expect(view).toMatchObject({ saved: 3, failed: 1 });
    expect(items.find((i) => i.transactionId === 'missing')).toMatchObject({ state: 'failed', errorCode: 'NotReturned' });
    expect([...fs.readFileSync(path.join(out, 'abc.pdf'))]).toEqual([1]);
    expect([...fs.readFileSync(path.join(out, 'DEF.pdf'))]).toEqual([2]);
    expect(fs.readFileSync(path.join(out, 'L.pdf'), 'utf8')).toBe('fetched https://viewer.example/x.pdf');
    expect(fs.readdirSync(out).sort()).toEqual(['DEF.pdf', 'L.pdf', 'abc.pdf']);
  });

  it('a whole-call link for many IDs is asked again one ID at a time', async () => {
    const client = new ScriptedClient((ids) => ({ kind: 'link', url: `https://viewer.example/${ids.join('+')}` }));
    const { view, out } = await run(client, ['A', 'B', 'C']);
    expect(view.saved).toBe(3);
    expect(client.calls).toEqual([['A', 'B', 'C'], ['A'], ['B'], ['C']]);
    expect(fs.readFileSync(path.join(out, 'B.pdf'), 'utf8')).toBe('fetched https://viewer.example/B');
  });

  it('Xml text is saved as UTF-8; empty content fails with a reason', async () => {
    const client = new ScriptedClient(() => ({
      kind: 'items',
      envelopeSuccess: true,
      items: [
        { transactionId: 'X', content: '<HDon>Hóa đơn ₫</HDon>', errorCode: null, link: null },
        { transactionId: 'E', content: null, errorCode: null, link: null },
      ],
    }));
    const { items, out } = await run(client, ['X', 'E'], 'Xml');
    expect(fs.readFileSync(path.join(out, 'X.xml'))).toEqual(Buffer.from('<HDon>Hóa đơn ₫</HDon>', 'utf8'));
    expect(items[1]).toMatchObject({ state: 'failed', errorCode: 'EmptyContent' });
  });
});

describe('CLI progress line', () => {
  it('draws a bar with counts, bytes, rate and ETA', () => {
    const line = progressLine(
      {
        counts: { total: 200, pending: 100, placing: 0, saved: 90, skipped: 0, failed: 10, bytes: 5 * 1048576 },
        rate: 1048576,
        itemsPerSecond: 20,
        etaSeconds: 65,
      },
      10,
    );
    expect(line).toBe('[#####-----] 100/200  ✓90 ✗10  5.0 MB  1.0 MB/s  ETA 1:05');
  });
});
