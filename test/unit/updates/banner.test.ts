import { describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../common/calls/updates';
import { bannerFor, reasonText } from '../../../renderer/src/updates/model';

describe('what the renderer shows', () => {
  it('nothing while idle, checking, retrying (offline or not) or disabled', () => {
    const quiet: Array<UpdateState | undefined> = [
      undefined,
      { status: 'disabled', reason: 'env' },
      { status: 'disabled', reason: 'setting' },
      { status: 'idle', checkedAt: null, nextCheckAt: null },
      { status: 'checking' },
      { status: 'retrying', attempt: 3, offline: true, nextCheckAt: '2026-03-01T08:00:00.000Z' },
      { status: 'retrying', attempt: 1, offline: false, nextCheckAt: '2026-03-01T08:00:00.000Z' },
    ];
    for (const state of quiet) expect(bannerFor(state)).toEqual({ kind: 'none' });
  });

  it('progress while downloading, the restart button when ready, the reasons while waiting', () => {
    expect(bannerFor({ status: 'downloading', version: '1.0.1', percent: 99.9, transferred: 1, total: 2 })).toEqual({
      kind: 'downloading',
      version: '1.0.1',
      percent: 99,
    });
    expect(bannerFor({ status: 'ready', version: '1.0.1' })).toEqual({ kind: 'ready', version: '1.0.1' });
    const reasons = [{ source: 'emails.queue', message: { en: 'Sending', vi: 'Đang gửi' } }];
    expect(bannerFor({ status: 'waiting', version: '1.0.1', reasons })).toEqual({ kind: 'waiting', version: '1.0.1', reasons });
    expect(bannerFor({ status: 'installing', version: '1.0.1' })).toEqual({ kind: 'installing', version: '1.0.1' });
    expect(reasonText(reasons[0]!, 'vi')).toBe('Đang gửi');
    expect(reasonText(reasons[0]!, 'en')).toBe('Sending');
  });
});
