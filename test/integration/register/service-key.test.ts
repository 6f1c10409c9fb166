/**
 * The register belongs to the service it was read from (address + seller tax code), against two
 * sandboxes on 127.0.0.1 through the app's own wiring: after the profile's address or tax code
 * changes, the past days are read again and the other service's invoices are not shown; going back
 * shows them again without reading; signed out, the register stays. And a database written before
 * this (schema 15) keeps its rows and reads its days once more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vietnamToday } from '../../../common/rules';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { SANDBOX_CREDENTIALS } from '../../../main/sandbox/tokens';
import { upsertRows } from '../../../main/services/register/repository';
import { activeScope, adoptUnknownSeller, hasUnknownSeller } from '../../../main/services/register/service-key';
import { addDays, daysBetween, runsOf } from '../../../main/services/register/sync';
import { openDatabase } from '../../../main/services/store';
import { migrations } from '../../../main/services/store/migrations';
import { makeTempDir } from '../../support/temp-dir';
import { startIssuing, type IssuingHarness } from '../issuing/harness';

const today = vietnamToday(new Date());
const from = addDays(today, -60);
const to = addDays(today, -5);
const KINDS = ['withCode', 'withoutCode', 'cashRegister'] as const;

let h: IssuingHarness;
let other: Sandbox;
let profileId: string;

beforeAll(async () => {
  h = await startIssuing({ sandbox: { invoiceCount: 600, seed: 11 }, background: false });
  other = await startSandbox({ invoiceCount: 600, seed: 12 });
  const profile = h.services.profiles.add({ name: 'Máy chủ thử', kind: 'custom', baseUrl: h.sandbox.baseUrl });
  profileId = profile.id;
  h.services.profiles.activate(profileId);
  await h.services.auth.signInWithToken(profileId, h.sandbox.devToken);
}, 120_000);
afterAll(async () => {
  await other?.close();
  await h?.close();
});

/** The live invoices of a sandbox in the range. */
function expected(sb: Sandbox): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    for (const id of sb.catalogue.list(kind)) {
      const inv = sb.catalogue.get(id)!;
      if (!inv.deleted && inv.InvDate >= from && inv.InvDate <= to) out.push(id);
    }
  }
  return out.sort();
}
const listed = (): string[] =>
  h.services.register
    .all({ from, to })
    .map((i) => i.transactionId)
    .sort();
/** Every day of the range read, per kind (in runs of at most 31 days). */
const wholeRange = KINDS.flatMap((kind) => runsOf(daysBetween(from, to)).map((r) => ({ kind, from: r.from, to: r.to })));

describe('the register and the service it was read from', () => {
  it('after the address changes, the past days are read again from the new service and the old one’s invoices are not shown', async () => {
    const first = expected(h.sandbox);
    const second = expected(other);
    expect(first.length).toBeGreaterThan(20);
    expect(second.length).toBeGreaterThan(20);
    expect(first.filter((id) => second.includes(id))).toEqual([]);

    h.sandbox.reset();
    const a = await h.services.register.sync({ from, to });
    expect(a.ranges).toEqual(wholeRange);
    expect(listed()).toEqual(first);
    // Synced: nothing is read again from the same service.
    h.sandbox.reset();
    expect((await h.services.register.sync({ from, to })).ranges).toEqual([]);
    expect(h.sandbox.pagingServed().requests).toBe(0);

    h.services.profiles.update(profileId, { baseUrl: other.baseUrl });
    // Before any sync the register already shows only the new service: nothing yet.
    expect(h.services.register.list({ from, to }).total).toBe(0);
    other.reset();
    const b = await h.services.register.sync({ from, to });
    expect(b.ranges).toEqual(wholeRange);
    expect(other.pagingServed().items).toBe(second.length);
    expect(b).toMatchObject({ fetched: second.length, added: second.length });
    expect(listed()).toEqual(second);
    expect(() => h.services.register.get(first[0]!)).toThrow(/not in the register|chưa có/);

    // The first address again: its rows and synced days were kept for it.
    h.services.profiles.update(profileId, { baseUrl: `${h.sandbox.baseUrl}/` });
    expect(listed()).toEqual(first);
    h.sandbox.reset();
    expect((await h.services.register.sync({ from, to })).ranges).toEqual([]);
    expect(h.sandbox.pagingServed().requests).toBe(0);
  }, 120_000);

  it('after the tax code signed in with changes, the past days are read again; signed out, the register stays', async () => {
    const first = expected(h.sandbox);
    const before = activeScope(h.services.store.db, profileId);
    await h.services.auth.signInWithPassword(profileId, {
      appId: SANDBOX_CREDENTIALS.appid,
      taxCode: SANDBOX_CREDENTIALS.taxcode,
      userName: SANDBOX_CREDENTIALS.username,
      password: SANDBOX_CREDENTIALS.password,
    });
    const after = activeScope(h.services.store.db, profileId);
    expect(after.service).toBe(`${before.service}${SANDBOX_CREDENTIALS.taxcode}`);
    // Rows read under the token sign-in (no tax code) are not this seller's register.
    expect(h.services.register.list({ from, to }).total).toBe(0);
    h.sandbox.reset();
    const summary = await h.services.register.sync({ from, to });
    expect(summary.ranges).toEqual(wholeRange);
    expect(h.sandbox.pagingServed().items).toBe(first.length);
    expect(listed()).toEqual(first);

    await h.services.auth.signOut(profileId);
    expect(activeScope(h.services.store.db, profileId)).toEqual(after);
    expect(listed()).toEqual(first);
  }, 120_000);
});

/** A schema-15 data folder (before the register was keyed by service) with profile p1 and one invoice of `source`; `signedIn`: with a credentials sign-in and a synced day. */
function oldRegister(dir: string, o: { signedIn: boolean; transactionId: string; source: 'sync' | 'queue' }): void {
  const old = openDatabase(dir, { migrations: migrations.slice(0, 15) });
  old.db
    .prepare("INSERT INTO profiles (id, name, kind, base_url, created_at, updated_at) VALUES ('p1', 'Máy chủ', 'custom', 'https://hd.example.vn/api/', ?, ?)")
    .run(today, today);
  if (o.signedIn) {
    old.db.prepare("INSERT INTO profile_auth (profile_id, method, signed_in_at, tax_code) VALUES ('p1', 'credentials', ?, '0101243150')").run(today);
  }
  old.db
    .prepare(
      `INSERT INTO issued_invoices (profile_id, transaction_id, inv_series, inv_no, inv_date, kind, buyer_name, source, search, updated_at)
       VALUES ('p1', ?, '1C26TAA', '00000001', ?, 'withCode', 'Công ty Cũ', ?, 'cong ty cu', ?)`,
    )
    .run(o.transactionId, from, o.source, today);
  if (o.signedIn) old.db.prepare("INSERT INTO issued_sync_days (profile_id, kind, day, synced_at) VALUES ('p1', 'withCode', ?, ?)").run(from, today);
  old.close();
}

describe('a register written before it was tied to a service', () => {
  it('keeps its rows under the profile’s service and reads its days once more', () => {
    const tmp = makeTempDir('einvoice-register-upgrade-');
    try {
      oldRegister(tmp.dir, { signedIn: true, transactionId: 'TXOLD1', source: 'sync' });

      const store = openDatabase(tmp.dir);
      try {
        expect(store.version).toBe(migrations.length);
        const scope = activeScope(store.db, 'p1');
        expect(scope.service).toBe('https://hd.example.vn/api|0101243150');
        const count = (sql: string) => (store.db.prepare(sql).get() as { n: number }).n;
        expect(store.db.prepare('SELECT service_key FROM issued_invoices').all()).toEqual([{ service_key: scope.service }]);
        expect(count("SELECT count(*) AS n FROM issued_search WHERE search LIKE '%ty cu%'")).toBe(1);
        expect(count('SELECT sum(n) AS n FROM issued_day_counts')).toBe(1);
        expect(count('SELECT count(*) AS n FROM issued_sync_days')).toBe(0);
        // A row written again for another service is a second row; the count follows each.
        store.transaction((db) =>
          upsertRows(
            db,
            { profileId: 'p1', service: 'sandbox|' },
            [
              {
                transactionId: 'TXOLD1',
                refId: null,
                invSeries: '1C26TAA',
                invNo: '00000002',
                invDate: to,
                kind: 'withCode',
                buyerName: 'Công ty Mới',
                buyerTaxCode: '',
                buyerEmail: '',
                currency: 'VND',
                total: '0',
                totalWithoutVat: '0',
                totalVat: '0',
                invoiceCode: null,
                sendTaxStatus: 2,
                eInvoiceStatus: 1,
                referenceType: 0,
                org: null,
              },
            ],
            'sync',
            today,
          ),
        );
        expect(count('SELECT count(*) AS n FROM issued_invoices')).toBe(2);
        expect(count(`SELECT n FROM issued_day_counts WHERE service_key = 'sandbox|' AND inv_date = '${to}'`)).toBe(1);
        expect(count(`SELECT n FROM issued_day_counts WHERE service_key = '${scope.service}' AND inv_date = '${from}'`)).toBe(1);
      } finally {
        store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });

  it('kept while signed out: the rows are the first signed-in seller’s at that address, not hidden by the sign-in', () => {
    const tmp = makeTempDir('einvoice-register-upgrade-out-');
    try {
      oldRegister(tmp.dir, { signedIn: false, transactionId: 'TXOLD2', source: 'queue' });

      const store = openDatabase(tmp.dir);
      try {
        // Signed out at the upgrade: the seller is not known yet; the rows are still shown.
        const before = activeScope(store.db, 'p1');
        expect(before.service).toBe('https://hd.example.vn/api|?');
        expect(hasUnknownSeller(store.db, before)).toBe(false);
        expect(store.db.prepare('SELECT service_key FROM issued_invoices').all()).toEqual([{ service_key: before.service }]);
        // A bare token (no tax code) does not take them.
        store.db.prepare("INSERT INTO profile_auth (profile_id, method, signed_in_at, tax_code) VALUES ('p1', 'token', ?, NULL)").run(today);
        expect(hasUnknownSeller(store.db, activeScope(store.db, 'p1'))).toBe(false);
        store.db.prepare("DELETE FROM profile_auth WHERE profile_id = 'p1'").run();
        // Signed in with a tax code: the rows move to that seller, once.
        store.db.prepare("INSERT INTO profile_auth (profile_id, method, signed_in_at, tax_code) VALUES ('p1', 'credentials', ?, '0101243150')").run(today);
        const after = activeScope(store.db, 'p1');
        expect(after.service).toBe('https://hd.example.vn/api|0101243150');
        expect(hasUnknownSeller(store.db, after)).toBe(true);
        expect(store.transaction((db) => adoptUnknownSeller(db, after))).toBe(true);
        expect(hasUnknownSeller(store.db, after)).toBe(false);
        expect(store.db.prepare('SELECT service_key, transaction_id, source FROM issued_invoices').all()).toEqual([
          { service_key: after.service, transaction_id: 'TXOLD2', source: 'queue' },
        ]);
        expect(store.db.prepare(`SELECT sum(n) AS n FROM issued_day_counts WHERE service_key = ?`).get(after.service)).toEqual({ n: 1 });
      } finally {
        store.close();
      }
    } finally {
      tmp.cleanup();
    }
  });
});
