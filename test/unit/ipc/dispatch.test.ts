import { describe, expect, it } from 'vitest';
import { callNames } from '../../../common/contract';
import { AppError } from '../../../common/errors';
import { buildHostApi, CallError, createBridge } from '../../../common/ipc/bridge';
import { EventBus } from '../../../common/ipc/bus';
import { createDispatch, type ContractHandlers } from '../../../common/ipc/dispatch';

const ctx = { host: 'browser' as const };
const goodInfo = { version: '1', dataDir: '/d', connectionKind: 'sandbox', host: 'browser', online: false };
const withInfo = (impl: () => unknown) => ({ 'app.info': impl }) as unknown as ContractHandlers;

describe('dispatch', () => {
  it('refuses a name that is not in the contract', async () => {
    const dispatch = createDispatch(withInfo(() => goodInfo));
    for (const name of ['app.nope', '__proto__', 'constructor', 42, null]) {
      await expect(dispatch(name, {}, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    }
  });

  it('passes an AppError through with both languages', async () => {
    const dispatch = createDispatch(
      withInfo(() => {
        throw new AppError('offline', { en: 'No connection.', vi: 'Mất kết nối.' }, { retryable: true });
      }),
    );
    await expect(dispatch('app.info', {}, ctx)).resolves.toEqual({
      ok: false,
      error: { code: 'offline', message: 'No connection.', messageVi: 'Mất kết nối.', retryable: true },
    });
  });

  it('hides unexpected failures behind a plain message and reports them to the log', async () => {
    const seen: string[] = [];
    const dispatch = createDispatch(
      withInfo(() => {
        throw new Error('secret internals at /opt/einvoice/x.ts:1:1');
      }),
      (name, error) => seen.push(`${name}: ${(error as Error).message}`),
    );
    const result = await dispatch('app.info', {}, ctx);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain('internals');
    expect(seen).toEqual(['app.info: secret internals at /opt/einvoice/x.ts:1:1']);
  });

  it('refuses to return a response that breaks its schema', async () => {
    const dispatch = createDispatch(withInfo(() => ({ ...goodInfo, online: 'yes' })));
    await expect(dispatch('app.info', {}, ctx)).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});

describe('host API and bridge', () => {
  it('derives one function per contract call plus `on`', () => {
    const api = buildHostApi(
      async () => undefined,
      () => () => {},
    );
    expect(
      Object.keys(api)
        .filter((k) => k !== 'on')
        .sort(),
    ).toEqual([...callNames].sort());
    expect(Object.isFrozen(api)).toBe(true);
    expect(() => api.on('nope' as never, () => {})).toThrow(/Unknown event/);
  });

  it('unwraps values as the dispatch made them and turns errors into CallError', async () => {
    let answer: unknown = { ok: true, value: goodInfo };
    const bridge = createBridge(
      buildHostApi(
        async () => answer,
        () => () => {},
      ),
    );
    // The dispatch that made the value parsed it; the bridge hands it on as it came.
    await expect(bridge.call('app.info', {})).resolves.toBe(goodInfo);
    answer = { ok: false, error: { code: 'offline', message: 'No connection.', messageVi: 'Mất kết nối.' } };
    await expect(bridge.call('app.info', {})).rejects.toBeInstanceOf(CallError);
    answer = { ok: true };
    await expect(bridge.call('app.info', {})).rejects.toMatchObject({ payload: { code: 'bad_response' } });
    answer = 'garbage';
    await expect(bridge.call('app.info', {})).rejects.toMatchObject({ payload: { code: 'bad_response' } });
  });

  it('delivers only well-formed events', () => {
    const bus = new EventBus();
    const bridge = createBridge(
      buildHostApi(
        async () => undefined,
        (event, listener) => bus.onAny((name, p) => name === event && listener(p)),
      ),
    );
    const seen: boolean[] = [];
    bridge.on('app.online', (e) => seen.push(e.online));
    bus.emit('app.online', { online: true, checkedAt: new Date(0).toISOString() });
    bus.emit('app.online', { online: 'maybe' } as never);
    expect(seen).toEqual([true]);
    expect(bus.latest('app.online')).toEqual({ online: 'maybe' });
  });
});
