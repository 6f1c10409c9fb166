import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDate, formatDateTime, formatEta, formatTime } from '../../../common/format';

describe('shared formatting', () => {
  it('writes sizes in binary units with one decimal, the vi-VN way unless English is asked for', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1.023 B');
    expect(formatBytes(1536)).toBe('1,5 KB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(5 * 1048576)).toBe('5,0 MB');
    expect(formatBytes(1500 * 1048576, 'en')).toBe('1,500.0 MB');
  });

  it('writes counts with the thousands grouped', () => {
    expect(formatCount(12500)).toBe('12.500');
    expect(formatCount(12500, 'en')).toBe('12,500');
    expect(formatCount(7)).toBe('7');
  });

  it('writes time left as m:ss, h:mm:ss from an hour, and a placeholder without an estimate', () => {
    expect(formatEta(65)).toBe('1:05');
    expect(formatEta(3599.6)).toBe('1:00:00');
    expect(formatEta(3725)).toBe('1:02:05');
    expect(formatEta(null)).toBe('–');
    expect(formatEta(Infinity, '--:--')).toBe('--:--');
  });

  it('writes dates and times in Vietnam whatever the machine zone', () => {
    expect(formatDate('2026-11-21')).toBe('21/11/2026');
    expect(formatDate('2026-11-20T18:30:00Z')).toBe('21/11/2026');
    expect(formatDateTime('2026-11-21T07:05:00Z')).toBe('14:05 21/11/2026');
    expect(formatDateTime('2026-11-21T07:05:00Z', 'en')).toBe('21/11/2026, 14:05');
    expect(formatTime('2026-11-21T07:05:09Z')).toBe('14:05:09');
  });
});
