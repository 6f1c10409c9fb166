// The one stylesheet, in one order whichever chunk a screen's code is in: each area's rules, then
// the shared rules of styles.css, which win where both set the same thing.
import './issued/issued.css';
import './downloads/downloads.css';
import './issuing/issuing.css';
import './drafts/drafts.css';
import './drafts/editor/editor.css';
import './emails/emails.css';
import './settings/settings.css';
import './updates/updates.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ErrorBoundary } from './app/ErrorBoundary';
import { warmFormatsSoon } from './app/warm-formats';
import { initI18n } from './i18n';

warmFormatsSoon();
await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
