import { Placeholder } from '../app/Placeholder';

export function EmailsArea() {
  return <Placeholder />;
}
