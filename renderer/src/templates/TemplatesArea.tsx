import { Placeholder } from '../app/Placeholder';

export function TemplatesArea() {
  return <Placeholder />;
}
