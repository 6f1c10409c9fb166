import { memo } from 'react';
import { useWords } from '../../i18n/useWords';
import { Fig } from './Fig';
import { useEditor } from './store';

const SAVE_WORDS = ['drafts.editor.save.saved', 'drafts.editor.save.dirty', 'drafts.editor.save.saving', 'drafts.editor.save.error'] as const;

/**
 * Whether the draft is saved. Its own component: a save going out and coming back redraws these
 * words, not the whole editor (with a long draft, two renders of it for every save).
 */
export const SaveState = memo(function SaveState() {
  const w = useWords(SAVE_WORDS);
  const saveState = useEditor((s) => s.saveState);
  const saveError = useEditor((s) => s.saveError);
  const queued = useEditor((s) => Boolean(s.issue));
  return (
    <p className={`save-state save-${saveState}`} role="status" data-testid="save-state">
      {queued ? (
        ''
      ) : saveState === 'error' ? (
        w['drafts.editor.save.error']
      ) : (
        <Fig
          text={w[`drafts.editor.save.${saveState}`]}
          widest={[w['drafts.editor.save.saved'], w['drafts.editor.save.dirty'], w['drafts.editor.save.saving']]}
        />
      )}
      {!queued && saveState === 'error' && saveError ? `: ${saveError}` : ''}
    </p>
  );
});
