import { useWords } from '../../i18n/useWords';
import { useEditor } from './store';

const SAVE_WORDS = ['drafts.editor.save.saved', 'drafts.editor.save.dirty', 'drafts.editor.save.saving', 'drafts.editor.save.error'] as const;

/**
 * Whether the draft is saved. Its own component: a save going out and coming back redraws these
 * words, not the whole editor (with a long draft, two renders of it for every save).
 */
export function SaveState() {
  const w = useWords(SAVE_WORDS);
  const saveState = useEditor((s) => s.saveState);
  const saveError = useEditor((s) => s.saveError);
  const queued = useEditor((s) => Boolean(s.issue));
  return (
    <p className={`save-state save-${saveState}`} role="status" data-testid="save-state">
      {queued ? '' : <span className={saveState === 'error' ? undefined : 'fig'}>{w[`drafts.editor.save.${saveState}`]}</span>}
      {!queued && saveState === 'error' && saveError ? `: ${saveError}` : ''}
    </p>
  );
}
