import { Placeholder } from '../app/Placeholder';

export function DownloadsArea() {
  return <Placeholder />;
}
