/** What the issuing screens say: totals, states, reasons, the runner, and the Settings form read back. */
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenT } from '../../support/i18n';
import type { IssueEntry } from '../../../common/calls/issuing';
import { DEFAULT_SETTINGS } from '../../../common/calls/settings';
import { formatDateTime } from '../../../common/format';
import { formFromSettings, gapSecondsText, parseGapSeconds, parseSeriesList, settingsFromForm } from '../../../renderer/src/issuing/settings-form';
import { bannerHeadline, followUpText, formatTotal, reasonOf, resultText, runnerText, supersededIds } from '../../../renderer/src/issuing/words';

let tVi: TFunction;
let tEn: TFunction;
beforeAll(async () => {
  ({ vi: tVi, en: tEn } = await screenT());
});

function entry(patch: Partial<IssueEntry>): IssueEntry {
  return {
    id: 1,
    draftId: 'd1',
    refId: 'r1',
    invSeries: '1K26TAA',
    invDate: '2026-11-25',
    kind: 'withoutCode',
    signType: 2,
    buyerName: 'Công ty TNHH Hoa Sen',
    buyerEmail: 'ketoan@hoasen.vn',
    total: '1100000',
    currency: 'VND',
    state: 'queued',
    transactionId: null,
    invNo: null,
    invoiceCode: null,
    issuedAt: null,
    errorCode: null,
    lastError: null,
    retryable: false,
    reopened: false,
    attempts: 0,
    nextAttemptAt: null,
    createdAt: '2026-11-25T03:00:00.000Z',
    updatedAt: '2026-11-25T03:00:00.000Z',
    download: 'off',
    email: 'off',
    emailId: null,
    ...patch,
  };
}

const refused = { en: 'The invoice date is earlier than the date of the last invoice issued on this series.', vi: 'Ngày hóa đơn sớm hơn.' };

describe('issuing words', () => {
  it('totals read as the invoice prints them, with the currency', () => {
    expect(formatTotal('1100000', 'VND')).toBe('1.100.000 VND');
    expect(formatTotal('1234.5', 'USD')).toBe('1.234,50 USD');
    expect(formatTotal('12', '')).toBe('12 VND');
  });

  it("the service's reason in words; its code only when the words do not already name it", () => {
    expect(reasonOf({ lastError: refused, errorCode: 'InvalidInvoiceDate' }, 'vi')).toEqual({ text: 'Ngày hóa đơn sớm hơn.', code: 'InvalidInvoiceDate' });
    expect(reasonOf({ lastError: { en: 'x InvalidSignType', vi: 'y' }, errorCode: 'InvalidSignType' }, 'en')).toEqual({
      text: 'x InvalidSignType',
      code: null,
    });
    expect(reasonOf({ lastError: null, errorCode: null }, 'vi')).toEqual({ text: null, code: null });
  });

  it('the editor banner says where the invoice stands, and whether it waits for the connection', () => {
    expect(bannerHeadline({ state: 'queued', invNo: null, nextAttemptAt: null }, false, 'vi', tVi)).toBe('Đang chờ phát hành — sẽ tự gửi khi có mạng');
    expect(bannerHeadline({ state: 'queued', invNo: null, nextAttemptAt: null }, true, 'vi', tVi)).toBe('Đang chờ phát hành — sẽ gửi trong giây lát');
    expect(bannerHeadline({ state: 'issued', invNo: '00000012', nextAttemptAt: null }, true, 'vi', tVi)).toBe('Đã phát hành — Số hóa đơn 00000012');
    expect(bannerHeadline({ state: 'issued', invNo: null, nextAttemptAt: null }, true, 'en', tEn)).toBe(
      'Issued — the invoice number comes when the service finishes',
    );
    expect(bannerHeadline({ state: 'unknown', invNo: null, nextAttemptAt: null }, true, 'vi', tVi)).toBe('Đang kiểm tra với hệ thống');
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(bannerHeadline({ state: 'queued', invNo: null, nextAttemptAt: later }, true, 'en', tEn)).toMatch(
      /^Waiting to be issued — next try at \d\d:\d\d:\d\d$/,
    );
  });

  it('the result column: follow-ups of an issued invoice, the reason of a refusal, only "waiting for the connection" while offline', () => {
    const issued = entry({ state: 'issued', invNo: '00000012', issuedAt: '2026-11-25T03:05:00.000Z', download: 'done', email: 'waiting' });
    expect(resultText(issued, 'vi', tVi).text).toBe(
      `Phát hành lúc ${formatDateTime(issued.issuedAt!, 'vi')} · Đã tải tệp hóa đơn về thư mục · Email tới ketoan@hoasen.vn đang chờ`,
    );
    const failed = entry({ state: 'failed', errorCode: 'InvalidInvoiceDate', lastError: refused });
    expect(resultText(failed, 'vi', tVi)).toEqual({ text: 'Ngày hóa đơn sớm hơn.', code: 'InvalidInvoiceDate' });
    expect(resultText(failed, 'vi', tVi, { offline: false, superseded: true }).text).toBe('Ngày hóa đơn sớm hơn. · Đã sửa và xếp lại thành hóa đơn mới');
    const waiting = entry({ state: 'queued', lastError: { en: 'ECONNREFUSED', vi: 'ECONNREFUSED' } });
    expect(resultText(waiting, 'vi', tVi, { offline: true, superseded: false })).toEqual({ text: 'Chờ có mạng', code: null });
    expect(resultText(waiting, 'vi', tVi).text).toBe('ECONNREFUSED · Chờ gửi');
    expect(resultText(entry({ state: 'issuing' }), 'en', tEn).text).toBe('Being sent to the service');
  });

  it('a download waiting for a folder says so, and where to choose one, in both languages', () => {
    const noFolder = entry({ state: 'issued', invNo: '00000012', download: 'noFolder', email: 'done' });
    expect(followUpText(noFolder, tVi)).toBe(
      'Chưa tải tệp hóa đơn: chưa chọn thư mục tải về. Chọn thư mục trong Cài đặt, hóa đơn sẽ được tải ngay sau đó. · Email tới ketoan@hoasen.vn đã vào hàng đợi email',
    );
    expect(followUpText(noFolder, tEn)).toBe(
      'Invoice file not downloaded yet: no download folder is chosen. Choose one in Settings and the invoice downloads right after. · Email to ketoan@hoasen.vn is in the email queue',
    );
    expect(followUpText({ ...noFolder, download: 'waiting' }, tVi)).toBe('Đang chờ tải tệp hóa đơn · Email tới ketoan@hoasen.vn đã vào hàng đợi email');
  });

  it('a refusal is superseded once its draft was reopened (the service says so), not before', () => {
    const old = entry({ id: 3, state: 'failed', reopened: true });
    const again = entry({ id: 7, state: 'issued' });
    const other = entry({ id: 5, draftId: 'd2', state: 'failed' });
    expect([...supersededIds([again, other, old])]).toEqual([3]);
    expect(supersededIds([other, { ...old, reopened: false }]).size).toBe(0);
  });

  it('the runner: offline without technical detail, a wait for lookups is not an error, paused says why', () => {
    const lastError = { en: 'connect ECONNREFUSED 127.0.0.1', vi: 'connect ECONNREFUSED 127.0.0.1' };
    const offline = runnerText({ state: 'offline', nextAttemptAt: null, lastError }, undefined, 'vi', tVi);
    expect(offline).toBe('Mất kết nối — hóa đơn sẽ tự phát hành khi có mạng.');
    const at = '2026-11-25T03:05:00.000Z';
    expect(runnerText({ state: 'backoff', nextAttemptAt: at, lastError }, { queued: 0, unknown: 2 }, 'vi', tVi)).toBe(
      'Chờ kiểm tra lại với hệ thống lúc 10:05:00.',
    );
    expect(runnerText({ state: 'backoff', nextAttemptAt: at, lastError: { en: 'HTTP 503', vi: 'HTTP 503' } }, { queued: 1 }, 'en', tEn)).toBe(
      'Waiting — next try at 10:05:00. HTTP 503',
    );
    expect(runnerText({ state: 'paused', nextAttemptAt: null, lastError: { en: 'Token expired.', vi: 'Token đã hết hạn.' } }, undefined, 'vi', tVi)).toBe(
      'Tạm dừng — cần đăng nhập lại (Cài đặt → Đăng nhập). Token đã hết hạn.',
    );
    expect(runnerText({ state: 'idle', nextAttemptAt: null, lastError }, undefined, 'en', tEn)).toBe('No invoice is waiting to be issued.');
  });
});

describe('the Settings form of issuing', () => {
  it('reads the pause in seconds as people type it, whole milliseconds, 0–60 s', () => {
    expect(parseGapSeconds('1')).toBe(1000);
    expect(parseGapSeconds('1,5')).toBe(1500);
    expect(parseGapSeconds(' 0.25 ')).toBe(250);
    expect(parseGapSeconds('0')).toBe(0);
    expect(parseGapSeconds('60')).toBe(60_000);
    for (const bad of ['', '61', '-1', 'một', '1.500']) expect(parseGapSeconds(bad)).toBeNull();
    expect(gapSecondsText(1500)).toBe('1,5');
    expect(gapSecondsText(1000)).toBe('1');
    for (const ms of [0, 250, 1000, 1500, 2750, 60_000]) expect(parseGapSeconds(gapSecondsText(ms))).toBe(ms);
  });

  it('reads a series list in any case and separator, once each, naming what is not a series', () => {
    expect(parseSeriesList('1c26taa, 1X;1C26MAA  1c26taa')).toEqual({ series: ['1C26TAA', '1C26MAA'], invalid: ['1X'] });
    expect(parseSeriesList('  ')).toEqual({ series: [], invalid: [] });
  });

  it('round-trips the stored settings and refuses a form with a wrong field', () => {
    const stored = { ...DEFAULT_SETTINGS.issuing, seriesGapMs: 1500, series: ['1C26TAA'], certificateSN: 'ABC' };
    expect(settingsFromForm(formFromSettings(stored))).toEqual({ ok: true, settings: stored });
    expect(settingsFromForm({ ...formFromSettings(stored), certificateSN: '  ' })).toMatchObject({ ok: true, settings: { certificateSN: null } });
    expect(settingsFromForm({ ...formFromSettings(stored), gap: '90', series: '1C26TAA, nope' })).toEqual({ ok: false, gap: true, invalidSeries: ['nope'] });
  });
});
