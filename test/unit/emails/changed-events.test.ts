import { afterEach, beforeEach, expect, it } from 'vitest';
import { EventBus } from '../../../common/ipc/bus';
import { apiErrors } from '../../../main/services/api';
import { EmailService, type EmailServiceDeps } from '../../../main/services/emails';
import { ProfileService } from '../../../main/services/profiles';
import { openDatabase, type Store } from '../../../main/services/store';
import { makeTempDir } from '../../support/temp-dir';

let tmp: { dir: string; cleanup: () => void };
let store: Store;
let emails: EmailService;
const published: unknown[] = [];
/** Longer than the 250 ms between two events. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

function service(extra: Partial<EmailServiceDeps> = {}): EmailService {
  const bus = new EventBus();
  bus.on('emails.changed', (status) => void published.push(status));
  return new EmailService({
    store,
    bus,
    activeProfileId: () => 'sandbox',
    isOnline: () => false,
    gate: { ready: async () => ({ profile: { id: 'sandbox' } }) as never, reportAuthFailure: async () => {} },
    ...extra,
  });
}

beforeEach(() => {
  tmp = makeTempDir('einvoice-email-events-');
  store = openDatabase(tmp.dir);
  new ProfileService(store);
  published.length = 0;
  emails = service();
});
afterEach(async () => {
  await emails.stop();
  store.close();
  tmp.cleanup();
});

it('publishes emails.changed when the queue or the sender changed, not for an offline sender that found nothing new', async () => {
  const { added } = emails.add([{ transactionId: 'TX1', receiverEmail: 'a@example.com' }]);
  await settle();
  expect(published).toHaveLength(1);
  // Offline: every look finds the entry due and the PC offline. The first turns the sender offline.
  for (let i = 0; i < 3; i++) {
    await emails.flush();
    await settle();
  }
  expect(published).toHaveLength(2);
  expect(published[1]).toMatchObject({ sender: { state: 'offline' }, counts: { queued: 1 } });
  // An edited entry changes no count and no status, and still goes out: the open screen shows the new name.
  emails.update(added[0]!, { receiverName: 'Cửa hàng Hoa Mai' });
  await settle();
  expect(published).toHaveLength(3);
});

it('publishes every pass that changed entries, even when the counts and the sender state come out as before', async () => {
  await emails.stop();
  // Each pass claims the entry, the service refuses the sign-in, the entry goes back to the queue
  // and the sender waits for the next sign-in.
  let refused = false;
  const session = { profile: { id: 'sandbox' } } as never;
  emails = service({
    isOnline: () => true,
    gate: {
      ready: (signal) =>
        refused ? new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('stopped')))) : Promise.resolve(session),
      reportAuthFailure: async () => void (refused = true),
    },
    send: async () => {
      throw apiErrors.auth({ operation: 'sendemail', serviceCode: 'TokenExpiredCode' });
    },
  });
  emails.add([{ transactionId: 'TX1', receiverEmail: 'a@example.com' }]);
  await emails.flush({ signInTimeoutMs: 50 });
  await settle();
  const first = published.length;
  refused = false; // signed in again
  await emails.flush({ signInTimeoutMs: 50 });
  await settle();
  expect(published).toHaveLength(first + 1);
  expect(published.at(-1)).toEqual(published.at(-2));
  expect(published.at(-1)).toMatchObject({ sender: { state: 'paused' }, counts: { queued: 1 } });
});
