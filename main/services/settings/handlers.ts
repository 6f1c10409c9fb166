import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { SettingsService } from './settings';

export function settingsHandlers(settings: SettingsService): Pick<ContractHandlers, 'settings.get' | 'settings.update'> {
  return {
    'settings.get': () => settings.get(),
    'settings.update': (patch) => settings.update(patch),
  };
}
