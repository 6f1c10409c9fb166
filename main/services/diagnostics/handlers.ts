import path from 'node:path';
import type { ContractHandlers } from '../../../common/ipc/dispatch';
import type { LogFile } from '../logging/log-file';
import { exportDiagnostics, type DiagnosticsFacts } from './export';

export function diagnosticsHandlers(deps: {
  log: LogFile;
  facts: DiagnosticsFacts;
  dataDir: string;
  now?: () => Date;
}): Pick<ContractHandlers, 'diagnostics.export'> {
  return {
    'diagnostics.export': () => exportDiagnostics(deps.log, deps.facts, path.join(deps.dataDir, 'diagnostics'), deps.now),
  };
}
