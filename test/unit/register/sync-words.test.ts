/** What the Issued invoices area says while a sync runs. */
import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenT } from '../../support/i18n';
import { syncProgressText } from '../../../renderer/src/issued/words';

let tVi: TFunction;
let tEn: TFunction;
beforeAll(async () => {
  ({ vi: tVi, en: tEn } = await screenT());
});

describe('the sync progress in words', () => {
  it('before the service has said how many invoices there are: what it is doing, never "0/0"', () => {
    expect(syncProgressText({ phase: 'list', kind: 'withCode', seen: 0, total: 0 }, 'vi', tVi)).toBe('Đang đọc danh sách hóa đơn…');
    expect(syncProgressText({ phase: 'list', kind: null, seen: 0, total: 0 }, 'en', tEn)).toBe('Reading the invoice list…');
    expect(syncProgressText({ phase: 'status', kind: 'withCode', seen: 0, total: 0 }, 'vi', tVi)).toBe('Đang hỏi trạng thái cơ quan thuế…');
  });

  it('once the total is known: seen/total, thousands grouped as people read them', () => {
    expect(syncProgressText({ phase: 'list', kind: 'withoutCode', seen: 1200, total: 12345 }, 'vi', tVi)).toBe('Đang đọc danh sách hóa đơn: 1.200/12.345');
    expect(syncProgressText({ phase: 'list', kind: 'withoutCode', seen: 0, total: 3 }, 'vi', tVi)).toBe('Đang đọc danh sách hóa đơn: 0/3');
    expect(syncProgressText({ phase: 'list', kind: 'withoutCode', seen: 1200, total: 12345 }, 'en', tEn)).toBe('Reading the invoice list: 1,200/12,345');
    expect(syncProgressText({ phase: 'status', kind: 'withCode', seen: 50, total: 1050 }, 'vi', tVi)).toBe('Đang hỏi trạng thái cơ quan thuế: 50/1.050');
    expect(syncProgressText({ phase: 'done', kind: null, seen: 0, total: 0 }, 'vi', tVi)).toBe('Đồng bộ xong');
  });
});
