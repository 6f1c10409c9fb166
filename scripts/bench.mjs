// `npm run bench`: every benchmark in test/bench, one file at a time, figures printed.
import { spawnSync } from 'node:child_process';
const args = ['vitest', 'run', '--config', 'vitest.bench.config.ts', ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(result.status ?? 1);
