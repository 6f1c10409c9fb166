import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ISSUE_STATES } from '../../../common/calls/issuing';
import type { IssuingInvoiceData } from '../../../common/model/issuing';
import { judgeCall, judgeItem } from '../../../main/services/issuing/judge';
import { IssueQueue, type NewIssue } from '../../../main/services/issuing/queue';
import { signTypeFor } from '../../../main/services/issuing/sign-type';
import { DraftsRepository } from '../../../main/services/drafts/repository';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let store: Store;
let other: Store;
let clock = Date.parse('2026-11-25T03:00:00Z');
const now = () => new Date(clock);

function issue(series = '1K26TAA', o: Partial<NewIssue> = {}): NewIssue {
  return {
    draftId: null,
    payload: { RefID: randomUUID(), InvSeries: series, InvDate: '2026-11-25' } as IssuingInvoiceData,
    kind: 'withoutCode',
    signType: 2,
    certificateSN: 'CERT',
    buyerName: 'Khách',
    buyerEmail: '',
    total: '10000',
    currency: 'VND',
    download: false,
    email: false,
    ...o,
  };
}

beforeEach(() => {
  tmp = makeTempDir('einvoice-issuing-');
  store = openDatabase(tmp.dir);
  other = openDatabase(tmp.dir); // a second process on the same file
  new ProfileService(store);
  clock = Date.parse('2026-11-25T03:00:00Z');
});
afterEach(() => {
  other.close();
  store.close();
  tmp.cleanup();
});

describe('IssueQueue', () => {
  it('keeps one request per series in flight across processes, and the series gap', () => {
    const a = new IssueQueue(store, { now, claimAlive: () => true });
    const b = new IssueQueue(other, { now, claimAlive: () => true });
    for (let i = 0; i < 3; i++) a.add('sandbox', issue());
    a.add('sandbox', issue('1K26TDL'));
    const first = a.claim('sandbox', '1K26TAA', 2)!;
    expect(first.entries).toHaveLength(2);
    expect(b.claim('sandbox', '1K26TAA', 30)).toBeNull();
    expect(b.dueSeries('sandbox')).toEqual(['1K26TDL']);
    a.settle(
      first,
      new Map(first.entries.map((e) => [e.id, { state: 'issued', transactionId: `TX${e.id}`, invNo: '00000001', invoiceCode: null, invDate: null } as const])),
      1_000,
    );
    expect(b.claim('sandbox', '1K26TAA', 30)).toBeNull(); // within the gap
    clock += 1_000;
    expect(b.claim('sandbox', '1K26TAA', 30)!.entries).toHaveLength(1);
  });

  it('a register write that fails never fails or undoes the settlement of an issued invoice', () => {
    const errors: unknown[] = [];
    const q = new IssueQueue(store, { now, claimAlive: () => true, registerError: (e) => errors.push(e) });
    const e = q.add('sandbox', issue());
    store.db.exec("CREATE TRIGGER refuse_register BEFORE INSERT ON issued_invoices BEGIN SELECT RAISE(ABORT, 'register refused'); END");
    const c = q.claim('sandbox', '1K26TAA', 30)!;
    q.settle(c, new Map([[e.id, { state: 'issued', transactionId: 'TXR1', invNo: '00000001', invoiceCode: null, invDate: null } as const]]), 0);
    expect(q.get(e.id)).toMatchObject({ state: 'issued', transactionId: 'TXR1' });
    expect(String(errors[0])).toMatch(/register refused/);
  });

  it("recovers a dead process's claim to unknown, never to queued, and leaves a live one alone", () => {
    let alive = true;
    const q = new IssueQueue(store, { now, claimAlive: () => alive });
    const e = q.add('sandbox', issue());
    q.claim('sandbox', '1K26TAA', 30);
    const later = new IssueQueue(other, { now, claimAlive: () => alive });
    expect(later.recover()).toBe(0);
    alive = false;
    expect(later.recover()).toBe(1);
    const row = later.get(e.id)!;
    expect(row.state).toBe('unknown');
    expect(row.lastError?.vi).toMatch(/có thể hóa đơn đã được phát hành/);
    expect(later.dueSeries('sandbox')).toEqual([]); // not sent again before the service is asked
  });

  it('settles an unknown invoice by what the service says, and believes "absent" only when asked to', () => {
    const q = new IssueQueue(store, { now, claimAlive: () => false });
    const e = q.add('sandbox', issue());
    const c = q.claim('sandbox', '1K26TAA', 30)!;
    q.settle(c, new Map([[e.id, { state: 'unknown', message: { en: 'reset', vi: 'ngắt' } }]]), 0);
    const [read] = q.unknownDue('sandbox');
    expect(read?.id).toBe(e.id);
    q.lookedUp(e.id, 5_000, read!);
    expect(q.unknownDue('sandbox')).toEqual([]);
    const [again] = q.unknownDue('sandbox', { all: true });
    // A lookup that read the row before the other one wrote changes nothing.
    expect(q.resolve(e.id, { state: 'queued', delayMs: 0, message: null }, read!)).toBe(false);
    expect(q.get(e.id)!.state).toBe('unknown');
    expect(q.resolve(e.id, { state: 'issued', transactionId: 'TXA', invNo: '00000009', invoiceCode: null, invDate: null }, again!)).toBe(true);
    expect(q.get(e.id)).toMatchObject({ state: 'issued', transactionId: 'TXA', invNo: '00000009' });
  });

  it('refuses to freeze a draft that was saved again since it was checked (another window, another process)', () => {
    const q = new IssueQueue(store, { now, claimAlive: () => false });
    const drafts = new DraftsRepository(store);
    const d = drafts.create({ InvSeries: '1K26TAA' });
    drafts.save(d.id, { ...d.draft, BuyerLegalName: 'Changed elsewhere' });
    expect(() => q.add('sandbox', issue('1K26TAA', { draftId: d.id, draftRevision: d.revision }))).toThrow(/changed meanwhile/);
    expect(drafts.get(d.id).issue).toBeNull();
    expect(q.list('sandbox').total).toBe(0);
    const fresh = drafts.get(d.id);
    expect(q.add('sandbox', issue('1K26TAA', { draftId: d.id, draftRevision: fresh.revision })).state).toBe('queued');
  });

  it('retries only a failed invoice; a RefID is queued once', () => {
    const q = new IssueQueue(store, { now, claimAlive: () => false });
    const one = issue();
    const e = q.add('sandbox', one);
    expect(() => q.add('sandbox', { ...one })).toThrow(/already in the issue queue/);
    expect(() => q.retry(e.id)).toThrow(/only a failed one/);
    const c = q.claim('sandbox', '1K26TAA', 30)!;
    q.settle(c, new Map([[e.id, { state: 'failed', errorCode: 'LicenseInfo_OutOfInvoice', message: { en: 'x', vi: 'x' }, retryable: true }]]), 0);
    expect(q.retry(e.id).state).toBe('queued');
  });

  it('counts under All every row the All filter lists, a reopened refusal included; per state it is left out (nothing to act on), of the count and of the list', () => {
    const q = new IssueQueue(store, { now, claimAlive: () => false });
    const drafts = new DraftsRepository(store);
    const d = drafts.create({ InvSeries: '1K26TAA' });
    const refused = q.add('sandbox', issue('1K26TAA', { draftId: d.id, draftRevision: d.revision }));
    q.add('sandbox', issue('1K26TDL'));
    const c = q.claim('sandbox', '1K26TAA', 30)!;
    q.settle(c, new Map([[refused.id, { state: 'failed', errorCode: 'InvoiceDuplicated', message: { en: 'x', vi: 'x' }, retryable: false }]]), 0);
    q.unlockDraft(refused.id);

    const all = q.list('sandbox');
    expect(all.items.map((e) => e.id)).toContain(refused.id);
    expect(q.summary('sandbox')).toMatchObject({ total: all.items.length, counts: { failed: 0, queued: 1 } });
    // The Refused filter shows what its count counts: the reopened refusal is only under All.
    const failed = q.list('sandbox', { states: ['failed'] });
    expect(failed).toEqual({ items: [], total: 0 });
    expect(q.list('sandbox', { states: [...ISSUE_STATES] }).items.map((e) => e.id)).toContain(refused.id);
  });
});

describe('judging and sign types', () => {
  it('turns each answer into the right state', () => {
    const base = { refId: 'R', transactionId: null, invNo: null, invSeries: null, invDate: null, invoiceCode: null, description: null, raw: {} };
    expect(judgeItem({ ...base, errorCode: null, ok: true, transactionId: 'T', invNo: '00000001' }, 2, 0).state).toBe('issued');
    expect(judgeItem({ ...base, errorCode: null, ok: true }, 3, 0).state).toBe('unknown');
    expect(judgeItem({ ...base, errorCode: 'DuplicateInvoiceRefID', ok: false }, 2, 0).state).toBe('unknown');
    expect(judgeItem({ ...base, errorCode: 'InvoiceNumberNotCotinuous', ok: false }, 2, 1000)).toMatchObject({ state: 'queued', delayMs: 1000 });
    expect(judgeItem({ ...base, errorCode: 'InvalidInvoiceDate', ok: false }, 2, 0)).toMatchObject({ state: 'failed', retryable: false });
    expect(judgeItem(undefined, 2, 0).state).toBe('unknown');
    // A refusal of the whole request: a documented refusal is final; anything else may hide an issued invoice.
    expect(judgeCall('LicenseInfo_OutOfInvoice', null, 0)).toMatchObject({ state: 'failed', retryable: true });
    expect(judgeCall('DuplicateInvoiceRefID', null, 0)).toMatchObject({ state: 'unknown', serviceHas: true });
    expect(judgeCall('InvoiceNumberNotCotinuous', null, 500)).toMatchObject({ state: 'queued', delayMs: 1000 });
    expect(judgeCall('Exception', null, 0).state).toBe('unknown');
    expect(judgeCall('SomethingNew', null, 0).state).toBe('unknown');
    expect(judgeCall(null, null, 0).state).toBe('unknown');
  });
  it('issues cash-register series as cash-register invoices', () => {
    expect(signTypeFor(2, 'cashRegister')).toBe(5);
    expect(signTypeFor(3, 'cashRegister')).toBe(6);
    expect(signTypeFor(5, 'withCode')).toBe(2);
    expect(signTypeFor(6, 'withoutCode')).toBe(3);
  });
});
