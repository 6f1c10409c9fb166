// `npm start`: the app in Electron where its binary is installed, otherwise the browser host.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronBinary } from './electron-binary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const binary = electronBinary().path;
const [command, args] = binary
  ? [binary, [root]]
  : [process.execPath, [path.join(root, 'out', 'main', 'browser-host.cjs'), '--open']];
if (!binary) console.log('No Electron binary is installed here, so eInvoice Desk opens in your browser instead.');
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
