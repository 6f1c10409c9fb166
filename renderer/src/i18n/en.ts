import { downloadsEn } from '../downloads/messages';
import { emailsEn } from '../emails/messages';
import { templatesEn } from '../templates/messages';
import type { Messages } from './vi';
import { settingsEn } from '../settings/messages';
import { draftsEn } from '../drafts/messages';
import { issuingEn } from '../issuing/messages';
import { issuedEn } from '../issued/messages';

export const en: Messages = {
  app: {
    name: 'eInvoice Desk',
    nav: 'Main navigation',
    language: 'Ngôn ngữ / Language',
    online: 'Online',
    offline: 'Offline — keep working, sending resumes when the connection returns',
    sandbox: 'Sandbox (test environment)',
    version: 'Version {{version}}',
    skipToContent: 'Skip to content',
    loading: 'Opening the screen…',
    close: 'Close',
    dismiss: 'Dismiss',
    noFile: 'No file chosen',
    unsaved: {
      title: 'Unsaved changes',
      text: 'Some changes in {{area}} are not saved. Leaving now loses them.',
      stay: 'Stay and save',
      leave: 'Discard them and open {{area}}',
      mark: 'Unsaved changes',
    },
    samples: { label: 'Use Sandbox sample invoices', withCode: 'With code', withoutCode: 'Without code', cashRegister: 'Cash register' },
  },
  areas: {
    drafts: 'Drafts',
    issuing: 'Issue queue',
    issued: 'Issued invoices',
    downloads: 'Downloads',
    emails: 'Email queue',
    templates: 'Templates',
    settings: 'Settings',
  },
  updates: {
    title: 'App update',
    downloading: 'Downloading update {{version}}… {{percent}}%',
    progress: 'Update download progress',
    ready: 'Update {{version}} is ready.',
    restart: 'Restart to update',
    waiting: 'Will restart to update to {{version}} once this is finished:',
    cancel: 'Later',
    installing: 'Installing update {{version}}…',
  },
  settings: settingsEn,
  drafts: draftsEn,
  emails: emailsEn,
  templates: templatesEn,
  downloads: downloadsEn,
  issuing: issuingEn,
  issued: issuedEn,
  errors: {
    title: 'Something went wrong',
    body: 'This screen ran into a problem. Your saved work is safe.',
    reload: 'Reload the screen',
  },
};
