import { describe, expect, it } from 'vitest';
import {
  batchSizeProblem,
  checkServiceUrl,
  isLoopbackHost,
  isRetryableFailure,
  isUnreachableCode,
  isUnreachableKind,
  MAX_DOWNLOAD_BATCH,
  MAX_EMAIL_BATCH,
  SERVICE_PRESETS,
} from '../../../common/rules/network';
import { DEFAULT_SETTINGS, SettingsSchema } from '../../../common/calls/settings';
import { isLoopbackHost as apiLoopback, parseServiceUrl } from '../../../main/services/api';
import { checkServiceUrl as profileUrl, isLoopbackHost as profileLoopback, PRESETS } from '../../../main/services/profiles';
import { parseUpdateUrl } from '../../../main/services/updates/mode';
import { isAllowedNavigation } from '../../../main/services/preview/window-policy';

describe('loopback: only 127.0.0.0/8, ::1 and localhost itself', () => {
  it('accepts this computer', () => {
    for (const host of ['localhost', 'LOCALHOST', 'localhost.', '127.0.0.1', '127.1.2.3', '127.255.255.255', '::1', '[::1]', '0:0:0:0:0:0:0:1']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses names that only look local', () => {
    for (const host of [
      'evil.localhost',
      'a.localhost',
      'localhost.evil.com',
      '127.0.0.1.evil.com',
      '127.256.0.1',
      '128.0.0.1',
      '10.0.0.1',
      '192.168.1.2',
      '::2',
      'example.com',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it('http://evil.localhost is not loopback anywhere the rule is used', () => {
    expect(checkServiceUrl('http://evil.localhost/api/integration/invoice')).toMatchObject({ ok: false, problem: 'insecure' });
    expect(() => parseServiceUrl('http://evil.localhost/api/integration/invoice')).toThrow(/https/);
    expect(() => profileUrl('baseUrl', 'http://evil.localhost/api')).toThrow(/this computer/);
    expect(parseUpdateUrl('http://evil.localhost/feed/').ok).toBe(false);
    expect(apiLoopback('evil.localhost')).toBe(false);
    expect(profileLoopback('evil.localhost')).toBe(false);
  });

  it('every copy agrees on 127.x (the update feed and the API alike)', () => {
    expect(parseUpdateUrl('http://127.0.0.2:9000/feed/').ok).toBe(true);
    expect(parseServiceUrl('http://127.0.0.2:9000/api').hostname).toBe('127.0.0.2');
    expect(profileUrl('baseUrl', 'http://127.0.0.2:9000/api')).toBe('http://127.0.0.2:9000/api');
    expect(isAllowedNavigation('http://127.0.0.2:9000/x.pdf', 'http://127.0.0.2:9000/y.pdf')).toBe(true);
  });
});

describe('service URL rule', () => {
  it('normalises a good address', () => {
    const r = checkServiceUrl(' https://api.example.vn/api/integration/invoice/#x ');
    expect(r.ok && r.url.href).toBe('https://api.example.vn/api/integration/invoice');
  });

  it('names each problem, in both languages', () => {
    const cases = [
      ['not a url', 'invalid'],
      ['ftp://127.0.0.1/x', 'scheme'],
      ['http://10.0.0.5/x', 'insecure'],
      ['https://u:p@api.example.vn/x', 'credentials'],
    ] as const;
    for (const [raw, problem] of cases) {
      const r = checkServiceUrl(raw);
      expect(r.ok, raw).toBe(false);
      if (!r.ok) {
        expect(r.problem).toBe(problem);
        expect(r.message.en.length).toBeGreaterThan(10);
        expect(r.message.vi).not.toBe(r.message.en);
      }
    }
  });
});

describe('failures, presets and limits', () => {
  it('unreachable means no answer at all', () => {
    for (const kind of ['offline', 'network', 'timeout', 'cancelled']) expect(isUnreachableKind(kind)).toBe(true);
    for (const kind of ['auth', 'unavailable', 'rate_limited', 'rejected', 'unknown_outcome']) expect(isUnreachableKind(kind)).toBe(false);
    expect(isUnreachableCode('api.offline')).toBe(true);
    expect(isUnreachableCode('sandbox_stopped')).toBe(true);
    expect(isUnreachableCode('api.auth')).toBe(false);
    expect(isUnreachableCode(undefined)).toBe(false);
  });

  it('retries transient failures except an address or operation the service does not have', () => {
    expect(isRetryableFailure('timeout')).toBe(true);
    expect(isRetryableFailure('unavailable', 503)).toBe(true);
    expect(isRetryableFailure('unavailable', 404)).toBe(false);
    expect(isRetryableFailure('unavailable', 501)).toBe(false);
    expect(isRetryableFailure('unknown_outcome')).toBe(false);
    expect(isRetryableFailure('auth', 401)).toBe(false);
  });

  it('one copy of the presets and the batch limits, used by the profiles and the settings contract', () => {
    expect(PRESETS).toBe(SERVICE_PRESETS);
    expect(SERVICE_PRESETS.production.baseUrl.startsWith('https://')).toBe(true);
    expect(DEFAULT_SETTINGS.batchSizes.download).toBeLessThanOrEqual(MAX_DOWNLOAD_BATCH);
    const tooMany = { ...DEFAULT_SETTINGS, batchSizes: { download: MAX_DOWNLOAD_BATCH + 1, email: MAX_EMAIL_BATCH + 1 } };
    expect(SettingsSchema.safeParse(tooMany).success).toBe(false);
    expect(SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, batchSizes: { download: MAX_DOWNLOAD_BATCH, email: MAX_EMAIL_BATCH } }).success).toBe(true);
  });

  it('names a batch size a person typed that the service would refuse, in both languages, and agrees with the settings schema', () => {
    expect(batchSizeProblem('download', MAX_DOWNLOAD_BATCH)).toBeNull();
    expect(batchSizeProblem('email', 1)).toBeNull();
    expect(batchSizeProblem('download', 80)).toEqual({
      en: 'Invoices per download request must be a whole number from 1 to 50.',
      vi: 'Số hóa đơn mỗi lần tải phải là số nguyên từ 1 đến 50.',
    });
    expect(batchSizeProblem('email', 200)?.vi).toBe('Số email mỗi lần gửi phải là số nguyên từ 1 đến 100.');
    for (const n of [0, -1, 2.5, Number.NaN]) expect(batchSizeProblem('email', n), String(n)).not.toBeNull();
    for (const [what, n] of [
      ['download', 0],
      ['download', 1],
      ['download', 50],
      ['download', 51],
      ['email', 100],
      ['email', 101],
      ['email', 7.5],
    ] as const) {
      const ok = SettingsSchema.safeParse({ ...DEFAULT_SETTINGS, batchSizes: { ...DEFAULT_SETTINGS.batchSizes, [what]: n } }).success;
      expect(batchSizeProblem(what, n) === null, `${what} ${n}`).toBe(ok);
    }
  });
});
