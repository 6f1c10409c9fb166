/**
 * Reads electron-builder.yml, its per-machine variant and the GitHub workflows, and checks the
 * release promises: where updates are published, per-user NSIS, fuses, what is packaged, which
 * files reach the release, and that signing secrets only ever come from `secrets.*`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };
const builderConfig = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, debug: { isEnabled: boolean }): Promise<void>;
};

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const load = (file: string): Any => yaml.load(read(file));

const pkg = JSON.parse(read('package.json')) as { productName: string; repository: { url: string } };
const [, owner, repo] = /github\.com[/:]([^/]+)\/([^/.]+)(?:\.git)?$/.exec(pkg.repository.url) ?? [];
const config = load('electron-builder.yml');

function pngSize(file: string): { width: number; height: number } {
  const bytes = fs.readFileSync(path.join(root, file));
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('is valid for electron-builder itself (its schema), as is the per-machine variant', async () => {
    for (const file of ['electron-builder.yml', 'electron-builder.per-machine.yml']) {
      const merged = await builderConfig.getConfig(root, file);
      await expect(builderConfig.validateConfiguration(merged, { isEnabled: false })).resolves.toBeUndefined();
    }
  });

  it('names the app and takes its icons from assets/', () => {
    expect(config.appId).toBe('vn.einvoicedesk.app');
    expect(config.productName).toBe(pkg.productName);
    expect(config.directories.buildResources).toBe('assets');
    expect(pngSize(config.win.icon)).toEqual({ width: 512, height: 512 });
    expect(pngSize(config.mac.icon)).toEqual({ width: 512, height: 512 });
    expect(pngSize(path.join(config.linux.icon, '256x256.png'))).toEqual({ width: 256, height: 256 });
    expect(pngSize(path.join(config.linux.icon, '512x512.png'))).toEqual({ width: 512, height: 512 });
  });

  it('publishes to GitHub releases of package.json repository, as full releases', () => {
    expect(owner).toBe('einvoice-desk');
    const publish = [config.publish].flat();
    expect(publish).toHaveLength(1);
    expect(publish[0]).toMatchObject({ provider: 'github', owner, repo, releaseType: 'release' });
  });

  it('packages into asar only the build output, package.json and production modules', () => {
    expect(config.asar).toBe(true);
    const files: string[] = config.files;
    expect(files).toContain('out/**/*');
    expect(files).toContain('package.json');
    const includes = files.filter((f) => !f.startsWith('!'));
    expect(includes.sort()).toEqual(['out/**/*', 'package.json']);
    const excludes = files.filter((f) => f.startsWith('!')).join('\n');
    for (const needle of ['*.map', '.env', '*.pem', 'test', '.npmrc', 'sqlite']) expect(excludes).toContain(needle);
  });

  it('Windows: NSIS, per-user and one-click (no admin rights to install or update)', () => {
    expect([config.win.target].flat().map((t: Any) => (typeof t === 'string' ? t : t.target))).toEqual(['nsis']);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
    expect(config.nsis.allowElevation).not.toBe(true);
  });

  it('Windows: names the publisher, so electron-updater verifies the Authenticode signature of every update it downloads', async () => {
    const names = [config.win.signtoolOptions?.publisherName].flat().filter(Boolean);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toMatch(/\S/);
    // Verification is electron-builder's default; it must not be switched off.
    expect(config.win.verifyUpdateCodeSignature).not.toBe(false);
    // The per-machine installer is the same signed app: it keeps the name (through `extends`).
    const merged = await builderConfig.getConfig(root, 'electron-builder.per-machine.yml');
    expect((merged.win as Any).signtoolOptions.publisherName).toEqual(config.win.signtoolOptions.publisherName);
    expect((merged.win as Any).verifyUpdateCodeSignature).not.toBe(false);
  });

  it('has a documented per-machine variant that extends it', async () => {
    const variant = load('electron-builder.per-machine.yml');
    expect(variant.extends).toBe('./electron-builder.yml');
    const merged = await builderConfig.getConfig(root, 'electron-builder.per-machine.yml');
    expect(merged).toMatchObject({ appId: config.appId, nsis: { perMachine: true, oneClick: false }, electronFuses: config.electronFuses });
    expect(merged.publish).toBeNull();
    expect(read('README.md')).toContain('electron-builder.per-machine.yml');
  });

  it('macOS: dmg (and the zip electron-updater needs) with the hardened runtime and notarisation', () => {
    const targets = [config.mac.target].flat().map((t: Any) => (typeof t === 'string' ? t : t.target));
    expect(targets).toEqual(expect.arrayContaining(['dmg', 'zip']));
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    expect(fs.existsSync(path.join(root, config.mac.entitlements))).toBe(true);
  });

  it('Linux: AppImage and deb', () => {
    expect([config.linux.target].flat().sort()).toEqual(['AppImage', 'deb']);
  });

  it('sets the Electron fuses', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
    });
  });
});

const SECRETS = ['CSC_LINK', 'CSC_KEY_PASSWORD', 'WIN_CSC_LINK', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID', 'GH_TOKEN'];

describe('.github/workflows/ci.yml', () => {
  const ci = load('.github/workflows/ci.yml');

  it('runs on pushes and pull requests with read-only permissions', () => {
    expect(Object.keys(ci.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    expect(ci.permissions).toEqual({ contents: 'read' });
  });

  it('lints and tests on ubuntu, windows and macos', () => {
    const matrixJob = Object.values(ci.jobs).find((job: Any) => job.strategy?.matrix?.os) as Any;
    expect(matrixJob.strategy.matrix.os).toEqual(expect.arrayContaining(['ubuntu-latest', 'windows-latest', 'macos-latest']));
    const runs = matrixJob.steps.map((s: Any) => s.run ?? '').join('\n');
    expect(runs).toMatch(/npm ci/);
    expect(runs).toMatch(/npm run lint|eslint/);
    expect(runs).toMatch(/npm run typecheck|tsc/);
    expect(runs).toMatch(/vitest run/);
  });

  it('runs the Electron smoke tests under xvfb on ubuntu', () => {
    const job = Object.values(ci.jobs).find((j: Any) => j.steps.some((s: Any) => /xvfb-run/.test(s.run ?? ''))) as Any;
    expect(job).toBeDefined();
    expect(job['runs-on']).toBe('ubuntu-latest');
    const smoke = job.steps.find((s: Any) => /xvfb-run/.test(s.run ?? ''));
    expect(smoke.run).toMatch(/xvfb-run -a npx playwright test test\/electron/);
    expect(smoke.env?.ELECTRON_NO_UPDATER).toBe('1');
  });
});

describe('.github/workflows/release.yml', () => {
  const release = load('.github/workflows/release.yml');
  const text = read('.github/workflows/release.yml');

  it('runs on a version tag and may write releases', () => {
    expect(release.on.push.tags).toEqual(['v*']);
    expect(release.permissions).toEqual({ contents: 'write' });
  });

  it('builds Windows, macOS and Linux with electron-builder --publish always', () => {
    const build = release.jobs.build;
    const matrix = build.strategy.matrix.include;
    expect(matrix.map((m: Any) => m.os).sort()).toEqual(['macos-latest', 'ubuntu-latest', 'windows-latest']);
    expect(matrix.map((m: Any) => m.target).sort()).toEqual(['--linux', '--mac', '--win']);
    const publish = build.steps.find((s: Any) => /electron-builder/.test(s.run ?? ''));
    expect(publish.run).toMatch(/electron-builder \$\{\{ matrix\.target \}\} .*--publish always/);
    expect(build.steps.findIndex((s: Any) => /scripts\/build\.mjs/.test(s.run ?? ''))).toBeLessThan(build.steps.indexOf(publish));
  });

  it('uploads the installers, latest*.yml and blockmaps, and publishes only when all of them are there', () => {
    const artifact = release.jobs.build.steps.find((s: Any) => s.uses?.startsWith('actions/upload-artifact'));
    for (const pattern of ['dist/latest*.yml', 'dist/*.blockmap', 'dist/*.exe', 'dist/*.dmg', 'dist/*.AppImage', 'dist/*.deb', 'dist/*.zip']) {
      expect(artifact.with.path).toContain(pattern);
    }
    const final = release.jobs.publish;
    expect([final.needs].flat()).toContain('build');
    const script = final.steps.map((s: Any) => s.run ?? '').join('\n');
    for (const manifest of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml']) expect(script).toContain(manifest);
    expect(script).toContain('.blockmap');
    expect(script).toMatch(/gh release edit .*--draft=false/);
    // The draft is created before the builds upload into it.
    expect([release.jobs.build.needs].flat()).toContain('draft');
    expect(release.jobs.draft.steps.map((s: Any) => s.run ?? '').join('\n')).toMatch(/gh release create .*--draft/);
  });

  it('reads every signing secret from the repository secrets, never a literal', () => {
    const publish = release.jobs.build.steps.find((s: Any) => /electron-builder/.test(s.run ?? ''));
    for (const name of SECRETS) {
      expect(publish.env[name], name).toMatch(new RegExp(`^\\$\\{\\{.*\\bsecrets\\.${name}\\b.*\\}\\}$`));
    }
    expect(publish.env.WIN_CSC_KEY_PASSWORD).toMatch(/secrets\.WIN_CSC_KEY_PASSWORD/);
    for (const job of Object.values(release.jobs) as Any[]) {
      for (const step of job.steps) {
        for (const [key, value] of Object.entries(step.env ?? {})) {
          if (/TOKEN|PASSWORD|CSC|APPLE/.test(key)) expect(String(value), key).toMatch(/^\$\{\{.*secrets\./);
        }
      }
    }
    expect(text).not.toMatch(/\bgh[pousr]_[A-Za-z0-9]{20,}/);
  });

  it('every secret is documented in the README', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Releases and updates'));
    expect(section.length).toBeGreaterThan(100);
    for (const name of [...SECRETS, 'WIN_CSC_KEY_PASSWORD']) expect(section, name).toContain(`\`${name}\``);
    for (const needle of ['ELECTRON_NO_UPDATER=1', 'EINVOICE_UPDATE_URL', 'git tag v', 'publisherName']) expect(section).toContain(needle);
  });
});

describe('the package.json this all relies on', () => {
  it('has the main entry electron-builder packages, and electron-updater as a runtime dependency', () => {
    const full = JSON.parse(read('package.json')) as { main: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(full.main).toBe('out/main/electron.cjs');
    expect(full.dependencies['electron-updater']).toBeDefined();
    expect(full.devDependencies['electron-builder']).toBeDefined();
    expect(full.devDependencies.electron).toBeDefined();
  });
});
