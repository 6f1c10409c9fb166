import { warmFormats, type FormatLang } from '../../../common/format';
import { whenIdle } from './idle';

const LANGS: readonly FormatLang[] = ['vi', 'en'];

/**
 * Has the first (slow) number and date formats made before a screen needs them: on a worker
 * thread while the page starts, so nothing waits on the page's thread; where a worker cannot start,
 * here once the page is idle, one language per idle turn (a click meanwhile waits for one at most).
 */
export function warmFormatsSoon(): void {
  const here = () => {
    for (const lang of LANGS) whenIdle(() => warmFormats(lang), 2000);
  };
  let worker: Worker;
  try {
    worker = new Worker(new URL('./warm-formats.worker.ts', import.meta.url), { type: 'module', name: 'warm-formats' });
  } catch {
    here();
    return;
  }
  worker.onmessage = () => worker.terminate();
  worker.onerror = (e) => {
    e.preventDefault();
    worker.terminate();
    here();
  };
  worker.postMessage(LANGS);
}
