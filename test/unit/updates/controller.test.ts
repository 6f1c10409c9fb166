import { describe, expect, it } from 'vitest';
import { UpdateStateSchema } from '../../../common/calls/updates';
import { AppError } from '../../../common/errors';
import { DEFAULT_POLICY, UpdateController } from '../../../main/services/updates/controller';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { FakeClock, FakeDriver, offlineError, recorder, settle } from './fakes';

const MIN = 60_000;
const HOUR = 60 * MIN;

function setup() {
  const clock = new FakeClock();
  const driver = new FakeDriver();
  const work = new WorkInProgress({ timers: clock, probeTimeoutMs: 2_000 });
  const rec = recorder();
  const controller = new UpdateController({ driver, work, timers: clock, now: clock.now, publish: rec.publish });
  return { clock, driver, work, rec, controller };
}

async function toReady(s: ReturnType<typeof setup>, version = '1.2.0') {
  s.driver.answers.push({ version });
  s.controller.start();
  await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
  expect(s.controller.state).toEqual({ status: 'ready', version });
}

describe('when the updater checks', () => {
  it('checks shortly after start, not before', async () => {
    const { clock, driver, controller } = setup();
    controller.start();
    expect(controller.state).toMatchObject({ status: 'idle', checkedAt: null });
    expect(DEFAULT_POLICY.initialDelayMs).toBeLessThanOrEqual(2 * MIN);
    await clock.advance(DEFAULT_POLICY.initialDelayMs - 1);
    expect(driver.checks).toBe(0);
    await clock.advance(1);
    expect(driver.checks).toBe(1);
  });

  it('then every few hours while up to date, and says when it checked and will check next', async () => {
    const { clock, driver, controller } = setup();
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(controller.state).toEqual({
      status: 'idle',
      checkedAt: clock.now().toISOString(),
      nextCheckAt: new Date(clock.time + DEFAULT_POLICY.intervalMs).toISOString(),
    });
    expect(DEFAULT_POLICY.intervalMs).toBeGreaterThanOrEqual(2 * HOUR);
    expect(DEFAULT_POLICY.intervalMs).toBeLessThanOrEqual(12 * HOUR);
    await clock.advance(DEFAULT_POLICY.intervalMs - 1);
    expect(driver.checks).toBe(1);
    await clock.advance(1);
    expect(driver.checks).toBe(2);
    await clock.advance(DEFAULT_POLICY.intervalMs * 3);
    expect(driver.checks).toBe(5);
  });

  it('a manual check runs at once and moves the schedule; a second one during it is not a second request', async () => {
    const { clock, driver, controller } = setup();
    controller.start();
    const [a, b] = await Promise.all([controller.checkNow(), controller.checkNow()]);
    expect(driver.checks).toBe(1);
    expect(a.status).toBe('idle');
    expect(b.status).toBe('idle');
    // The initial timer was replaced by the interval.
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(driver.checks).toBe(1);
    expect(clock.nextDelay()).toBe(DEFAULT_POLICY.intervalMs - DEFAULT_POLICY.initialDelayMs);
  });

  it('does nothing before start and after stop, and drops an answer that arrives after stop', async () => {
    const { clock, driver, controller } = setup();
    expect((await controller.checkNow()).status).toBe('idle');
    expect(driver.checks).toBe(0);
    driver.answers.push({ version: '9.9.9' });
    controller.start();
    const pending = controller.checkNow();
    controller.stop();
    await pending;
    expect(driver.downloads).toBe(0);
    expect(controller.state.status).toBe('checking');
    expect(clock.pending).toBe(0);
    await clock.advance(24 * HOUR);
    expect(driver.checks).toBe(1);
  });
});

describe('downloading in the background', () => {
  it('downloads a newer version at once, reports progress that never goes backwards, then is ready', async () => {
    const { clock, driver, controller, rec } = setup();
    driver.holdDownloads = true;
    driver.answers.push({ version: '1.3.0' });
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(controller.state).toEqual({ status: 'downloading', version: '1.3.0', percent: 0, transferred: 0, total: 0 });
    controller.progress({ percent: 41.26, transferred: 4_126_000, total: 10_000_000 });
    expect(controller.state).toMatchObject({ percent: 41.3, transferred: 4_126_000, total: 10_000_000 });
    controller.progress({ percent: 12, transferred: 1_200_000, total: 10_000_000 });
    expect(controller.state).toMatchObject({ percent: 41.3 });
    controller.progress({ percent: 250, transferred: 10_000_000, total: 10_000_000 });
    expect(controller.state).toMatchObject({ percent: 100 });
    driver.finishDownload();
    await settle();
    expect(controller.state).toEqual({ status: 'ready', version: '1.3.0' });
    expect(rec.statuses()).toEqual(['idle', 'checking', 'downloading', 'downloading', 'downloading', 'downloading', 'ready']);
    for (const state of rec.states) expect(UpdateStateSchema.safeParse(state).success).toBe(true);
    // Ready: no more checks, nothing installs by itself.
    await clock.advance(48 * HOUR);
    expect(driver.checks).toBe(1);
    expect(driver.installs).toBe(0);
    controller.progress({ percent: 5, transferred: 1, total: 2 });
    expect(controller.state.status).toBe('ready');
  });

  it('a failed download is retried quietly and downloads again', async () => {
    const { clock, driver, controller } = setup();
    driver.defaultAnswer = { version: '2.0.0' };
    driver.downloadError = offlineError();
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(controller.state).toMatchObject({ status: 'retrying', attempt: 1, offline: true });
    driver.downloadError = undefined;
    await clock.advance(DEFAULT_POLICY.offlineMinMs);
    expect(driver.downloads).toBe(2);
    expect(controller.state).toEqual({ status: 'ready', version: '2.0.0' });
  });
});

describe('failures are retried quietly', () => {
  it('offline: retries after 1, 2, 4 … minutes up to a cap, and back to the normal interval after a success', async () => {
    const { clock, driver, controller, rec } = setup();
    driver.defaultAnswer = offlineError();
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      expect(controller.state).toMatchObject({ status: 'retrying', attempt: i + 1, offline: true });
      const delay = clock.nextDelay()!;
      delays.push(delay);
      await clock.advance(delay);
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 30, 30, 30].map((m) => m * MIN));
    driver.defaultAnswer = null;
    await clock.advance(clock.nextDelay()!);
    expect(controller.state.status).toBe('idle');
    expect(clock.nextDelay()).toBe(DEFAULT_POLICY.intervalMs);
    // Never an error state a screen would show: only the schema's states, and no 'error'.
    expect(new Set(rec.statuses())).toEqual(new Set(['idle', 'checking', 'retrying']));
  });

  it('Chromium net:: errors count as offline', async () => {
    const { clock, driver, controller } = setup();
    driver.answers.push(new Error('net::ERR_INTERNET_DISCONNECTED'));
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(controller.state).toMatchObject({ status: 'retrying', offline: true });
    expect(clock.nextDelay()).toBe(DEFAULT_POLICY.offlineMinMs);
  });

  it('other failures (a broken release, a 404) back off longer, capped at the check interval', async () => {
    const { clock, driver, controller } = setup();
    driver.defaultAnswer = new Error('HttpError: 404 Not Found "latest.yml"');
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      expect(controller.state).toMatchObject({ status: 'retrying', offline: false, attempt: i + 1 });
      delays.push(clock.nextDelay()!);
      await clock.advance(clock.nextDelay()!);
    }
    expect(delays).toEqual([15 * MIN, 30 * MIN, 60 * MIN, 120 * MIN, 240 * MIN, 240 * MIN]);
  });

  it('a retrying updater can still be asked to check now', async () => {
    const { clock, driver, controller } = setup();
    driver.answers.push(offlineError(), null);
    controller.start();
    await clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(controller.state.status).toBe('retrying');
    expect((await controller.checkNow()).status).toBe('idle');
    expect(driver.checks).toBe(2);
  });
});

describe('when it may install', () => {
  it('refuses before an update is downloaded', async () => {
    const { controller } = setup();
    controller.start();
    await expect(controller.requestInstall()).rejects.toBeInstanceOf(AppError);
    await expect(controller.requestInstall()).rejects.toMatchObject({ code: 'update_not_ready' });
  });

  it('installs at once when no work is in progress', async () => {
    const s = setup();
    await toReady(s);
    s.work.register('emails.queue', () => ({ busy: false }));
    const state = await s.controller.requestInstall();
    expect(state).toEqual({ status: 'installing', version: '1.2.0' });
    expect(s.driver.installs).toBe(1);
    await s.controller.requestInstall();
    expect(s.driver.installs).toBe(1);
  });

  it('waits while work is in progress, re-asks, and installs once it is clear', async () => {
    const s = setup();
    await toReady(s);
    let sending = 3;
    s.work.register('emails.queue', () =>
      sending > 0 ? { busy: true, message: { en: `${sending} emails are being sent`, vi: `Đang gửi ${sending} email` } } : { busy: false },
    );
    s.work.register('downloads', async () => ({ busy: false }));
    const state = await s.controller.requestInstall();
    expect(state).toEqual({
      status: 'waiting',
      version: '1.2.0',
      reasons: [{ source: 'emails.queue', message: { en: '3 emails are being sent', vi: 'Đang gửi 3 email' } }],
    });
    expect(s.driver.installs).toBe(0);
    sending = 1;
    await s.clock.advance(DEFAULT_POLICY.workPollMs);
    expect(s.controller.state).toMatchObject({ status: 'waiting', reasons: [{ message: { en: '1 emails are being sent' } }] });
    expect(s.driver.installs).toBe(0);
    sending = 0;
    await s.clock.advance(DEFAULT_POLICY.workPollMs);
    expect(s.controller.state).toEqual({ status: 'installing', version: '1.2.0' });
    expect(s.driver.installs).toBe(1);
    expect(s.clock.pending).toBe(0);
  });

  it('re-asks as soon as a service says its work changed, without waiting for the poll', async () => {
    const s = setup();
    await toReady(s);
    s.work.declare('renderer:draft-7', { en: 'A draft has unsaved changes', vi: 'Hóa đơn nháp chưa được lưu' });
    expect((await s.controller.requestInstall()).status).toBe('waiting');
    s.work.clear('renderer:draft-7');
    await settle();
    expect(s.controller.state.status).toBe('installing');
    expect(s.driver.installs).toBe(1);
  });

  it('a probe that throws or never answers counts as busy', async () => {
    const s = setup();
    await toReady(s);
    let broken = true;
    s.work.register('drafts', () => {
      if (broken) throw new Error('database locked');
      return { busy: false };
    });
    s.work.register('downloads', () => new Promise(() => {}));
    const pending = s.controller.requestInstall();
    await s.clock.advance(2_000);
    const state = await pending;
    expect(state.status).toBe('waiting');
    expect(state.status === 'waiting' && state.reasons.map((r) => r.source).sort()).toEqual(['downloads', 'drafts']);
    expect(s.driver.installs).toBe(0);
    broken = false;
    s.work.register('downloads', () => ({ busy: false }));
    await settle();
    expect(s.controller.state.status).toBe('installing');
  });

  it('cancelling a waiting restart keeps the update ready and installs nothing when the work ends', async () => {
    const s = setup();
    await toReady(s);
    let busy = true;
    s.work.register('emails.queue', () => ({ busy }));
    await s.controller.requestInstall();
    expect(s.controller.cancelInstall()).toEqual({ status: 'ready', version: '1.2.0' });
    busy = false;
    s.work.changed();
    await s.clock.advance(DEFAULT_POLICY.workPollMs * 10);
    expect(s.controller.state.status).toBe('ready');
    expect(s.driver.installs).toBe(0);
    // And asking again installs.
    expect((await s.controller.requestInstall()).status).toBe('installing');
  });

  it('an installer that cannot start leaves the update ready', async () => {
    const s = setup();
    await toReady(s);
    s.driver.install = () => {
      throw new Error('EACCES');
    };
    expect(await s.controller.requestInstall()).toEqual({ status: 'ready', version: '1.2.0' });
  });
});
