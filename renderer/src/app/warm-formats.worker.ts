import { warmFormats, type FormatLang } from '../../../common/format';

// Loads ICU's locale data on a thread of its own: the page's thread finds it loaded (the data is
// the process's), so its own first format is quick.
self.onmessage = (e: MessageEvent<FormatLang[]>) => {
  for (const lang of e.data) warmFormats(lang);
  self.postMessage('warm');
};
