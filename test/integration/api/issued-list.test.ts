/** paging, publishView and voucherPaper against the sandbox on 127.0.0.1: variants, growth while paging, real PDFs. */
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vietnamToday } from '../../../common/rules';
import { ApiClient, isApiError, pageAll, type IssuedListItem } from '../../../main/services/api';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { issuingData } from '../sandbox/issuing-support';

let sb: Sandbox;
let client: ApiClient;
const today = vietnamToday(new Date());
const yy = today.slice(2, 4);

beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 600, seed: 23 });
  client = new ApiClient({ baseUrl: sb.baseUrl, token: sb.devToken, timeoutMs: 5_000, retry: { retries: 1, baseDelayMs: 5 } });
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

async function issueOne(series = `1C${yy}TAA`): Promise<string> {
  const data = issuingData({ InvDate: today, InvSeries: series });
  const out = await client.issue([data], { signType: 2, certificateSN: sb.certificate().CertificateSN });
  const tx = out.items[0]?.transactionId;
  if (!tx) throw new Error(`not issued: ${out.items[0]?.errorCode}`);
  return tx;
}

const liveWithCode = (): string[] => sb.catalogue.list('withCode').filter((id) => !sb.catalogue.get(id)?.deleted);

async function everything(kind: 'withCode' | 'withoutCode' | 'cashRegister', take = 100): Promise<IssuedListItem[]> {
  const all: IssuedListItem[] = [];
  await pageAll(
    (skip, t) => client.paging({ from: '2000-01-01', to: '2099-12-31', kind, skip, take: t }),
    (fresh) => void all.push(...fresh),
    take,
  );
  return all;
}

describe('paging', () => {
  it('lists every live invoice of a kind once, with totals, buyer and status fields', async () => {
    const all = await everything('withCode');
    expect(all.map((i) => i.transactionId).sort()).toEqual(liveWithCode().sort());
    const first = all[0]!;
    const inv = sb.catalogue.get(first.transactionId)!;
    expect(first).toMatchObject({ invSeries: inv.InvSeries, invNo: inv.InvNo, invDate: inv.InvDate, kind: 'withCode', sendTaxStatus: 2, eInvoiceStatus: 1 });
    expect(first.totalOC).toBe(String(inv.TotalAmountOC));
    expect(first.buyerName).toBe(inv.BuyerLegalName || inv.BuyerFullName);
  });

  it.each([
    { casing: 'pascal', dataEncoding: 'object' },
    { casing: 'camel', dataEncoding: 'double' },
    { casing: 'pascal', dataEncoding: 'string' },
  ] as const)('reads the same page under %o', async (quirks) => {
    const plain = await client.paging({ from: '2000-01-01', to: '2099-12-31', kind: 'withoutCode', skip: 0, take: 20 });
    sb.setQuirks(quirks);
    try {
      const page = await client.paging({ from: '2000-01-01', to: '2099-12-31', kind: 'withoutCode', skip: 0, take: 20 });
      expect(page.totalCount).toBe(plain.totalCount);
      expect(page.items.map((i) => i.transactionId)).toEqual(plain.items.map((i) => i.transactionId));
    } finally {
      sb.reset();
    }
  });

  it('filters by series and date; refuses Take over 100 before sending', async () => {
    const series = `2C${yy}TBB`;
    const page = await client.paging({ from: '2000-01-01', to: '2099-12-31', kind: 'withCode', series: [series], skip: 0, take: 100 });
    expect(page.totalCount).toBe(liveWithCode().filter((id) => sb.catalogue.get(id)?.InvSeries === series).length);
    expect(page.items.every((i) => i.invSeries === series)).toBe(true);
    const day = page.items[0]!.invDate!;
    const oneDay = await client.paging({ from: day, to: day, kind: 'withCode', skip: 0, take: 100 });
    expect(oneDay.items.every((i) => i.invDate === day)).toBe(true);
    await expect(client.paging({ from: day, to: day, kind: 'withCode', skip: 0, take: 101 })).rejects.toMatchObject({ kind: 'config' });
  });

  it('an invoice issued while the list is paged is seen once, none lost (pages shift: de-duplicated by TransactionID)', async () => {
    const before = await everything('withCode');
    const ids: string[] = [];
    let issuedDuring = '';
    let pages = 0;
    await pageAll(
      async (skip, take) => {
        if (++pages === 2) issuedDuring = await issueOne(); // newest first: every later page shifts by one
        return client.paging({ from: '2000-01-01', to: '2099-12-31', kind: 'withCode', skip, take });
      },
      (fresh) => void ids.push(...fresh.map((i) => i.transactionId)),
      50,
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(issuedDuring);
    expect(ids.length).toBe(before.length + 1);
  });

  it('an invoice issued through the API appears in the list once statusDelayMs has passed', async () => {
    sb.setQuirks({ statusDelayMs: 60_000 });
    try {
      const tx = await issueOne(`1K${yy}TAA`);
      const hidden = await client.paging({ from: today, to: today, kind: 'withoutCode', skip: 0, take: 100 });
      expect(hidden.items.map((i) => i.transactionId)).not.toContain(tx);
      sb.setQuirks({ statusDelayMs: 0 });
      const shown = await client.paging({ from: today, to: today, kind: 'withoutCode', skip: 0, take: 100 });
      expect(shown.items.find((i) => i.transactionId === tx)).toMatchObject({ invDate: today, sendTaxStatus: 0, referenceType: 0 });
    } finally {
      sb.reset();
    }
  });
});

async function pdfText(bytes: Uint8Array): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(doc, { mergePages: true });
  return text.normalize('NFC');
}

describe('publishView', () => {
  it('fetches the viewer PDF at once and sends the CompanyTaxCode header', async () => {
    const id = liveWithCode()[0]!;
    const view = await client.publishView([id], { companyTaxCode: sb.credentials.taxcode });
    expect(Buffer.from(view.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(await pdfText(view.bytes)).toContain(id);
    const sent = sb.requests({ op: 'publishview' }).at(-1)!;
    expect(sent.headers.companytaxcode).toBe(sb.credentials.taxcode);
  });

  it('an unknown invoice or a wrong tax code is refused with the service code', async () => {
    const id = liveWithCode()[0]!;
    const code = async (p: Promise<unknown>): Promise<string | null | undefined> =>
      p.then(
        () => 'ok',
        (e: unknown) => (isApiError(e) ? e.serviceCode : String(e)),
      );
    expect(await code(client.publishView(['NOPE000000']))).toBe('InvoiceNotExist');
    expect(await code(client.publishView([id], { companyTaxCode: '0100000000' }))).toBe('InvalidTaxCode');
  });
});

describe('voucherPaper', () => {
  it('returns a real PDF per invoice titled as a converted copy, with converter and date', async () => {
    const ids = liveWithCode().slice(0, 2);
    const items = await client.voucherPaper([...ids, 'NOPE000000'], { converter: 'Nguyễn Thị Hồng', date: '2026-10-05', kind: 'withCode' });
    expect(items.map((i) => [i.transactionId, i.errorCode])).toEqual([
      [ids[0], null],
      [ids[1], null],
      ['NOPE000000', 'InvoiceNotExist'],
    ]);
    const text = await pdfText(items[0]!.bytes!);
    expect(text).toContain('HÓA ĐƠN CHUYỂN ĐỔI TỪ HÓA ĐƠN ĐIỆN TỬ');
    expect(text).toContain('Nguyễn Thị Hồng');
    expect(text).toContain('05/10/2026');
    expect(text).toContain(sb.catalogue.get(ids[0]!)!.InvNo!);
  });

  it('reads the JSON-in-string data under either casing', async () => {
    sb.setQuirks({ casing: 'pascal', dataEncoding: 'double', itemDataField: 'mixed' });
    try {
      const ids = liveWithCode().slice(0, 2);
      const items = await client.voucherPaper(ids, { converter: 'An', date: '2026-10-05', kind: 'withCode' });
      expect(items.every((i) => i.bytes !== null && i.errorCode === null)).toBe(true);
    } finally {
      sb.reset();
    }
  });
});
