import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../common/calls/updates';
import { EventBus } from '../../../common/ipc/bus';
import { DEFAULT_POLICY } from '../../../main/services/updates/controller';
import { resolveUpdaterMode } from '../../../main/services/updates/mode';
import { UpdatesService } from '../../../main/services/updates/service';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { createServices } from '../../../main/services/index';
import { FakeClock, FakeDriver } from './fakes';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function setup(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'updates-'));
  dirs.push(dataDir);
  const clock = new FakeClock();
  const bus = new EventBus();
  const events: UpdateState[] = [];
  bus.on('updates.state', (s) => events.push(s));
  const work = new WorkInProgress({ timers: clock });
  const service = new UpdatesService({ bus, dataDir, work, now: clock.now, timers: clock });
  const driver = new FakeDriver();
  const active: boolean[] = [];
  const attach = () =>
    service.attach({
      driver,
      resolveMode: (settingEnabled) => resolveUpdaterMode({ env, argv: [], isPackaged: true, platform: 'win32', settingEnabled }),
      setActive: (on) => active.push(on),
    });
  return { dataDir, clock, bus, events, work, service, driver, attach, active, h: service.handlers() };
}

const ctx = { host: 'electron' as const };

describe('the updates service', () => {
  it('without the Electron host (browser host, CLI) it is disabled: unsupported, and restart is refused', async () => {
    const s = setup();
    expect(await s.h['updates.status']({}, ctx)).toEqual({ status: 'disabled', reason: 'unsupported' });
    expect(await s.h['updates.check']({}, ctx)).toEqual({ status: 'disabled', reason: 'unsupported' });
    await expect(Promise.resolve().then(() => s.h['updates.restart']({}, ctx))).rejects.toMatchObject({ code: 'update_not_ready' });
  });

  it('ELECTRON_NO_UPDATER=1: disabled (env), never asks the feed, even when time passes or a check is asked for', async () => {
    const s = setup({ ELECTRON_NO_UPDATER: '1' });
    s.attach();
    expect(s.service.state).toEqual({ status: 'disabled', reason: 'env' });
    expect(s.active).toEqual([false]);
    await s.h['updates.check']({}, ctx);
    await s.clock.advance(3 * 24 * 3600_000);
    expect(s.driver.checks).toBe(0);
    // The in-app switch cannot turn it back on.
    expect(await s.h['updates.setEnabled']({ enabled: true }, ctx)).toEqual({ status: 'disabled', reason: 'env' });
    expect(s.driver.checks).toBe(0);
  });

  it('the setting turns it off and on, is kept in the data folder, and is honoured at the next start', async () => {
    const s = setup();
    s.attach();
    expect(s.service.state.status).toBe('idle');
    expect(await s.h['updates.setEnabled']({ enabled: false }, ctx)).toEqual({ status: 'disabled', reason: 'setting' });
    expect(JSON.parse(fs.readFileSync(path.join(s.dataDir, 'updates.json'), 'utf8'))).toEqual({ enabled: false });
    await s.clock.advance(24 * 3600_000);
    expect(s.driver.checks).toBe(0);
    expect(s.events.at(-1)).toEqual({ status: 'disabled', reason: 'setting' });

    // A new run (same data folder) starts off.
    const again = new UpdatesService({ bus: new EventBus(), dataDir: s.dataDir, work: new WorkInProgress(), timers: s.clock, now: s.clock.now });
    again.attach({ driver: s.driver, resolveMode: (on) => resolveUpdaterMode({ env: {}, argv: [], isPackaged: true, platform: 'win32', settingEnabled: on }) });
    expect(again.state).toEqual({ status: 'disabled', reason: 'setting' });

    expect((await s.h['updates.setEnabled']({ enabled: true }, ctx)).status).toBe('idle');
    expect(s.active).toEqual([true, false, true]);
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    expect(s.driver.checks).toBe(1);
  });

  it('publishes every state on the bus and answers status with the latest; progress flows through', async () => {
    const s = setup();
    s.driver.holdDownloads = true;
    s.driver.answers.push({ version: '0.2.0' });
    s.attach();
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    s.service.progress({ percent: 50, transferred: 5, total: 10 });
    expect(s.bus.latest('updates.state')).toMatchObject({ status: 'downloading', percent: 50 });
    expect(await s.h['updates.status']({}, ctx)).toEqual(s.bus.latest('updates.state'));
    s.driver.finishDownload();
    await s.clock.advance(0);
    expect(s.events.map((e) => e.status)).toEqual(['idle', 'checking', 'downloading', 'downloading', 'ready']);
  });

  it('the renderer declares unsaved work; restart waits for it, then installs when it is cleared', async () => {
    const s = setup();
    s.driver.answers.push({ version: '0.2.0' });
    s.attach();
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    await s.h['updates.declareWork']({ key: 'draft-editor', busy: true, message: { en: 'Unsaved draft', vi: 'Nháp chưa lưu' } }, ctx);
    expect(await s.h['updates.restart']({}, ctx)).toEqual({
      status: 'waiting',
      version: '0.2.0',
      reasons: [{ source: 'renderer:draft-editor', message: { en: 'Unsaved draft', vi: 'Nháp chưa lưu' } }],
    });
    expect(s.driver.installs).toBe(0);
    await s.h['updates.declareWork']({ key: 'draft-editor', busy: false }, ctx);
    await s.clock.advance(0);
    expect(s.service.state).toEqual({ status: 'installing', version: '0.2.0' });
    expect(s.driver.installs).toBe(1);
  });

  it('the renderer cannot grow the registry without bound', async () => {
    const s = setup();
    for (let i = 0; i < 32; i++) await s.h['updates.declareWork']({ key: `k${i}`, busy: true }, ctx);
    // Re-declaring a known key is fine; a 33rd is refused; clearing one makes room again.
    await s.h['updates.declareWork']({ key: 'k0', busy: true }, ctx);
    await expect(Promise.resolve().then(() => s.h['updates.declareWork']({ key: 'k32', busy: true }, ctx))).rejects.toMatchObject({
      code: 'too_many_declarations',
    });
    await s.h['updates.declareWork']({ key: 'k5', busy: false }, ctx);
    await s.h['updates.declareWork']({ key: 'k32', busy: true }, ctx);
    expect((await s.work.check()).reasons).toHaveLength(32);
  });

  it('cancelRestart turns waiting back into ready', async () => {
    const s = setup();
    s.driver.answers.push({ version: '0.2.0' });
    s.attach();
    await s.clock.advance(DEFAULT_POLICY.initialDelayMs);
    s.work.register('emails.queue', () => ({ busy: true, message: { en: 'Sending', vi: 'Đang gửi' } }));
    expect((await s.h['updates.restart']({}, ctx)).status).toBe('waiting');
    expect(await s.h['updates.cancelRestart']({}, ctx)).toEqual({ status: 'ready', version: '0.2.0' });
  });
});

describe('composed into Services', () => {
  it('every host gets the updates calls through dispatch, and services can register work probes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'updates-services-'));
    dirs.push(dataDir);
    const services = await createServices({ dataDir, version: '0.1.0', host: 'browser' });
    try {
      expect(await services.dispatch('updates.status', {}, { host: 'browser' })).toEqual({
        ok: true,
        value: { status: 'disabled', reason: 'unsupported' },
      });
      const refused = await services.dispatch('updates.restart', {}, { host: 'browser' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'update_not_ready' } });
      const bad = await services.dispatch('updates.declareWork', { key: '', busy: 'yes' }, { host: 'browser' });
      expect(bad).toMatchObject({ ok: false, error: { code: 'validation' } });
      services.work.register('emails.queue', () => ({ busy: true, message: { en: 'Sending 2 emails', vi: 'Đang gửi 2 email' } }));
      expect(await services.work.check()).toEqual({
        busy: true,
        reasons: [{ source: 'emails.queue', message: { en: 'Sending 2 emails', vi: 'Đang gửi 2 email' } }],
      });
    } finally {
      await services.close();
    }
  });
});
