import type { Messages } from './vi';

// Keys are checked by the typecheck: a missing or misspelt key in t('…') fails `tsc`.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}
