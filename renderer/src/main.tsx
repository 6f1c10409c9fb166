import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ErrorBoundary } from './app/ErrorBoundary';
import { whenIdle } from './app/idle';
import { formatCount, formatDateTime, formatTime } from '../../common/format';
import { initI18n } from './i18n';
import './styles.css';

const i18n = await initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);

// Intl makes its first number and date formats slowly (tens of ms each, loading locale data): made
// while the app is idle after it first paints, the first screen showing counts or times does not wait.
// One format per idle turn, so a click that comes meanwhile waits for one of them at most.
const lang = i18n.language === 'en' ? 'en' : 'vi';
for (const warm of [() => formatCount(0, lang), () => formatDateTime(new Date(), lang), () => formatTime(new Date(), lang)]) whenIdle(warm, 2000);
