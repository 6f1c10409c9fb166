import { useTranslation } from 'react-i18next';
import type { DraftSummary } from '../../../common/calls/drafts';

/** A draft's place in the issue queue in words: a draft, waiting, issued with its number, refused… */
export function IssueStateBadge({ issue }: { issue: DraftSummary['issue'] }) {
  const { t } = useTranslation();
  if (!issue) return <span className="issue-badge issue-badge-draft">{t('issuing.drafts.draft')}</span>;
  const text = issue.state === 'issued' && issue.invNo ? t('issuing.drafts.issuedNo', { invNo: issue.invNo }) : t(`issuing.states.${issue.state}`);
  return <span className={`issue-badge issue-badge-${issue.state}`}>{text}</span>;
}
