// `npm start`: the app in Electron where its binary is installed, otherwise the browser host.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    return require('electron'); // the path of the binary, or a throw when it was never downloaded
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const [command, args] = binary
  ? [binary, [root]]
  : [process.execPath, [path.join(root, 'out', 'main', 'browser-host.cjs'), '--open']];
if (!binary) console.log('No Electron binary is installed here, so eInvoice Desk opens in your browser instead.');
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
