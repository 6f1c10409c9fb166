import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../main/services/api';
import { checkInput } from '../../../main/services/emails/input';
import { Outbox } from '../../../main/services/emails/outbox';
import { EmailSender } from '../../../main/services/emails/sender';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

/**
 * A service that echoes the caller's Authorization header (and the bare token) into its error
 * texts: what the outbox stores, its history, the sender's status and its log lines hold none of it.
 */
const TOKEN = 'shop-token-7f3a9c1e5b2d4860';

let tmp: { dir: string; cleanup: () => void };
let store: Store;
let server: Server;
let baseUrl = '';
let answer: (auth: string) => { status: number; body: unknown };

beforeEach(async () => {
  tmp = makeTempDir('einvoice-redaction-');
  store = openDatabase(tmp.dir);
  new ProfileService(store);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, body } = answer(req.headers.authorization ?? '');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/integration/invoice`;
});
afterEach(async () => {
  store.close();
  await new Promise((resolve) => server.close(resolve));
  tmp.cleanup();
});

async function flushOnce(outbox: Outbox, logged: string[]) {
  const client = new ApiClient({ baseUrl, token: TOKEN, timeoutMs: 2_000 });
  const session = { profile: { id: 'sandbox' }, token: TOKEN };
  const sender = new EmailSender<typeof session>({
    outbox,
    activeProfileId: () => 'sandbox',
    ready: async () => session,
    reportAuthFailure: () => {},
    send: (_s, parameter, signal) => client.sendEmail(parameter, { signal }),
    batchSize: () => 5,
    backoffBaseMs: 60_000,
    log: (_level, line) => logged.push(line),
  });
  await sender.flush();
  const status = sender.senderStatus();
  await sender.stop();
  await client.close();
  return status;
}

function enqueue(outbox: Outbox, id: string) {
  const r = checkInput({ transactionId: id, receiverEmail: 'buyer@example.com', kind: 'withCode' });
  if (!r.ok) throw new Error(r.problem.en);
  outbox.add('sandbox', [{ input: r.value }]);
}

const leaks = (text: string) => text.includes(TOKEN) || text.includes(TOKEN.slice(0, 16));

describe('text from the service is redacted before it is stored or shown', () => {
  it('a call-level error echoing the Authorization header and the token leaves neither in the outbox, its history, the status or the log', async () => {
    answer = (auth) => ({
      status: 400,
      body: { success: false, errorCode: 'BadRequest', descriptionErrorCode: `Header Authorization: ${auth}; token=${auth.slice(7)}; caller ${auth.slice(7)}` },
    });
    const outbox = new Outbox(store, { claimAlive: () => true });
    enqueue(outbox, 'TX-ECHO-1');
    const logged: string[] = [];
    const status = await flushOnce(outbox, logged);
    const entry = outbox.list('sandbox').items[0]!;
    expect(entry.state).toBe('failed');
    const stored = JSON.stringify(store.db.prepare('SELECT * FROM email_outbox').all());
    expect(stored).toContain('Authorization');
    expect(leaks(stored)).toBe(false);
    expect(leaks(JSON.stringify(status))).toBe(false);
    expect(leaks(logged.join('\n'))).toBe(false);
    // Sent again by hand: the earlier outcome goes to the history, still redacted.
    outbox.requeue([entry.id], 'resend');
    expect(leaks(JSON.stringify(store.db.prepare('SELECT * FROM email_attempts').all()))).toBe(false);
  });

  it('a per-invoice error code echoing the token is stored without it', async () => {
    answer = (auth) => ({
      status: 200,
      body: { success: true, data: JSON.stringify([{ TransactionID: 'TX-ECHO-2', SendEmailStatus: 2, ErrorCode: `Refused ${auth}` }]) },
    });
    const outbox = new Outbox(store, { claimAlive: () => true });
    enqueue(outbox, 'TX-ECHO-2');
    await flushOnce(outbox, []);
    const stored = JSON.stringify(store.db.prepare('SELECT * FROM email_outbox').all());
    expect(outbox.list('sandbox').items[0]!.state).toBe('failed');
    expect(leaks(stored)).toBe(false);
  });
});
