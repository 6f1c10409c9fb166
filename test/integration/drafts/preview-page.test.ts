import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emptyLine } from '../../../common/money';
import { createDrafting, type Drafting } from '../../../main/services/drafting';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

// A deployment whose preview link serves a web page (not a PDF): a real HTTP server on 127.0.0.1.
let server: http.Server;
let origin = '';
let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let drafting: Drafting;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/integration/invoice/unpublishview') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, errorCode: null, descriptionErrorCode: null, errors: [], data: `${origin}/viewer/abc`, customData: '' }));
    } else if (req.method === 'GET' && req.url === '/viewer/abc') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Xem trước</title><p>Hóa đơn xem trước</p>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  temp = makeTempDir();
  store = openDatabase(temp.dir);
  new ProfileService(store);
  drafting = createDrafting({
    store,
    access: {
      activeProfileId: () => 'sandbox',
      session: async () => ({ profileId: 'sandbox', baseUrl: `${origin}/api/integration/invoice`, token: 't' }),
    },
  });
});
afterAll(async () => {
  drafting.close();
  store.close();
  temp.cleanup();
  await new Promise<void>((r) => server.close(() => r()));
});

it('keeps a page-type preview with its link, to be opened locked to that origin', async () => {
  const rec = drafting.drafts.create({ lines: [{ ...emptyLine(1), ItemName: 'A', UnitPrice: '1000' }] });
  const result = await drafting.preview.run(rec.id);
  expect(result.kind).toBe('page');
  const kept = drafting.preview.get(result.previewId)!;
  expect(kept.link).toBe(`${origin}/viewer/abc`);
  expect(Buffer.from(kept.bytes).toString('utf8')).toContain('Hóa đơn xem trước');
  const opened: string[] = [];
  drafting.preview.setOpener((k) => void opened.push(k.link ?? ''));
  expect(await drafting.preview.open(result.previewId)).toEqual({ opened: true, path: null });
  expect(opened).toEqual([`${origin}/viewer/abc`]);
  await expect(drafting.preview.open('nope')).rejects.toMatchObject({ code: 'preview_not_found' });
});
