export { UpdateController, DEFAULT_POLICY, type UpdateDriver, type UpdatePolicy } from './controller';
export { resolveUpdaterMode, isOfflineError, parseUpdateUrl, updaterTurnedOffByEnvironment, type UpdaterMode, type UpdateFeed } from './mode';
export { UpdatesService, type UpdaterHost, type UpdatesHandlers } from './service';
export { realTimers, type Timers } from './timers';
export { WorkInProgress, type WorkProbe, type WorkProbeResult, type WorkCheck } from './work-in-progress';
