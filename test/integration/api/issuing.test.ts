import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDraft, emptyLine, issuingForm, type InvoiceDraft } from '../../../common/money';
import type { IssuingInvoiceData } from '../../../common/model/issuing';
import { vietnamToday } from '../../../common/rules';
import { ApiClient, isApiError } from '../../../main/services/api';
import { startSandbox, type Sandbox } from '../../../main/sandbox';

let sb: Sandbox;
let client: ApiClient;
let cert: string;

beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 50, seed: 11 });
  client = new ApiClient({ baseUrl: sb.baseUrl, token: sb.devToken, timeoutMs: 2_000, retry: { retries: 1, baseDelayMs: 5 } });
  cert = sb.certificate().CertificateSN;
});
afterAll(async () => {
  await client?.close();
  await sb?.close();
});

function invoice(o: Partial<InvoiceDraft> = {}): IssuingInvoiceData {
  return issuingForm(
    emptyDraft({
      RefID: randomUUID(),
      InvDate: vietnamToday(new Date()),
      InvSeries: '1K26TAA',
      InvoiceName: 'Hóa đơn giá trị gia tăng',
      PaymentMethodName: 'TM/CK',
      BuyerLegalName: 'Công ty TNHH Hồ Tây',
      BuyerTaxCode: '0101243150',
      BuyerAddress: 'Hà Nội',
      lines: [{ ...emptyLine(1), ItemName: 'Trà', UnitName: 'hộp', Quantity: '2', UnitPrice: '150000', VATRateName: '10%' }],
      ...o,
    }),
  ).data;
}

async function failureOf(p: Promise<unknown>): Promise<{ kind: string; code: string | null | undefined; requests: number; words?: string }> {
  const before = sb.requests({ op: 'issue' }).length;
  try {
    await p;
    return { kind: 'ok', code: null, requests: sb.requests({ op: 'issue' }).length - before };
  } catch (error) {
    if (!isApiError(error)) throw error;
    return { kind: error.kind, code: error.serviceCode, requests: sb.requests({ op: 'issue' }).length - before, words: `${error.messageVi}\n${error.message}` };
  }
}

describe('ApiClient issue, status and certificates against the sandbox', () => {
  it.each([
    { casing: 'camel', publishResultEncoding: 'string', publishItemCasing: 'pascal' },
    { casing: 'pascal', publishResultEncoding: 'list', publishItemCasing: 'camel' },
    { casing: 'pascal', publishResultEncoding: 'string', publishItemCasing: 'camel' },
  ] as const)('reads publishInvoiceResult in every shape (%o)', async (quirks) => {
    sb.setQuirks(quirks);
    const a = invoice();
    const b = invoice({ InvSeries: '1K26TXX' });
    const out = await client.issue([a, b], { signType: 2, certificateSN: cert });
    const good = out.items.find((i) => i.refId === a.RefID)!;
    const bad = out.items.find((i) => i.refId === b.RefID)!;
    expect(good.ok).toBe(true);
    expect(good.transactionId).toBe(sb.issued().find((x) => x.RefID === a.RefID)!.TransactionID);
    expect(good.invNo).toMatch(/^\d{8}$/);
    // A failed item inside an envelope that says success.
    expect(out.envelopeSuccess).toBe(true);
    expect(bad.ok).toBe(false);
    expect(bad.errorCode).toBe('InvoiceTemplateNotExist');
    sb.setQuirks({ casing: 'camel', publishResultEncoding: 'string', publishItemCasing: 'pascal' });
  });

  it('refuses sign type 1 and a missing certificate without sending anything', async () => {
    const usb = await failureOf(client.issue([invoice()], { signType: 1 as never }));
    expect(usb).toMatchObject({ kind: 'config', requests: 0 });
    // The choices by the names the Settings screen gives them, not the service's numbers.
    expect(usb.words).toContain('hãy chọn "Ký HSM" hoặc "Máy tính tiền" trong Cài đặt');
    expect(usb.words).toContain('choose "HSM signature" or "Cash register" in Settings');
    expect(usb.words).not.toMatch(/\(\d\)/);
    const noCert = await failureOf(client.issue([invoice()], { signType: 2 }));
    expect(noCert.kind).toBe('config');
    expect(noCert.requests).toBe(0);
  });

  it('never sends an issue twice: a reset after the invoice was recorded is an unknown outcome', async () => {
    sb.setFaults({ issue: { reset: 1, limit: 1 } });
    const inv = invoice();
    const r = await failureOf(client.issue([inv], { signType: 2, certificateSN: cert }));
    expect(r.kind).toBe('unknown_outcome');
    expect(r.requests).toBe(1);
    // The service recorded it before the connection dropped: one request, one invoice.
    expect(sb.issueAttempts(inv.RefID)[0]).toMatchObject({ requests: 1, recorded: 1 });
    sb.setFaults({});
  });

  it('a call-level refusal is a rejection (nothing issued), a timeout after sending is unknown', async () => {
    const tooMany = await failureOf(
      client.issue(
        Array.from({ length: 51 }, () => invoice()),
        { signType: 2, certificateSN: cert },
      ),
    );
    expect(tooMany).toMatchObject({ kind: 'rejected', code: 'InvoiceQuantityTooLarge', requests: 0 });
    sb.setFaults({ issue: { hang: 1, limit: 1 } });
    const inv = invoice();
    const hung = await failureOf(client.issue([inv], { signType: 2, certificateSN: cert }));
    expect(hung).toMatchObject({ kind: 'unknown_outcome', requests: 1 });
    expect(sb.issued().filter((x) => x.RefID === inv.RefID)).toHaveLength(1);
    sb.setFaults({});
  });

  it('looks invoices up by RefID and by TransactionID, and lists the certificate', async () => {
    const inv = invoice();
    const out = await client.issue([inv], { signType: 2, certificateSN: cert });
    const tx = out.items[0]!.transactionId!;
    const byRef = await client.status([inv.RefID, randomUUID()], { by: 'refId', kind: 'withoutCode' });
    expect(byRef).toHaveLength(1);
    expect(byRef[0]).toMatchObject({ refId: inv.RefID, transactionId: tx, publishStatus: 1, invNo: out.items[0]!.invNo });
    const byTx = await client.status([tx], { by: 'transactionId', kind: 'withoutCode' });
    expect(byTx[0]?.refId).toBe(inv.RefID);
    expect(await client.status([tx], { by: 'transactionId', kind: 'withCode' })).toEqual([]);
    const certs = await client.certificates();
    expect(certs.map((c) => c.certificateSN)).toEqual([cert]);
  });
});
