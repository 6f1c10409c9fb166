import type { Settings } from '../../../common/calls/settings';
import { AppError } from '../../../common/errors';
import type { DownloadsService } from '../downloads';
import type { EmailService } from '../emails';
import type { FollowUpPorts } from './follow-ups';

/** The follow-ups of an issued invoice, done by the download engine and the email queue. */
export function issuingFollowUps(deps: { settings: () => Settings; downloads: DownloadsService; emails: EmailService }): FollowUpPorts {
  return {
    async download(profileId, transactionIds, kind, type) {
      const folder = deps.settings().downloadFolder;
      if (!folder) {
        throw new AppError('issue_no_folder', {
          en: 'Issued invoices are not downloaded: choose the download folder in Settings.',
          vi: 'Hóa đơn đã phát hành chưa được tải về: hãy chọn thư mục tải về trong Cài đặt.',
        });
      }
      const { job } = await deps.downloads.create({ ids: transactionIds, type, kind, folder, existing: 'skip' }, profileId);
      deps.downloads.start(job.id);
    },
    email(_profileId, e) {
      const r = deps.emails.add([{ transactionId: e.transactionId, receiverName: e.receiverName, receiverEmail: e.receiverEmail, kind: e.kind }]);
      if (r.rejected[0]) throw new AppError('issue_email_rejected', r.rejected[0].reason);
      return r.added[0] ?? r.skipped[0]?.entryId ?? null;
    },
  };
}
