import { afterAll, describe, expect, it } from 'vitest';
import { recordHardening } from '../../support/hardening-report';
import { Outbox } from '../../../main/services/emails/outbox';
import { openDatabase } from '../../../main/services/store';
import { cliSandbox, runCli, spawnCli } from './cli-support';

/**
 * The real CLI against a sandbox whose sendemail hangs (or says "come back later"): SIGINT and
 * SIGTERM end it within a second, and the queue is consistent afterwards — the request in flight
 * is `unknown` (it may have reached the service, so it is never sent again), an entry waiting for
 * its back-off is still `queued`.
 */
const ctx = cliSandbox('einvoice-emails-signals-', { seed: 11, invoiceCount: 60 });

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function stateOf(transactionId: string): string | undefined {
  const store = openDatabase(`${ctx.dir}/data`);
  try {
    return new Outbox(store, { claimAlive: () => true }).list('sandbox', { search: transactionId }).items.find((e) => e.transactionId === transactionId)?.state;
  } finally {
    store.close();
  }
}

const exits: number[] = [];
afterAll(() => {
  if (exits.length > 0) recordHardening('cli-signals', { interrupted: exits.length, slowestExitMs: Math.max(...exits) });
});

/** Starts the command, waits for `ready`, sends the signal; the time from signal to exit. */
async function interrupt(args: string[], signal: NodeJS.Signals, ready: () => boolean): Promise<{ ms: number; code: number | null; stderr: string }> {
  const { child, done } = spawnCli([...args, '--json', ...ctx.api()], ctx.env(), ctx.dir);
  try {
    await until(ready, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const started = Date.now();
  child.kill(signal);
  const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  const r = await done;
  clearTimeout(killer);
  const ms = Date.now() - started;
  exits.push(ms);
  console.log(`einvoice ${args[0]} ${args[1] ?? ''}: ${signal} → exit ${r.code} in ${ms} ms`);
  return { ms, code: r.code, stderr: r.stderr };
}

const sendemails = () => ctx.sb.requests({ op: 'sendemail' }).length;

describe('SIGINT and SIGTERM end the CLI within a second with the queue consistent', () => {
  it('einvoice email ends within a second of SIGINT while its request hangs, and the entry is unknown', async () => {
    ctx.sb.setFaults({ sendemail: { hang: 1 } });
    const id = ctx.sb.catalogue.list('withCode')[0]!;
    const before = sendemails();
    const r = await interrupt(['email', '--id', id, '--to', 'a@example.com'], 'SIGINT', () => sendemails() > before);
    expect(r.ms, r.stderr).toBeLessThan(1_000);
    expect(r.code).not.toBeNull();
    expect(stateOf(id)).toBe('unknown');
    expect(sendemails() - before).toBe(1);
  });

  it('einvoice queue flush ends within a second of SIGTERM while its request hangs, and the entry is unknown', async () => {
    ctx.sb.setFaults({ sendemail: { hang: 1 } });
    const id = ctx.sb.catalogue.list('withCode')[1]!;
    const queued = await runCli(['email', '--id', id, '--to', 'b@example.com', '--no-send', ...ctx.api()], ctx.env(), ctx.dir);
    expect(queued.code, queued.stderr).toBe(0);
    const before = sendemails();
    const r = await interrupt(['queue', 'flush'], 'SIGTERM', () => sendemails() > before);
    expect(r.ms, r.stderr).toBeLessThan(1_000);
    expect(stateOf(id)).toBe('unknown');
    expect(sendemails() - before).toBe(1);
  });

  it('the back-off wait honours the signal: SIGINT during a 30 s Retry-After ends within a second, the entry still queued', async () => {
    ctx.sb.setFaults({ sendemail: { status429: 1, retryAfterS: 30 } });
    const id = ctx.sb.catalogue.list('withCode')[2]!;
    const before = sendemails();
    const r = await interrupt(['email', '--id', id, '--to', 'c@example.com'], 'SIGINT', () => sendemails() > before);
    expect(r.ms, r.stderr).toBeLessThan(1_000);
    expect(stateOf(id)).toBe('queued');
    ctx.sb.setFaults({});
  });
});
