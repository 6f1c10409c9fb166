import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../services/config';
import { createServices, type Services } from '../services/index';
import { APP_VERSION } from '../services/version';
import { keepMemoryFlat } from '../memory-policy';
import { startBrowserHost } from './server';

/** `node out/main/browser-host.cjs [--port N] [--data-dir DIR] [--open]` */
async function main(): Promise<void> {
  keepMemoryFlat();
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      open: { type: 'boolean', default: false },
    },
  });
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : resolveDataDir();
  const services = await createServices({
    dataDir,
    version: APP_VERSION,
    host: 'browser',
    log: (level, message) => console.error(`[${level}] ${message}`),
  });
  const host = await startBrowserHost({
    services,
    rendererDir: path.join(__dirname, '..', 'renderer'),
    port: values.port ? Number(values.port) : Number(process.env.EINVOICE_PORT ?? 0),
  });
  // The secret itself is never printed: the launch URL holds a one-time code that expires.
  // One machine-readable line for tests and scripts, then the human one.
  console.log(`EINVOICE_BROWSER_HOST ${JSON.stringify({ origin: host.origin, launchUrl: host.launchUrl, dataDir })}`);
  printLink(host.launchUrl);
  if (values.open) openInBrowser(host.launchUrl);
  // While the browser loads the app: the email queue's first read, so its statements are prepared and
  // the table's first pages cached before the person opens the screen (slower on a cold start).
  setTimeout(() => warmUp(services), 0);
  // Enter prints a fresh link (the printed one works once and expires after two minutes).
  process.stdin.on('data', () => printLink(host.newLaunchUrl()));
  process.stdin.on('error', () => undefined);

  const stop = async () => {
    await host.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

function warmUp(services: Services): void {
  try {
    services.emails.status();
    services.emails.list({ sort: 'id', dir: 'desc', offset: 0, limit: 50 });
  } catch {
    // No profile yet, or an unreadable queue: the screen reports it when opened.
  }
}

function printLink(url: string): void {
  console.log(`eInvoice Desk is running in your browser: open ${url} (works once, within 2 minutes; press Enter for a new link)`);
  console.log(`eInvoice Desk đang chạy trong trình duyệt: mở ${url} (dùng một lần, trong 2 phút; nhấn Enter để có liên kết mới)`);
}

function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : process.platform === 'darwin' ? ['open', [url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => console.log('Open the address above in your browser. / Hãy mở địa chỉ trên trong trình duyệt.'));
    child.unref();
  } catch {
    console.log('Open the address above in your browser. / Hãy mở địa chỉ trên trong trình duyệt.');
  }
}

main().catch((error: unknown) => {
  console.error(`eInvoice Desk could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
