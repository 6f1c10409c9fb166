// `npm test`: typecheck, lint, build, unit + integration (vitest), keychain tests inside a
// Secret Service session, browser e2e and Electron smoke (Playwright). Every stage runs even
// when an earlier one failed, and the run ends with one line: `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
fs.mkdirSync(results, { recursive: true });
fs.rmSync(path.join(results, 'hardening'), { recursive: true, force: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
const wanted = (stage) => only.length === 0 || only.includes(stage);

const totals = { passed: 0, failed: 0, skipped: 0 };
const checks = [];

function run(command, args, options = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32', ...options });
  return { ok: result.status === 0, seconds: ((Date.now() - started) / 1000).toFixed(1) };
}

function check(name, command, args) {
  if (!wanted(name)) return;
  console.log(`\n=== ${name}`);
  const { ok, seconds } = run(command, args);
  checks.push(`${name} ${ok ? 'ok' : 'FAILED'} (${seconds}s)`);
  if (!ok) totals.failed += 1;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function vitestStage(name, configArgs, wrap) {
  if (!wanted(name)) return;
  console.log(`\n=== ${name}`);
  const report = path.join(results, `${name}.json`);
  fs.rmSync(report, { force: true });
  const args = ['run', ...configArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const { ok, seconds } = wrap ? wrap(bin('vitest'), args) : run(bin('vitest'), args);
  const json = readJson(report);
  if (!json) {
    checks.push(`${name} FAILED before reporting (${seconds}s)`);
    totals.failed += 1;
    return;
  }
  const skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  totals.passed += json.numPassedTests;
  totals.failed += json.numFailedTests + (ok || json.numFailedTests > 0 ? 0 : 1);
  totals.skipped += skipped;
  checks.push(`${name}: ${json.numPassedTests} passed, ${json.numFailedTests} failed, ${skipped} skipped (${seconds}s)`);
}

/** Keychain tests need a D-Bus session with an unlocked gnome-keyring (the Linux Secret Service). */
function inSecretServiceSession(command, args) {
  const tools = ['dbus-run-session', 'gnome-keyring-daemon'].every((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0);
  if (!tools) return undefined;
  const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-keyring-'));
  fs.mkdirSync(path.join(xdg, 'data'));
  fs.mkdirSync(path.join(xdg, 'runtime'), { mode: 0o700 });
  const quoted = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const script = `echo -n einvoice-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; ${quoted}`;
  const outcome = run('dbus-run-session', ['--', 'sh', '-c', script], {
    env: { ...process.env, XDG_DATA_HOME: path.join(xdg, 'data'), XDG_RUNTIME_DIR: path.join(xdg, 'runtime'), EINVOICE_SECRET_SERVICE: '1' },
  });
  fs.rmSync(xdg, { recursive: true, force: true });
  return outcome;
}

check('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
check('lint', bin('eslint'), ['--max-warnings', '0', '.']);
check('format', bin('prettier'), ['--check', '.']);
check('build', process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--quiet']);

// Unit and integration tests never touch the developer's own keychain; the keychain stage
// below runs against a private Secret Service session instead.
process.env.EINVOICE_KEYCHAIN = 'off';
vitestStage('unit+integration', []);
delete process.env.EINVOICE_KEYCHAIN;

if (fs.existsSync(path.join(root, 'vitest.keychain.config.ts')) && wanted('keychain')) {
  const session = inSecretServiceSession('true', []);
  if (session) {
    vitestStage('keychain', ['--config', 'vitest.keychain.config.ts'], (command, args) => inSecretServiceSession(command, args));
  } else if (process.env.CI) {
    console.log('\n=== keychain: FAILED: dbus-run-session / gnome-keyring-daemon are not installed (apt-get install gnome-keyring dbus-x11 libsecret-tools)');
    checks.push('keychain FAILED (no Secret Service tools)');
    totals.failed += 1;
  } else {
    console.log('\n=== keychain: skipped: no Secret Service tools on this machine (Linux: apt-get install gnome-keyring dbus-x11 libsecret-tools)');
  }
}

if (wanted('e2e')) {
  console.log('\n=== e2e (Playwright: browser host in Chromium, Electron smoke)');
  const report = path.join(results, 'playwright.json');
  fs.rmSync(report, { force: true });
  const { ok, seconds } = run(bin('playwright'), ['test', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
  });
  const stats = readJson(report)?.stats;
  if (!stats) {
    checks.push(`e2e FAILED before reporting (${seconds}s)`);
    totals.failed += 1;
  } else {
    const passed = stats.expected + (stats.flaky ?? 0);
    totals.passed += passed;
    totals.failed += stats.unexpected + (ok || stats.unexpected > 0 ? 0 : 1);
    totals.skipped += stats.skipped;
    checks.push(`e2e: ${passed} passed, ${stats.unexpected} failed, ${stats.skipped} skipped (${seconds}s)`);
  }
}

/** The figures of the last landed run (test/hardening-baseline.json), printed beside the new ones. */
const baseline = readJson(path.join(root, 'test', 'hardening-baseline.json'))?.figures ?? {};

/** "230 (before: 200)", "7 (new)", or just the figure when it is not a count. */
function beside(now, before) {
  if (typeof now !== 'number') return String(now);
  return before === undefined ? `${now} (new)` : `${now} (before: ${before})`;
}

/** Figures the hardening tests recorded (test/support/hardening-report.ts), added up, each beside the last landed run's. */
function hardeningSummary() {
  const dir = path.join(results, 'hardening');
  if (!fs.existsSync(dir)) return [];
  const sum = {};
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    for (const [key, value] of Object.entries(readJson(path.join(dir, file)) ?? {})) {
      if (typeof value === 'number') sum[key] = (sum[key] ?? 0) + value;
      else if (value && typeof value === 'object') {
        sum[key] ??= {};
        for (const [k, v] of Object.entries(value)) sum[key][k] = (sum[key][k] ?? 0) + v;
      } else sum[key] = value;
    }
  }
  return Object.entries(sum).map(([key, value]) => {
    const before = baseline[key];
    if (value && typeof value === 'object') {
      const parts = Object.entries(value).map(([k, v]) => `${k} ${beside(v, before?.[k])}`);
      return `${key}: ${parts.join(', ')}`;
    }
    return `${key}: ${beside(value, before)}`;
  });
}

console.log('\n=== summary');
const hardening = hardeningSummary();
if (hardening.length) {
  console.log('  hardening:');
  for (const line of hardening) console.log(`    ${line}`);
}
for (const line of checks) console.log(`  ${line}`);
const closing = `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`;
fs.writeFileSync(path.join(results, 'summary.txt'), `${checks.join('\n')}\n${closing}\n`);
console.log(closing);
process.exit(totals.failed > 0 ? 1 : 0);
