import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/services/api';
import { judgeItem } from '../../../main/services/emails/judge';
import { readEnvelopeText } from '../../../common/envelope';
import type { SendEmailData } from '../../../common/model';
import { sampleAnswer, startAnswerServer, type AnswerServer } from '../../support/answer-server';

let server: AnswerServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startAnswerServer();
  client = new ApiClient({ baseUrl: server.baseUrl, token: 'sample-token', timeoutMs: 5_000, retry: false });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

function entry(id: string): SendEmailData {
  return { TransactionID: id, ReceiverName: 'Nguyễn Văn An', ReceiverEmail: 'an@example.vn', CCEmail: null, BCCEmail: null, ReplyEmail: null };
}

function send(ids: string[]) {
  return client.sendEmail({ SendEmailDatas: ids.map(entry), IsInvoiceCode: false });
}

describe('answers the public documentation shows', () => {
  it('success: true with data "" on sendemail is the service accepting the request: every invoice is requested, not unknown', async () => {
    server.answer({ body: sampleAnswer('sendemail-accepted-empty-data') });
    const outcome = await send(['TX-A1', 'TX-B2']);
    expect(outcome.items.map((i) => [i.transactionId, judgeItem(i.status, i.errorCode).state])).toEqual([
      ['TX-A1', 'requested'],
      ['TX-B2', 'requested'],
    ]);
  });

  it('success: false with data "" on sendemail is still not a verdict of acceptance', async () => {
    server.answer({ body: JSON.stringify({ success: false, errorCode: null, errors: [], data: '' }) });
    await expect(send(['TX-A1'])).rejects.toMatchObject({ kind: expect.stringMatching(/unknown_outcome|rejected/) });
  });

  it('a result item without TransactionID is matched when the request held exactly one invoice', async () => {
    server.answer({ body: sampleAnswer('sendemail-item-without-transactionid') });
    const outcome = await send(['TX-ONLY']);
    expect(outcome.items).toHaveLength(1);
    expect(outcome.items[0]).toMatchObject({ transactionId: 'TX-ONLY', status: 3, errorCode: null, ok: true });
    expect(judgeItem(outcome.items[0]!.status, outcome.items[0]!.errorCode).state).toBe('sent');
  });

  it('a result item without TransactionID in a request of two invoices is an unknown outcome, never a guess', async () => {
    server.answer({ body: sampleAnswer('sendemail-item-without-transactionid') });
    await expect(send(['TX-1', 'TX-2'])).rejects.toMatchObject({ kind: 'unknown_outcome' });
  });

  it('ErrorCode [] or {} is no error, and a lower-case errorCode "" beside it does not lose to it (call level and items)', async () => {
    server.answer({ body: sampleAnswer('sendemail-errorcode-empty-list', ['TX-A', 'TX-B']) });
    const outcome = await send(['TX-A', 'TX-B']);
    expect(outcome.callErrorCode).toBeNull();
    expect(outcome.items.map((i) => [i.transactionId, i.errorCode, judgeItem(i.status, i.errorCode).state])).toEqual([
      ['TX-A', null, 'sent'],
      ['TX-B', null, 'requested'],
    ]);
  });

  it('ErrorCode [] beside errorCode "" on a templates answer is a success, not a call-level error "[]"', async () => {
    server.answer({ body: sampleAnswer('templates-errorcode-empty-list') });
    expect(readEnvelopeText(sampleAnswer('templates-errorcode-empty-list')).kind).toBe('success');
    const list = await client.templates();
    expect(list.map((t) => t.InvSeries)).toEqual(['1C26TAA']);
  });

  it('a real code next to an empty spelling still counts, whichever comes first', async () => {
    server.answer({
      body: JSON.stringify({
        success: true,
        errorCode: null,
        errors: [],
        data: [{ TransactionID: 'TX-A', SendEmailStatus: 2, errorCode: '', ErrorCode: ['InvalidEmail'] }],
      }),
    });
    const outcome = await send(['TX-A']);
    expect(outcome.items[0]!.errorCode).toBe('InvalidEmail');
    expect(judgeItem(outcome.items[0]!.status, outcome.items[0]!.errorCode).state).toBe('failed');
  });
});

describe('a per-item ErrorCode of 0, "0", "" or null with SendEmailStatus 3/4 is success', () => {
  it('each of the four spellings reads as no error, and the judge says sent/requested', async () => {
    const ids = ['TX-0', 'TX-1', 'TX-2', 'TX-3'];
    server.answer({ body: sampleAnswer('sendemail-errorcode-zero', ids) });
    const outcome = await send(ids);
    expect(outcome.items.map((i) => [i.transactionId, i.errorCode, i.ok, judgeItem(i.status, i.errorCode).state])).toEqual([
      ['TX-0', null, true, 'sent'],
      ['TX-1', null, true, 'requested'],
      ['TX-2', null, true, 'sent'],
      ['TX-3', null, true, 'requested'],
    ]);
  });

  it('the same spellings on a Download item are no error either', async () => {
    server.answer({
      body: JSON.stringify({
        success: true,
        errorCode: null,
        errors: [],
        data: [
          { TransactionID: 'D0', data: '<x/>', ErrorCode: 0 },
          { TransactionID: 'D1', data: '<x/>', ErrorCode: '0' },
          { TransactionID: 'D2', data: '<x/>', ErrorCode: [] },
          { TransactionID: 'D3', data: '<x/>', ErrorCode: {}, errorCode: '' },
        ],
      }),
    });
    const r = await client.download(['D0', 'D1', 'D2', 'D3'], { type: 'Xml' });
    expect(r.kind === 'items' ? r.items.map((i) => i.errorCode) : r).toEqual([null, null, null, null]);
  });
});
