import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Problem } from '../../../../common/validation';
import { messageOf } from './useDraftProblems';

/** Every problem, each a button that puts the cursor in its field. */
export const ProblemsBlock = memo(function ProblemsBlock({ problems, lang, focus }: { problems: Problem[]; lang: string; focus(path: string | null): void }) {
  const { t } = useTranslation();
  return (
    <section className="block problems" aria-labelledby="h-problems">
      <h2 id="h-problems">
        {t('drafts.problems.title', {
          errors: problems.filter((p) => p.severity === 'error').length,
          warnings: problems.filter((p) => p.severity === 'warning').length,
        })}
      </h2>
      {problems.length === 0 ? (
        <p>{t('drafts.problems.none')}</p>
      ) : (
        <ul data-testid="problem-list">
          {problems.map((p, i) => (
            <li key={`${p.path}-${p.code}-${i}`} className={`problem problem-${p.severity}`}>
              <button type="button" className="link" onClick={() => focus(p.path)}>
                {messageOf(p, lang)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="hint">{t('drafts.problems.neverBlocks')}</p>
    </section>
  );
});
