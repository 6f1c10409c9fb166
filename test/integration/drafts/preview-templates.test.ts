import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { EventBus } from '../../../common/ipc/bus';
import { emptyLine, type InvoiceDraft } from '../../../common/money';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { createDrafting, type Drafting, type ServiceAccess } from '../../../main/services/drafting';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let sandbox: Sandbox;
let temp: ReturnType<typeof makeTempDir>;
let store: Store;
let drafting: Drafting;

const access = (): ServiceAccess => ({
  activeProfileId: () => 'sandbox',
  session: async () => ({ profileId: 'sandbox', baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, token: sandbox.devToken }),
});

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, invoiceCount: 50, previewLinkTtlMs: 1000 });
  temp = makeTempDir();
  store = openDatabase(temp.dir);
  new ProfileService(store);
  drafting = createDrafting({ store, access: access(), bus: new EventBus() });
});
afterAll(async () => {
  drafting.close();
  store.close();
  temp.cleanup();
  await sandbox.close();
});
beforeEach(async () => {
  if (!sandbox.listening) await sandbox.start();
});

function invoiceDraft(base: InvoiceDraft): InvoiceDraft {
  return {
    ...base,
    InvSeries: `1C${base.InvDate.slice(2, 4)}TAA`,
    BuyerLegalName: 'Công ty TNHH Hoa Sen',
    BuyerTaxCode: '0101243150',
    BuyerAddress: '12 Hàng Bài, Hà Nội',
    lines: [
      { ...emptyLine(1), ItemName: 'Cà phê', UnitName: 'kg', Quantity: '2', UnitPrice: '150000', VATRateName: '8%' },
      { ...emptyLine(1), ItemName: 'Ấm trà', UnitName: 'cái', Quantity: '1', UnitPrice: '200000', VATRateName: '10%' },
    ],
  };
}

describe('preview against the sandbox', () => {
  it('fetches the PDF at once, keeps the bytes and records lastPreviewedAt', async () => {
    const rec = drafting.drafts.create();
    drafting.drafts.save(rec.id, invoiceDraft(rec.draft));
    const result = await drafting.preview.run(rec.id);
    expect(result.kind).toBe('pdf');
    // The link lived 1 s; the bytes are still ours long after.
    await new Promise((r) => setTimeout(r, 1200));
    const kept = drafting.preview.get(result.previewId)!;
    expect(Buffer.from(kept.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const pdf = await getDocumentProxy(new Uint8Array(kept.bytes));
    const { text } = await extractText(pdf, { mergePages: true });
    expect(text).toContain('Công ty TNHH Hoa Sen');
    expect(text.replace(/[.,\s]/g, '')).toContain('544000'); // 300000 + 8% + 200000 + 10%
    expect(drafting.drafts.get(rec.id).lastPreviewedAt).toBe(result.createdAt);
    const opened = await drafting.preview.open(result.previewId);
    expect(opened).toEqual({ opened: false, path: `/api/preview/${result.previewId}` });
  });

  it('maps a field error code to the draft path and leaves the draft untouched', async () => {
    const rec = drafting.drafts.create();
    const d = invoiceDraft(rec.draft);
    drafting.drafts.save(rec.id, { ...d, BuyerLegalName: '' });
    const before = drafting.drafts.get(rec.id);
    const error = await drafting.preview.run(rec.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'api.rejected', issues: [{ path: 'BuyerLegalName' }] });
    const after = drafting.drafts.get(rec.id);
    expect(after.revision).toBe(before.revision);
    expect(after.lastPreviewedAt).toBeNull();
  });

  it('says offline when the service cannot be reached, and changes nothing', async () => {
    const rec = drafting.drafts.create();
    drafting.drafts.save(rec.id, invoiceDraft(rec.draft));
    const before = drafting.drafts.get(rec.id);
    await sandbox.stop();
    const error = await drafting.preview.run(rec.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'api.offline' });
    expect(drafting.drafts.get(rec.id)).toEqual(before);
  });
});

describe('template cache', () => {
  it('fetches every kind, caches per profile, and answers from the cache offline', async () => {
    const fresh = await drafting.templates.list({ refresh: true });
    expect(fresh.error).toBeNull();
    expect(fresh.templates.length).toBeGreaterThan(0);
    expect(new Set(fresh.templates.map((t) => `${t.withCode}/${t.ticket}`)).size).toBeGreaterThan(1);
    expect(fresh.templates.some((t) => t.isMoreVATRate)).toBe(true);
    const queries = sandbox.requests({ op: 'templates' }).map((r) => (r as unknown as { query: Record<string, string> }).query);
    expect(queries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ invoiceWithCode: 'true', ticket: 'false' }),
        expect.objectContaining({ invoiceWithCode: 'false', ticket: 'true' }),
      ]),
    );
    expect(queries.every((q) => /^\d{4}$/.test(q.year ?? ''))).toBe(true);
    await sandbox.stop();
    const offline = await drafting.templates.list({ refresh: true });
    expect(offline.error?.code).toBe('api.offline');
    expect(offline.templates).toEqual(fresh.templates);
    expect(offline.fetchedAt).toBe(fresh.fetchedAt);
    const cached = await drafting.templates.list();
    expect(cached.error).toBeNull();
    expect(cached.templates.length).toBe(fresh.templates.length);
  });

  it('refreshes by itself when the app comes back online', async () => {
    const bus = new EventBus();
    const other = createDrafting({ store, access: access(), bus });
    try {
      store.db.prepare('DELETE FROM template_cache_state').run();
      expect(other.templates.cached('sandbox', new Date().getUTCFullYear()).fetchedAt).toBeNull();
      const changed = new Promise((resolve) => bus.on('templates.changed', resolve));
      bus.emit('app.online', { online: false, checkedAt: new Date().toISOString() });
      bus.emit('app.online', { online: true, checkedAt: new Date().toISOString() });
      await changed;
      const list = await other.templates.list();
      expect(list.fetchedAt).not.toBeNull();
      expect(list.templates.length).toBeGreaterThan(0);
    } finally {
      other.close();
    }
  });
});

describe('preview checks the series rule and the PDF shows line discounts', () => {
  it('refuses a multi-rate draft on a one-rate template before sending anything', async () => {
    await drafting.templates.list({ refresh: true });
    const rec = drafting.drafts.create();
    drafting.drafts.save(rec.id, invoiceDraft(rec.draft)); // 8% and 10% on 1C..TAA (one rate)
    const sent = sandbox.requests({ op: 'preview' }).length;
    const error = await drafting.preview.run(rec.id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'series.multiRate', issues: [{ path: 'InvSeries' }] });
    expect(sandbox.requests({ op: 'preview' }).length).toBe(sent);
    // On the multi-rate template it goes through.
    const ok = invoiceDraft(rec.draft);
    drafting.drafts.save(rec.id, { ...ok, InvSeries: ok.InvSeries.replace(/TAA$/, 'TBH') });
    expect((await drafting.preview.run(rec.id)).kind).toBe('pdf');
  });

  it('prints a discounted line with its discount, and the totals in invoice order', async () => {
    const rec = drafting.drafts.create();
    const d = invoiceDraft(rec.draft);
    drafting.drafts.save(rec.id, { ...d, lines: [{ ...d.lines[0]!, DiscountRate: '10' }] });
    const result = await drafting.preview.run(rec.id);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(drafting.preview.get(result.previewId)!.bytes)), { mergePages: true });
    expect(text).toContain('Chiết khấu');
    expect(text).toContain('10% 30.000'); // 2 × 150.000, 10 %
    expect(text).toContain('270.000');
    expect(text).toContain('Cộng tiền hàng (trước chiết khấu)');
    expect(text.indexOf('300.000')).toBeGreaterThan(-1);
  });
});
