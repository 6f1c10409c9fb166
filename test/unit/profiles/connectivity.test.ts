import { expect, it } from 'vitest';
import { EventBus } from '../../../common/ipc/bus';
import { Connectivity } from '../../../main/services/connectivity/connectivity';

it('publishes app.online on changes only, and re-checks with backoff while offline', async () => {
  const bus = new EventBus();
  const events: boolean[] = [];
  bus.on('app.online', (e) => events.push(e.online));
  let reachable = false;
  const probes: number[] = [];
  const started = Date.now();
  const c = new Connectivity({
    bus,
    probe: async () => {
      probes.push(Date.now() - started);
      return reachable;
    },
    onlineIntervalMs: 10_000,
    offlineMinMs: 20,
    offlineMaxMs: 80,
  });
  c.start();
  await new Promise((r) => setTimeout(r, 400));
  expect(events).toEqual([false]);
  // Backoff: 20, 40, 80, 80, … ms apart — far fewer probes than a fixed 20 ms poll.
  expect(probes.length).toBeGreaterThanOrEqual(4);
  expect(probes.length).toBeLessThan(12);
  const gaps = probes.slice(1).map((t, i) => t - probes[i]!);
  expect(gaps.at(-1)!).toBeGreaterThanOrEqual(60);
  reachable = true;
  await new Promise((r) => setTimeout(r, 150));
  expect(events).toEqual([false, true]);
  expect(c.online).toBe(true);
  const count = probes.length;
  await new Promise((r) => setTimeout(r, 100));
  expect(probes.length).toBe(count); // online: next check only after onlineIntervalMs
  reachable = false;
  expect(await c.check()).toBe(false);
  expect(events).toEqual([false, true, false]);
  c.stop();
});
