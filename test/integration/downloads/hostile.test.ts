import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/services/api';
import { DownloadsService } from '../../../main/services/downloads';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';
import { listFiles } from './helpers';

/**
 * A hostile service on 127.0.0.1 (real HTTP): it answers every TransactionID with content, and
 * for All with zips that try to escape the folder or explode.
 */
let server: http.Server;
let baseUrl: string;
const enc = (s: string) => new TextEncoder().encode(s);
const zips: Record<string, Uint8Array> = {
  'ZIP-ESCAPE': zipSync({ 'ok.xml': enc('<x/>'), '../../escaped.txt': enc('boom') }),
  'ZIP-ABS': zipSync({ '/tmp/einvoice-absolute-escape.txt': enc('boom') }),
  'ZIP-BOMB': zipSync({ 'bomb.bin': [new Uint8Array(300 * 1024 * 1024), { level: 9 }] } as never),
  'ZIP-GOOD': zipSync({ 'GOOD.xml': enc('<HDon/>'), 'GOOD.pdf': enc('%PDF-1.4 good') }),
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const type = url.searchParams.get('downloadDataType');
      const ids = JSON.parse(Buffer.concat(chunks).toString('utf8')) as string[];
      const data = ids.map((id) => ({
        TransactionID: id,
        data:
          type === 'All'
            ? Buffer.from(zips[id] ?? zips['ZIP-GOOD']!).toString('base64')
            : type === 'Pdf'
              ? Buffer.from(`%PDF ${id}`).toString('base64')
              : `<x id="${id}"/>`,
        ErrorCode: '',
      }));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ success: true, errorCode: null, errors: [], data: JSON.stringify(data) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/integration/invoice`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function setup() {
  const tmp = makeTempDir('einvoice-hostile-');
  const store = openDatabase(path.join(tmp.dir, 'data'));
  const profileId = new ProfileService(store).activeId();
  const client = new ApiClient({ baseUrl, token: 't' });
  const service = new DownloadsService({ store, activeProfileId: () => profileId, session: async () => ({ profileId, client }) });
  const out = path.join(tmp.dir, 'box', 'out');
  return {
    tmp,
    out,
    service,
    async run(ids: string[], type: 'Pdf' | 'All', unzip = false) {
      const { job } = await service.create({ ids, type, folder: out, unzip });
      service.start(job.id);
      return { view: await service.whenDone(job.id), items: service.repo.page(job.id, 0, 1000).items };
    },
    async close() {
      await service.close();
      await client.close();
      store.close();
      tmp.cleanup();
    },
  };
}

describe('hostile answers', () => {
  it('TransactionIDs with separators, .., device names, control characters and 300 characters stay inside the folder', async () => {
    const s = setup();
    try {
      const hostile = [
        '../x',
        '../../y',
        'a/b',
        'a\\b',
        'CON',
        'nul.txt',
        'COM1',
        'x'.repeat(300),
        'a\u0001b\u001f',
        '.',
        '..',
        '/etc/passwd',
        'C:\\Windows\\z',
        'trail. ',
        '.hidden',
      ];
      const { view, items } = await s.run(hostile, 'Pdf');
      expect(view).toMatchObject({ status: 'done', saved: hostile.length, failed: 0 });
      const files = listFiles(s.out);
      expect(files).toHaveLength(hostile.length);
      for (const f of files) {
        expect(f).not.toContain(path.sep);
        expect(f).not.toMatch(/^\./);
        expect(Buffer.byteLength(f)).toBeLessThan(200);
      }
      // Nothing was written next to the folder or above it.
      expect(fs.readdirSync(path.dirname(s.out))).toEqual(['out']);
      expect(fs.readdirSync(s.tmp.dir).sort()).toEqual(['box', 'data']);
      // Each item's content landed in its own file.
      for (const item of items) expect(fs.readFileSync(path.join(s.out, item.file!), 'utf8')).toBe(`%PDF ${item.transactionId}`);
    } finally {
      await s.close();
    }
  });

  it('zip extraction refuses escaping entries and stops a zip bomb; good zips still extract', async () => {
    const s = setup();
    try {
      const { view, items } = await s.run(['ZIP-ESCAPE', 'ZIP-ABS', 'ZIP-BOMB', 'ZIP-GOOD'], 'All', true);
      expect(view).toMatchObject({ saved: 1, failed: 3 });
      const byId = Object.fromEntries(items.map((i) => [i.transactionId, i]));
      expect(byId['ZIP-ESCAPE']).toMatchObject({ state: 'failed', errorCode: 'UnsafeZipEntry' });
      expect(byId['ZIP-ABS']).toMatchObject({ state: 'failed', errorCode: 'UnsafeZipEntry' });
      expect(byId['ZIP-BOMB']).toMatchObject({ state: 'failed', errorCode: 'ZipTooLarge' });
      expect(listFiles(s.out)).toEqual([path.join('ZIP-GOOD', 'GOOD.pdf'), path.join('ZIP-GOOD', 'GOOD.xml')]);
      expect(fs.existsSync(path.join(s.tmp.dir, 'escaped.txt'))).toBe(false);
      expect(fs.existsSync(path.join(s.tmp.dir, 'box', 'escaped.txt'))).toBe(false);
      expect(fs.existsSync('/tmp/einvoice-absolute-escape.txt')).toBe(false);
    } finally {
      await s.close();
    }
  }, 60_000);
});
