import { Placeholder } from '../app/Placeholder';

export function SettingsArea() {
  return <Placeholder />;
}
