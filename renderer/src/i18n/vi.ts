import type { MessagesOf } from './shape';
import { downloadsVi } from '../downloads/messages';
import { emailsVi } from '../emails/messages';
import { templatesVi } from '../templates/messages';
import { settingsVi } from '../settings/messages';
import { draftsVi } from '../drafts/messages';
import { issuingVi } from '../issuing/messages';
import { issuedVi } from '../issued/messages';

/** Vietnamese, the default language. Keys are shared with en.ts (checked by its type). */
export const vi = {
  app: {
    name: 'eInvoice Desk',
    nav: 'Điều hướng chính',
    language: 'Ngôn ngữ / Language',
    online: 'Đang trực tuyến',
    offline: 'Mất kết nối — vẫn làm việc được, sẽ gửi khi có mạng',
    sandbox: 'Môi trường thử nghiệm (Sandbox)',
    version: 'Phiên bản {{version}}',
    skipToContent: 'Chuyển tới nội dung',
    loading: 'Đang mở màn hình…',
    close: 'Đóng',
    dismiss: 'Ẩn thông báo',
    noFile: 'Chưa chọn tệp',
    unsaved: {
      title: 'Chưa lưu thay đổi',
      text: 'Có thay đổi trong {{area}} chưa được lưu. Rời đi bây giờ thì các thay đổi đó sẽ mất.',
      stay: 'Ở lại để lưu',
      leave: 'Bỏ thay đổi, mở {{area}}',
      mark: 'Có thay đổi chưa lưu',
    },
    samples: { label: 'Dùng hóa đơn mẫu của Sandbox', withCode: 'Có mã CQT', withoutCode: 'Không có mã', cashRegister: 'Máy tính tiền' },
  },
  areas: {
    drafts: 'Hóa đơn nháp',
    issuing: 'Hàng đợi phát hành',
    issued: 'Hóa đơn đã phát hành',
    downloads: 'Tải hóa đơn',
    emails: 'Hàng đợi email',
    templates: 'Mẫu hóa đơn',
    settings: 'Cài đặt',
  },
  updates: {
    title: 'Cập nhật ứng dụng',
    downloading: 'Đang tải bản cập nhật {{version}}… {{percent}}%',
    progress: 'Tiến độ tải bản cập nhật',
    ready: 'Bản cập nhật {{version}} đã sẵn sàng.',
    restart: 'Khởi động lại để cập nhật',
    waiting: 'Sẽ khởi động lại để cập nhật lên {{version}} khi các việc sau xong:',
    cancel: 'Để sau',
    installing: 'Đang cài đặt bản cập nhật {{version}}…',
  },
  settings: settingsVi,
  drafts: draftsVi,
  emails: emailsVi,
  templates: templatesVi,
  downloads: downloadsVi,
  issuing: issuingVi,
  issued: issuedVi,
  errors: {
    title: 'Đã có lỗi xảy ra',
    body: 'Màn hình này gặp sự cố. Dữ liệu đã lưu của bạn vẫn an toàn.',
    reload: 'Tải lại màn hình',
  },
} as const;

export type Messages = MessagesOf<typeof vi>;
