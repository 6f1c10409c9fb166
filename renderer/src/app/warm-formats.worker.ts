import { formatWarmUps, type FormatLang } from '../../../common/format';

/** This thread's global scope (the project's DOM typings describe a window's). */
const scope = self as unknown as { onmessage: ((e: MessageEvent<FormatLang[]>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (e) => {
  for (const lang of e.data) for (const warm of formatWarmUps(lang)) warm();
  scope.postMessage('warm');
};
