import { describe, expect, it, vi } from 'vitest';
import { callNames } from '../../../common/contract';
import { callChannel } from '../../../common/ipc/channels';
import { createDispatch, type ContractHandlers } from '../../../common/ipc/dispatch';
import { isTrustedSender, registerContract, type SenderInfo } from '../../../main/electron/ipc';

// ipc.ts imports Electron's ipcMain for the host; these tests hand it a fake instead.
vi.mock('electron', () => ({ ipcMain: {} }));

type Handler = (event: unknown, request: unknown) => Promise<unknown>;

/** The thinnest stand-in for Electron's ipcMain: it records what gets registered. */
function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel: string, handler: Handler) => void handlers.set(channel, handler),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

const MAIN_WINDOW_ID = 7;
const fromMainFrame: SenderInfo = { sender: { id: MAIN_WINDOW_ID }, senderFrame: { url: 'app://einvoice/index.html', parent: null } };

function setup() {
  const info = vi.fn(() => ({ version: '1.2.3', dataDir: '/data', connectionKind: 'sandbox' as const, host: 'electron' as const, online: true }));
  const handlers = { 'app.info': info } as unknown as ContractHandlers;
  const ipc = fakeIpcMain();
  const unregister = registerContract(ipc as never, createDispatch(handlers), new Set([MAIN_WINDOW_ID]));
  const invoke = (event: SenderInfo, request: unknown) => ipc.handlers.get(callChannel('app.info'))!(event, request);
  return { ipc, info, invoke, unregister };
}

describe('Electron IPC wrapper', () => {
  it('registers one channel per contract call and removes them again', () => {
    const { ipc, unregister } = setup();
    expect([...ipc.handlers.keys()].sort()).toEqual(callNames.map(callChannel).sort());
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });

  it('accepts a call from our main frame on our own origin', async () => {
    const { invoke, info } = setup();
    await expect(invoke(fromMainFrame, {})).resolves.toMatchObject({ ok: true, value: { version: '1.2.3' } });
    expect(info).toHaveBeenCalledOnce();
  });

  it('rejects a sub-frame of our window', async () => {
    const { invoke, info } = setup();
    const subFrame = { ...fromMainFrame, senderFrame: { url: 'app://einvoice/index.html', parent: {} } };
    await expect(invoke(subFrame, {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(info).not.toHaveBeenCalled();
  });

  it('logs every refused sender: the call, the webContents and the page origin (never the request)', async () => {
    const handlers = { 'app.info': vi.fn() } as unknown as ContractHandlers;
    const ipc = fakeIpcMain();
    const refused = vi.fn();
    registerContract(ipc as never, createDispatch(handlers), new Set([MAIN_WINDOW_ID]), refused);
    const call = ipc.handlers.get(callChannel('app.info'))!;
    await call({ sender: { id: 99 }, senderFrame: { url: 'https://evil.example/page?secret=1', parent: null } }, {});
    await call({ sender: { id: MAIN_WINDOW_ID }, senderFrame: null }, {});
    await call(fromMainFrame, {});
    expect(refused.mock.calls).toEqual([
      ['app.info', { webContentsId: 99, origin: 'https://evil.example' }],
      ['app.info', { webContentsId: MAIN_WINDOW_ID, origin: '(no frame)' }],
    ]);
  });

  it('rejects another window, even one showing our origin', async () => {
    const { invoke, info } = setup();
    await expect(invoke({ ...fromMainFrame, sender: { id: 99 } }, {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    expect(info).not.toHaveBeenCalled();
  });

  it.each(['https://evil.example/index.html', 'file:///C:/Users/shop/index.html', 'app://other-host/index.html', 'http://127.0.0.1:5173/', 'not a url'])(
    'rejects a frame whose URL is %s',
    async (url) => {
      const { invoke, info } = setup();
      await expect(invoke({ ...fromMainFrame, senderFrame: { url, parent: null } }, {})).resolves.toMatchObject({
        ok: false,
        error: { code: 'forbidden_sender' },
      });
      expect(info).not.toHaveBeenCalled();
    },
  );

  it('rejects an event without a frame (the frame navigated away or was destroyed)', () => {
    expect(isTrustedSender({ sender: { id: MAIN_WINDOW_ID }, senderFrame: null }, new Set([MAIN_WINDOW_ID]))).toBe(false);
  });

  it('answers a malformed request with a validation error, not a crash', async () => {
    const { invoke, info } = setup();
    for (const bad of [{ unexpected: 1 }, 'text', 42, [1, 2]]) {
      const result = (await invoke(fromMainFrame, bad)) as { ok: boolean; error: { code: string; message: string; issues: unknown[] } };
      expect(result.ok).toBe(false);
      expect(result.error.code).toBe('validation');
      expect(result.error.issues.length).toBeGreaterThan(0);
      expect(JSON.stringify(result)).not.toMatch(/\bat .+:\d+:\d+/); // no stack frames
    }
    expect(info).not.toHaveBeenCalled();
  });
});
