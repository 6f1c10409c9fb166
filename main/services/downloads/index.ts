export { DownloadsService, type DownloadsDeps, type DownloadSession, type DialogsPort, type CreateJobInput } from './service';
export { DownloadEngine, type DownloadClient, type EngineOptions, type EngineOutcome } from './engine';
export type { EngineProgress } from './progress';
export { JobsRepository, jobFingerprint, type JobRow, type JobSettings, type JobCounts } from './repository';
export { safeComponent, fileNameFor, resolveInside, extensionFor, TEMP_PREFIX } from './names';
export { readZipSafely, writeEntries, safeEntryParts, ZipRefused, DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip';
export { failedItemsCsv } from './csv';
