import { describe, expect, it } from 'vitest';
import { WorkInProgress } from '../../../main/services/updates/work-in-progress';
import { FakeClock } from './fakes';

describe('the work-in-progress registry', () => {
  it('is clear with no probes, and lists every busy probe and declaration with its reason', async () => {
    const work = new WorkInProgress();
    expect(await work.check()).toEqual({ busy: false, reasons: [] });
    work.register('drafts', () => ({ busy: false }));
    work.register('downloads', async () => ({ busy: true, message: { en: 'Downloading 120 invoices', vi: 'Đang tải 120 hóa đơn' } }));
    work.declare('renderer:draft', { en: 'Unsaved draft', vi: 'Nháp chưa lưu' });
    const check = await work.check();
    expect(check.busy).toBe(true);
    expect(check.reasons).toEqual([
      { source: 'renderer:draft', message: { en: 'Unsaved draft', vi: 'Nháp chưa lưu' } },
      { source: 'downloads', message: { en: 'Downloading 120 invoices', vi: 'Đang tải 120 hóa đơn' } },
    ]);
  });

  it('unregistering and clearing make it clear again, and every change is announced', async () => {
    const work = new WorkInProgress();
    let changes = 0;
    const off = work.onChange(() => changes++);
    const unregister = work.register('emails.queue', () => ({ busy: true }));
    work.declare('k');
    expect((await work.check()).busy).toBe(true);
    unregister();
    work.clear('k');
    work.clear('k');
    expect(await work.check()).toEqual({ busy: false, reasons: [] });
    work.changed();
    expect(changes).toBe(5);
    off();
    work.changed();
    expect(changes).toBe(5);
  });

  it('an old unregister does not remove a newer probe under the same name', async () => {
    const work = new WorkInProgress();
    const first = work.register('emails.queue', () => ({ busy: false }));
    work.register('emails.queue', () => ({ busy: true }));
    first();
    expect((await work.check()).busy).toBe(true);
  });

  it('asks probes in parallel; a slow one counts as busy after the timeout, a broken answer as busy', async () => {
    const clock = new FakeClock();
    const work = new WorkInProgress({ timers: clock, probeTimeoutMs: 1_000 });
    let asked = 0;
    work.register('slow', () => {
      asked++;
      return new Promise(() => {});
    });
    work.register('odd', () => {
      asked++;
      return {} as never;
    });
    const pending = work.check();
    await clock.advance(0);
    expect(asked).toBe(2);
    await clock.advance(1_000);
    const result = await pending;
    expect(result.busy).toBe(true);
    expect(result.reasons.map((r) => r.source).sort()).toEqual(['odd', 'slow']);
    expect(clock.pending).toBe(0);
  });
});
