// `npm start`: the app in Electron where its binary is installed, otherwise the browser host.
// `npm run start:browser` (`--browser`): the browser host. Both check Node first, then build.
import { createRequire } from 'node:module';

createRequire(import.meta.url)('../bin/node-check.cjs').requireNode();

const { spawn, spawnSync } = await import('node:child_process');
const path = await import('node:path');
const { fileURLToPath } = await import('node:url');
const { electronBinary } = await import('./electron-binary.mjs');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const binary = process.argv.includes('--browser') ? undefined : electronBinary().path;
const [command, args] = binary ? [binary, [root]] : [process.execPath, [path.join(root, 'out', 'main', 'browser-host.cjs'), '--open']];
if (!binary && !process.argv.includes('--browser')) console.log('No Electron binary is installed here, so eInvoice Desk opens in your browser instead.');
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
