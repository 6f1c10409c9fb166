import type { MessagesOf } from '../i18n/shape';

/** The `templates` i18n block (Vietnamese first; English mirrors it). */
export const templatesVi = {
  refresh: 'Tải lại từ dịch vụ',
  refreshing: 'Đang tải…',
  fetchedAt: 'Cập nhật lúc {{at}}',
  never: 'Chưa tải lần nào.',
  failed: 'Không tải được: {{message}} (đang hiển thị bản đã lưu).',
  empty: 'Chưa có mẫu nào trong bộ nhớ.',
  col: { series: 'Ký hiệu', name: 'Tên mẫu', kind: 'Loại', withCode: 'Có mã CQT', status: 'Trạng thái', flags: 'Đặc điểm' },
  invoice: 'Hóa đơn',
  ticket: 'Vé',
  yes: 'Có',
  no: 'Không',
  active: 'Đang dùng',
  inactive: 'Ngừng dùng',
  moreVat: 'Nhiều thuế suất',
  petrol: 'Xăng dầu',
  summary: 'Gửi bảng tổng hợp',
  oldStyle: 'Mẫu cũ',
} as const;

export const templatesEn: MessagesOf<typeof templatesVi> = {
  refresh: 'Refresh from the service',
  refreshing: 'Refreshing…',
  fetchedAt: 'Updated {{at}}',
  never: 'Never fetched.',
  failed: 'Could not refresh: {{message}} (showing the saved list).',
  empty: 'No templates cached yet.',
  col: { series: 'Series', name: 'Template', kind: 'Kind', withCode: 'With tax-authority code', status: 'Status', flags: 'Flags' },
  invoice: 'Invoice',
  ticket: 'Ticket',
  yes: 'Yes',
  no: 'No',
  active: 'Active',
  inactive: 'Inactive',
  moreVat: 'Multi-rate',
  petrol: 'Petrol',
  summary: 'Summary table',
  oldStyle: 'Old style',
};
