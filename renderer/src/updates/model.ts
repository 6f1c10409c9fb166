import type { UpdateState, WorkReason } from '../../../common/calls/updates';
import { pick } from '../../../common/model';

/** What the sidebar shows for an update state: nothing at all unless there is something to act on or watch. */
type UpdateBannerModel =
  | { kind: 'none' }
  | { kind: 'downloading'; version: string; percent: number }
  | { kind: 'ready'; version: string }
  | { kind: 'waiting'; version: string; reasons: WorkReason[] }
  | { kind: 'installing'; version: string };

/**
 * Checking, up to date, retrying after a failure (offline or not) and disabled show nothing: staff
 * are never bothered by the updater's own troubles.
 */
export function bannerFor(state: UpdateState | undefined): UpdateBannerModel {
  if (!state) return { kind: 'none' };
  switch (state.status) {
    case 'downloading':
      return { kind: 'downloading', version: state.version, percent: Math.floor(state.percent) };
    case 'ready':
      return { kind: 'ready', version: state.version };
    case 'waiting':
      return { kind: 'waiting', version: state.version, reasons: state.reasons };
    case 'installing':
      return { kind: 'installing', version: state.version };
    default:
      return { kind: 'none' };
  }
}

/** The reason text in the screen's language. */
export function reasonText(reason: WorkReason, language: string): string {
  return pick(reason.message, language);
}
