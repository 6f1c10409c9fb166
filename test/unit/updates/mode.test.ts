import { describe, expect, it } from 'vitest';
import { isOfflineError, parseUpdateUrl, resolveUpdaterMode, updaterTurnedOffByEnvironment, type UpdaterModeInput } from '../../../main/services/updates/mode';

const base: UpdaterModeInput = { env: {}, argv: ['app'], isPackaged: true, platform: 'win32', settingEnabled: true, linuxPackage: null };

describe('the off switches', () => {
  it('ELECTRON_NO_UPDATER=1 turns updates off, whatever the setting or the test URL say', () => {
    for (const value of ['1', 'true', 'TRUE', ' yes ']) {
      expect(resolveUpdaterMode({ ...base, env: { ELECTRON_NO_UPDATER: value, EINVOICE_UPDATE_URL: 'http://127.0.0.1:9/' } })).toMatchObject({
        enabled: false,
        reason: 'env',
      });
    }
    expect(resolveUpdaterMode({ ...base, env: { ELECTRON_NO_UPDATER: '0' } })).toMatchObject({ enabled: true });
    expect(resolveUpdaterMode({ ...base, env: { ELECTRON_NO_UPDATER: '' } })).toMatchObject({ enabled: true });
  });

  it('accepts it as a command-line argument too (shortcuts made by IT)', () => {
    expect(updaterTurnedOffByEnvironment({}, ['eInvoice Desk.exe', '--ELECTRON_NO_UPDATER=1'])).toBe(true);
    expect(updaterTurnedOffByEnvironment({}, ['x', '--electron_no_updater'])).toBe(true);
    expect(updaterTurnedOffByEnvironment({}, ['x', '--ELECTRON_NO_UPDATER=0'])).toBe(false);
    expect(updaterTurnedOffByEnvironment({}, ['x', '--other'])).toBe(false);
  });

  it('the in-app setting turns it off', () => {
    expect(resolveUpdaterMode({ ...base, settingEnabled: false })).toEqual({ enabled: false, reason: 'setting', detail: 'turned off in Settings' });
  });
});

describe('where updates come from', () => {
  it('GitHub releases for an installed build on every desktop platform', () => {
    expect(resolveUpdaterMode(base)).toEqual({ enabled: true, feed: { provider: 'github' } });
    expect(resolveUpdaterMode({ ...base, platform: 'darwin' })).toEqual({ enabled: true, feed: { provider: 'github' } });
    expect(resolveUpdaterMode({ ...base, platform: 'linux', linuxPackage: 'appimage' })).toMatchObject({ enabled: true });
    expect(resolveUpdaterMode({ ...base, platform: 'linux', linuxPackage: 'deb' })).toMatchObject({ enabled: true });
  });

  it('nothing for a development run, a portable or store build, or a Linux build it cannot replace', () => {
    expect(resolveUpdaterMode({ ...base, isPackaged: false })).toMatchObject({ enabled: false, reason: 'unsupported' });
    expect(resolveUpdaterMode({ ...base, env: { PORTABLE_EXECUTABLE_DIR: 'D:\\apps' } })).toMatchObject({ enabled: false, reason: 'unsupported' });
    expect(resolveUpdaterMode({ ...base, platform: 'darwin', masBuild: true })).toMatchObject({ enabled: false, reason: 'unsupported' });
    expect(resolveUpdaterMode({ ...base, platform: 'linux', linuxPackage: null })).toMatchObject({ enabled: false, reason: 'unsupported' });
    expect(resolveUpdaterMode({ ...base, platform: 'freebsd' })).toMatchObject({ enabled: false, reason: 'unsupported' });
    // The per-machine variant ships without app-update.yml: it never updates itself.
    expect(resolveUpdaterMode({ ...base, hasUpdateConfig: false })).toMatchObject({ enabled: false, reason: 'unsupported' });
    expect(resolveUpdaterMode({ ...base, hasUpdateConfig: true })).toMatchObject({ enabled: true });
  });

  it('EINVOICE_UPDATE_URL switches a development (unpackaged) run to a generic server', () => {
    expect(resolveUpdaterMode({ ...base, isPackaged: false, env: { EINVOICE_UPDATE_URL: 'http://127.0.0.1:8123/updates' } })).toEqual({
      enabled: true,
      feed: { provider: 'generic', url: 'http://127.0.0.1:8123/updates/' },
    });
    expect(resolveUpdaterMode({ ...base, isPackaged: false, env: { EINVOICE_UPDATE_URL: 'https://updates.example.vn/einvoice/' } })).toEqual({
      enabled: true,
      feed: { provider: 'generic', url: 'https://updates.example.vn/einvoice/' },
    });
  });

  it('updates only from the release feed: a packaged build ignores EINVOICE_UPDATE_URL and says so, without the query string', () => {
    const env = { EINVOICE_UPDATE_URL: 'https://updates.example.vn/einvoice/?token=s3cr3t#x' };
    const packaged = resolveUpdaterMode({ ...base, env });
    expect(packaged).toEqual({ enabled: true, feed: { provider: 'github' }, ignored: 'EINVOICE_UPDATE_URL=https://updates.example.vn/einvoice/' });
    expect(JSON.stringify(packaged)).not.toContain('s3cr3t');
    for (const platform of ['darwin', 'linux'] as const) {
      expect(resolveUpdaterMode({ ...base, platform, linuxPackage: 'deb', env })).toMatchObject({ enabled: true, feed: { provider: 'github' } });
    }
    // A loopback test server is no exception once packaged.
    expect(resolveUpdaterMode({ ...base, env: { EINVOICE_UPDATE_URL: 'http://127.0.0.1:8123/' } })).toMatchObject({ feed: { provider: 'github' } });
    // Nor does it switch updates on for a build that has no feed of its own (per-machine).
    expect(resolveUpdaterMode({ ...base, hasUpdateConfig: false, env })).toMatchObject({ enabled: false, reason: 'unsupported', ignored: expect.any(String) });
    // Unpackaged, the same variable is honoured and nothing is reported as ignored.
    expect(resolveUpdaterMode({ ...base, isPackaged: false, env })).not.toHaveProperty('ignored');
  });

  it('refuses a plain-http test URL that is not this machine, or one that is not a URL', () => {
    expect(parseUpdateUrl('http://updates.example.vn/')).toMatchObject({ ok: false });
    expect(parseUpdateUrl('ftp://127.0.0.1/')).toMatchObject({ ok: false });
    expect(parseUpdateUrl('not a url')).toMatchObject({ ok: false });
    expect(parseUpdateUrl('https://user:pw@updates.example.vn/')).toMatchObject({ ok: false });
    expect(parseUpdateUrl('http://localhost:9000')).toEqual({ ok: true, url: 'http://localhost:9000/' });
    expect(parseUpdateUrl('http://[::1]:9000/x')).toEqual({ ok: true, url: 'http://[::1]:9000/x/' });
    expect(parseUpdateUrl('http://127.0.0.1:9000/x?k=v')).toEqual({ ok: true, url: 'http://127.0.0.1:9000/x/?k=v' });
    expect(resolveUpdaterMode({ ...base, isPackaged: false, env: { EINVOICE_UPDATE_URL: 'http://evil.example/' } })).toMatchObject({
      enabled: false,
      reason: 'unsupported',
    });
    // The refusal is logged; its text keeps no query string.
    expect(parseUpdateUrl('http://evil.example/feed?token=s3cr3t')).toEqual({
      ok: false,
      detail: 'EINVOICE_UPDATE_URL must use https unless it points at this machine: http://evil.example/feed',
    });
  });
});

describe('what counts as offline', () => {
  it('network codes and Chromium net:: errors are offline; HTTP and signature failures are not', () => {
    expect(isOfflineError(Object.assign(new Error('x'), { code: 'ENOTFOUND' }))).toBe(true);
    expect(isOfflineError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isOfflineError(new Error('net::ERR_INTERNET_DISCONNECTED'))).toBe(true);
    expect(isOfflineError(new Error('net::ERR_NAME_NOT_RESOLVED'))).toBe(true);
    expect(isOfflineError(new Error('request failed: connect ETIMEDOUT 140.82.112.3:443'))).toBe(true);
    expect(isOfflineError(new Error('HttpError: 404 Not Found'))).toBe(false);
    expect(isOfflineError(new Error('sha512 checksum mismatch'))).toBe(false);
    expect(isOfflineError(undefined)).toBe(false);
    expect(isOfflineError('ENOTFOUND')).toBe(false);
  });
});
