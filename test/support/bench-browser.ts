import fs from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

/**
 * The browser the screen benchmarks measure in: `BENCH_BROWSER` if set, else Chromium's headless
 * shell (Debian's `chromium-headless-shell`) where installed, else Debian's Chromium, else
 * Playwright's own. The app runs in Electron, whose renderer is Chromium's content layer without
 * Chrome's own features, and so is the headless shell. Chrome's features do work beside the page
 * on the same two cores: its form autofill reads a form after every keystroke, and each new window
 * loads Chrome's own pages (the address bar's drop-down is one) as the app starts.
 */
export const BENCH_BROWSER: string | undefined =
  process.env.BENCH_BROWSER || ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

/** How a bench names the browser it measured in, for its printed figures. */
export function benchBrowserName(): string {
  if (!BENCH_BROWSER) return "Playwright's Chromium";
  return BENCH_BROWSER.endsWith('headless-shell')
    ? `${BENCH_BROWSER}: no Chrome features, as in Electron`
    : `${BENCH_BROWSER}: with Chrome's own features, which Electron does not have`;
}

export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({
    ...(BENCH_BROWSER ? { executablePath: BENCH_BROWSER } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}
