import { formatWarmUps, type FormatLang } from '../../../common/format';
import { whenIdle } from './idle';

const LANGS: readonly FormatLang[] = ['vi', 'en'];

/**
 * Has the first (slow) number and date formats of both languages made before a screen needs them:
 * on a worker thread while the page starts, so nothing waits on the page's thread. Where no worker
 * starts, here once the page is idle, one format per idle turn (a click meanwhile waits for one at
 * most).
 */
export function warmFormatsSoon(): void {
  const here = () => {
    for (const lang of LANGS) for (const warm of formatWarmUps(lang)) whenIdle(warm, 2000);
  };
  let worker: Worker;
  try {
    worker = new Worker(new URL('./warm-formats.worker.ts', import.meta.url), { type: 'module', name: 'warm-formats' });
  } catch (error) {
    console.warn('Formats are warmed on the page: no worker thread could start.', error);
    here();
    return;
  }
  worker.onmessage = () => worker.terminate();
  worker.onerror = (e) => {
    console.warn('Formats are warmed on the page: the worker thread failed.', e.message || 'its script did not load');
    worker.terminate();
    here();
  };
  worker.postMessage(LANGS);
}
