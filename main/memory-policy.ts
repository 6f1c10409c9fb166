import { setFlagsFromString } from 'node:v8';

/**
 * Memory that does not grow with a job, for every host's process (CLI, desktop main process,
 * browser host). A 100 000-invoice download keeps ~32 MB live at any size; what grew was garbage
 * waiting for a full collection, which V8 lets the old generation reach up to 4× what was live.
 * With these, the next full collection comes once it has grown by half, and answer buffers
 * (memory outside the JS heap) count towards that limit. Both are read at each collection, so
 * setting them once the process runs takes effect. The downloads scale bench (100 000 vs 1 000
 * IDs through the CLI, also started with `--max-semi-space-size=16` by bin/einvoice.cjs): +53 MB
 * peak with both, +65 MB with the first only, +124 MB with the second only, about +106 MB with
 * neither; with no option at all (not even the launcher's) +179 to +228 MB. Time per ID moved
 * less than it does from run to run.
 */
export function keepMemoryFlat(): void {
  setFlagsFromString('--heap-growing-percent=50');
  setFlagsFromString('--external-memory-accounted-in-global-limit');
}
