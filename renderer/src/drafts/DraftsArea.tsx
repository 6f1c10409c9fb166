import { Placeholder } from '../app/Placeholder';

export function DraftsArea() {
  return <Placeholder />;
}
