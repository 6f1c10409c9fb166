import type { ComponentType } from 'react';
import { DownloadsArea } from '../downloads/DownloadsArea';
import { EmailsArea } from '../emails/EmailsArea';
import { IssuedArea } from '../issued/IssuedArea';
import { IssuingArea } from '../issuing/IssuingArea';
import { SettingsArea } from '../settings/SettingsArea';
import { TemplatesArea } from '../templates/TemplatesArea';
import type { Area } from './store';

/** The areas other than the drafts the app opens on: a chunk of their own (vite.config.ts says why). */
export const LATER_AREAS: Record<Exclude<Area, 'drafts'>, ComponentType> = {
  issuing: IssuingArea,
  issued: IssuedArea,
  downloads: DownloadsArea,
  emails: EmailsArea,
  templates: TemplatesArea,
  settings: SettingsArea,
};
