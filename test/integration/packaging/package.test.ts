/**
 * Runs electron-builder's real packaging step (`--linux dir`, current arch) with electron-builder.yml
 * against a stand-in Electron distribution, then opens the produced app.asar and checks what went in:
 * our built code yes; test/, sources, source maps, dev tools, secrets and local data no. Also checks
 * that the fuses were flipped in the (stand-in) binary and that app-update.yml points at GitHub.
 * Prints the package's size.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire, isBuiltin } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runElectronBuilder } from './run-builder';
import { FUSE_DISABLE, FUSE_ENABLE, readFuseWire, writeStandInElectron } from './stand-in-electron';

const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as {
  listPackage(archive: string, options?: { isPack: boolean }): string[];
  extractFile(archive: string, filename: string): Buffer;
  statFile(archive: string, filename: string): { size?: number; unpacked?: boolean; files?: unknown; link?: string };
};
const yaml = require('js-yaml') as { load(text: string): unknown };

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const ELECTRON_VERSION = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let appDir: string;
let archive: string;
let entries: string[];
let files: string[];
/** Canaries planted in out/ (which the package includes) to prove the exclusions hold. */
const CANARIES = ['out/.env', 'out/main/release-signing.pem', 'out/main/gh.token', 'out/einvoice.sqlite', 'out/main/planted.ts'];

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(full) : fs.lstatSync(full).size;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

// electron-builder's Linux `dir` target with a shell-script stand-in: Linux only (the CI ubuntu job runs it).
const onLinux = process.platform === 'linux';

beforeAll(async () => {
  if (!onLinux) return;
  // Build once when there is no build yet (CI); a developer's fresh `out/` is used as it is.
  if (!fs.existsSync(path.join(root, 'out', 'main', 'electron.cjs')) || process.env.EINVOICE_PACKAGING_REBUILD === '1') {
    const build = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }
  for (const canary of CANARIES) fs.writeFileSync(path.join(root, canary), 'CANARY_SECRET=do-not-ship\n');

  work = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-packaging-'));
  const dist = writeStandInElectron(path.join(work, 'electron-dist'), ELECTRON_VERSION);
  const output = path.join(work, 'release');
  const arch = process.arch === 'arm64' ? '--arm64' : '--x64';
  const started = Date.now();
  let result: { code: number | null; output: string };
  try {
    result = await runElectronBuilder(
      root,
      [
        '--linux',
        'dir',
        arch,
        '--config',
        'electron-builder.yml',
        `-c.electronDist=${dist}`,
        `-c.electronVersion=${ELECTRON_VERSION}`,
        `-c.directories.output=${output}`,
        '--publish',
        'never',
      ],
      150_000,
    );
  } finally {
    for (const canary of CANARIES) fs.rmSync(path.join(root, canary), { force: true });
  }
  if (result.code !== 0) throw new Error(`electron-builder failed (${result.code}):\n${result.output}`);
  console.log(`electron-builder --linux dir ${arch}: ${((Date.now() - started) / 1000).toFixed(1)} s`);

  appDir =
    fs
      .readdirSync(output)
      .map((d) => path.join(output, d))
      .find((d) => d.endsWith('-unpacked')) ?? '';
  archive = path.join(appDir, 'resources', 'app.asar');
  entries = asar.listPackage(archive, { isPack: false }).map((e) => e.replaceAll('\\', '/'));
  files = entries.filter((e) => !asar.statFile(archive, e.slice(1)).files);
}, 240_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe.runIf(onLinux)('the packaged app (electron-builder --dir, stand-in Electron)', () => {
  it('prints the size of the package', () => {
    const asarBytes = fs.statSync(archive).size;
    const unpackedDir = path.join(appDir, 'resources', 'app.asar.unpacked');
    const unpackedBytes = fs.existsSync(unpackedDir) ? dirSize(unpackedDir) : 0;
    const ours = files.filter((f) => f.startsWith('/out/')).reduce((sum, f) => sum + (asar.statFile(archive, f.slice(1)).size ?? 0), 0);
    console.log(
      [
        `package size (without the Electron runtime): ${mb(asarBytes + unpackedBytes)}`,
        `  app.asar: ${mb(asarBytes)} (${files.length} files; our built code in out/: ${mb(ours)})`,
        `  app.asar.unpacked (native modules): ${mb(unpackedBytes)}`,
      ].join('\n'),
    );
    expect(asarBytes).toBeGreaterThan(0);
    // A budget, so a dependency that suddenly drags in a browser or a compiler fails the build.
    expect(asarBytes + unpackedBytes).toBeLessThan(80 * 1024 * 1024);
  });

  it('contains our built code and package.json, and its main entry is in the archive', () => {
    for (const needed of ['/package.json', '/out/main/electron.cjs', '/out/main/email-csv.cjs', '/out/preload/index.cjs', '/out/renderer/index.html']) {
      expect(files, needed).toContain(needed);
    }
    const packaged = JSON.parse(asar.extractFile(archive, 'package.json').toString('utf8')) as { main: string; version: string };
    expect(packaged.main).toBe(pkg.main);
    expect(packaged.version).toBe(pkg.version);
    expect(files).toContain(`/${packaged.main}`);
    const mainCode = asar.extractFile(archive, 'out/main/electron.cjs').toString('utf8');
    expect(mainCode).toContain('electron-updater');
    expect(mainCode).not.toMatch(/sourceMappingURL=data:/);
  });

  it('ships the Vietnamese-capable font the sandbox renders PDFs with, outside the archive', () => {
    for (const font of ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']) {
      const file = path.join(appDir, 'resources', 'assets', 'fonts', font);
      expect(fs.existsSync(file), file).toBe(true);
      expect(fs.statSync(file).size).toBe(fs.statSync(path.join('assets', 'fonts', font)).size);
    }
  });

  it('ships what the bundles load at run time: electron-updater and the keychain binding with their dependencies', () => {
    const has = (dir: string) => entries.includes(dir);
    const seen = new Set<string>();
    const check = (name: string, from: string) => {
      // Node's lookup: nested node_modules first, then the top level.
      const candidates = [`${from}/node_modules/${name}`, `/node_modules/${name}`];
      const found = candidates.find((c) => has(`${c}/package.json`));
      expect(found, `${name} (needed by ${from || 'the app'}) is in app.asar`).toBeDefined();
      if (!found || seen.has(found)) return;
      seen.add(found);
      const manifest = JSON.parse(asar.extractFile(archive, `${found.slice(1)}/package.json`).toString('utf8')) as { dependencies?: Record<string, string> };
      for (const dep of Object.keys(manifest.dependencies ?? {})) check(dep, found);
    };
    check('electron-updater', '');
    check('@napi-rs/keyring', '');
    // And every package the built main bundles require (esbuild's externals), whatever they are.
    for (const bundle of files.filter((f) => /^\/out\/main\/[^/]+\.cjs$/.test(f))) {
      const code = asar.extractFile(archive, bundle.slice(1)).toString('utf8');
      // esbuild's external requires: `var x = require("pkg")` / `__toESM(require("pkg"))`.
      for (const [, spec] of code.matchAll(/(?:=\s*|__toESM\()require\("([^"./][^"]*)"\)/g)) {
        if (!spec || isBuiltin(spec) || spec === 'electron' || spec.startsWith('electron/')) continue;
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        check(name, '');
      }
    }
    expect(seen.size).toBeGreaterThan(3);
    // The native binding lives outside the archive so it can be loaded.
    const unpacked = path.join(appDir, 'resources', 'app.asar.unpacked', 'node_modules', '@napi-rs');
    expect(fs.readdirSync(unpacked).some((d) => d.startsWith('keyring-'))).toBe(true);
  });

  it('leaves out test/, sources, source maps and type declarations', () => {
    const offenders = files.filter(
      (f) =>
        f.startsWith('/test/') ||
        f.startsWith('/main/') ||
        f.startsWith('/common/') ||
        f.startsWith('/renderer/') ||
        f.startsWith('/preload/') ||
        f.startsWith('/scripts/') ||
        f.startsWith('/assets/') ||
        f.startsWith('/dist/') ||
        /\.(map|tsx?|mts|cts)$/.test(f) ||
        /^\/[^/]+\.(ya?ml|config\.[cm]?[jt]s|mjs)$/.test(f) ||
        f === '/tsconfig.json' ||
        f === '/package-lock.json',
    );
    expect(offenders).toEqual([]);
    expect(files.filter((f) => f.includes('/node_modules/') && /\/(test|tests|__tests__)\//.test(f))).toEqual([]);
    // The dev/test browser host and the CLI (which cannot run with RunAsNode off) are not part of the app.
    expect(files).not.toContain('/out/main/browser-host.cjs');
    expect(files).not.toContain('/out/main/cli.cjs');
  });

  it('leaves out every dev tool (no devDependency is shipped)', () => {
    const shipped = new Set(entries.map((e) => /^\/node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(e)?.[1]).filter((n): n is string => Boolean(n)));
    const devTools = Object.keys(pkg.devDependencies).filter((name) => !(name in pkg.dependencies));
    expect(devTools).toEqual(expect.arrayContaining(['typescript', 'vite', 'vitest', 'eslint', 'electron', 'electron-builder']));
    expect(devTools.filter((name) => shipped.has(name))).toEqual([]);
    for (const name of ['esbuild', 'rollup', 'app-builder-lib', '@playwright/test', 'playwright-core', '@vitejs/plugin-react'])
      expect(shipped.has(name), name).toBe(false);
  });

  it('leaves out secrets and local data, even when they sit next to the build', () => {
    const offenders = files.filter((f) => /(^|\/)(\.env(\..*)?|\.npmrc|[^/]*\.(pem|key|p12|pfx|token|sqlite|sqlite3|db|db-wal|db-shm))$/i.test(f));
    expect(offenders).toEqual([]);
    for (const canary of CANARIES) expect(files).not.toContain(`/${canary}`);
    // No file carries the planted value or something shaped like a GitHub token.
    const leaks: string[] = [];
    for (const f of files) {
      if (asar.statFile(archive, f.slice(1)).unpacked) continue;
      const text = asar.extractFile(archive, f.slice(1)).toString('latin1');
      if (text.includes('CANARY_SECRET') || /\bgh[pousr]_[A-Za-z0-9]{36}\b/.test(text)) leaks.push(f);
    }
    expect(leaks).toEqual([]);
  });

  it('flipped the Electron fuses in the binary', () => {
    const exe = path.join(appDir, 'einvoice-desk');
    expect(fs.existsSync(exe)).toBe(true);
    const [version, length, ...states] = readFuseWire(exe);
    expect(version).toBe(1);
    expect(length).toBe(8);
    expect(states).toEqual([
      FUSE_DISABLE, // RunAsNode
      FUSE_ENABLE, // EnableCookieEncryption
      FUSE_DISABLE, // EnableNodeOptionsEnvironmentVariable
      FUSE_DISABLE, // EnableNodeCliInspectArguments
      FUSE_ENABLE, // EnableEmbeddedAsarIntegrityValidation
      FUSE_ENABLE, // OnlyLoadAppFromAsar
      FUSE_DISABLE, // LoadBrowserProcessSpecificV8Snapshot
      FUSE_DISABLE, // GrantFileProtocolExtraPrivileges
    ]);
  });

  it('tells electron-updater to read GitHub releases of our repository', () => {
    const config = yaml.load(fs.readFileSync(path.join(appDir, 'resources', 'app-update.yml'), 'utf8'));
    expect(config).toMatchObject({ provider: 'github', owner: 'einvoice-desk', repo: 'einvoice-desk', releaseType: 'release' });
  });
});
