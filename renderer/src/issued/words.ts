import type { TFunction } from 'i18next';
import type { SyncProgress } from '../../../common/calls/register';
import { formatCount } from '../../../common/format';
import type { Lang } from '../app/error-text';

/**
 * A sync's progress in words: "seen/total" once the service has said how many there are, and only
 * what it is doing before that (a total of 0 is not known yet, not "0/0").
 */
export function syncProgressText(p: SyncProgress, lang: Lang, t: TFunction): string {
  if (p.phase !== 'done' && p.total <= 0) return t(`issued.syncPhaseUncounted.${p.phase}`);
  return t(`issued.syncPhase.${p.phase}`, { seen: formatCount(p.seen, lang), total: formatCount(p.total, lang) });
}
