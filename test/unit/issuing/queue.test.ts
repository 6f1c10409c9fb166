import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IssuingInvoiceData } from '../../../common/model/issuing';
import { judgeItem } from '../../../main/services/issuing/judge';
import { IssueQueue, type NewIssue } from '../../../main/services/issuing/queue';
import { signTypeFor } from '../../../main/services/issuing/sign-type';
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
    expect(q.unknownDue('sandbox').map((u) => u.id)).toEqual([e.id]);
    q.lookedUp(e.id, 5_000);
    expect(q.unknownDue('sandbox')).toEqual([]);
    expect(q.unknownDue('sandbox', { all: true })).toHaveLength(1);
    q.resolve(e.id, { state: 'issued', transactionId: 'TXA', invNo: '00000009', invoiceCode: null, invDate: null });
    expect(q.get(e.id)).toMatchObject({ state: 'issued', transactionId: 'TXA', invNo: '00000009' });
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
  });
  it('issues cash-register series as cash-register invoices', () => {
    expect(signTypeFor(2, 'cashRegister')).toBe(5);
    expect(signTypeFor(3, 'cashRegister')).toBe(6);
    expect(signTypeFor(5, 'withCode')).toBe(2);
    expect(signTypeFor(6, 'withoutCode')).toBe(3);
  });
});
