import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** @electron/fuses looks for this sentinel and reads the fuse wire right after it. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Fuse wire v1 states (ASCII): '0' disabled, '1' enabled. */
export const FUSE_DISABLE = 0x30;
export const FUSE_ENABLE = 0x31;

/**
 * Electron 45's fuse wire as shipped: version 1, 8 fuses, in @electron/fuses' FuseV1Options order
 * (RunAsNode, EnableCookieEncryption, EnableNodeOptionsEnvironmentVariable, EnableNodeCliInspectArguments,
 * EnableEmbeddedAsarIntegrityValidation, OnlyLoadAppFromAsar, LoadBrowserProcessSpecificV8Snapshot,
 * GrantFileProtocolExtraPrivileges). The shipped defaults are the permissive ones our config flips.
 */
export const SHIPPED_FUSES = [FUSE_ENABLE, FUSE_DISABLE, FUSE_ENABLE, FUSE_ENABLE, FUSE_DISABLE, FUSE_DISABLE, FUSE_DISABLE, FUSE_ENABLE];

/**
 * Writes a stand-in for an unpacked Linux Electron distribution (the npm package has no binary and
 * none can be downloaded here): an `electron` executable that carries the fuse sentinel and wire so
 * electron-builder's real fuse flipping runs against it, plus the files electron-builder moves
 * (LICENSE, version) and the usual neighbours. No default_app.asar: electron-builder keeps a custom
 * distribution's one and hashes it for asar integrity, so a fake one would not parse.
 */
export function writeStandInElectron(dir: string, version: string): string {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'locales'), { recursive: true });
  const wire = Buffer.from([1, SHIPPED_FUSES.length, ...SHIPPED_FUSES]);
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\necho "stand-in Electron: no real binary can be downloaded on this machine" >&2\nexit 1\n# '),
    Buffer.from(FUSE_SENTINEL, 'ascii'),
    wire,
    Buffer.from('\n'),
  ]);
  fs.writeFileSync(path.join(dir, 'electron'), binary, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'chrome-sandbox'), 'stand-in', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'chrome_crashpad_handler'), 'stand-in', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'Copyright (c) Electron contributors (stand-in)\n');
  fs.writeFileSync(path.join(dir, 'LICENSES.chromium.html'), '<html><body>stand-in</body></html>\n');
  fs.writeFileSync(path.join(dir, 'version'), `${version}\n`);
  for (const name of [
    'icudtl.dat',
    'resources.pak',
    'chrome_100_percent.pak',
    'chrome_200_percent.pak',
    'v8_context_snapshot.bin',
    'snapshot_blob.bin',
    'libffmpeg.so',
    'libEGL.so',
    'libGLESv2.so',
    'libvk_swiftshader.so',
    'vk_swiftshader_icd.json',
  ]) {
    fs.writeFileSync(path.join(dir, name), 'stand-in');
  }
  fs.writeFileSync(path.join(dir, 'locales', 'en-US.pak'), 'stand-in');
  fs.writeFileSync(path.join(dir, 'locales', 'vi.pak'), 'stand-in');
  return dir;
}

interface ResEditExecutable {
  setExtraData(bin: ArrayBufferView): void;
  generate(): ArrayBuffer;
}
// electron-builder's own PE editor (it writes the asar integrity resource into the Windows binary with it).
const resedit = require('resedit') as {
  NtExecutable: { createEmpty(is32Bit?: boolean, isDLL?: boolean): ResEditExecutable };
  NtExecutableResource: { from(exe: ResEditExecutable): { entries: unknown[]; outputResource(exe: ResEditExecutable): void } };
  Resource: {
    VersionInfo: {
      createEmpty(): {
        lang: number;
        setStringValues(lang: { lang: number; codepage: number }, values: Record<string, string>): void;
        outputToResourceEntries(entries: unknown[]): void;
      };
    };
  };
};

/**
 * The same for a Windows Electron distribution: `electron.exe` is an empty but well-formed PE image
 * with the version resource electron-builder adds the asar integrity to, and the fuse wire after it.
 */
export function writeStandInWindowsElectron(dir: string, version: string): string {
  fs.mkdirSync(path.join(dir, 'resources'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'locales'), { recursive: true });
  const exe = resedit.NtExecutable.createEmpty(false, false);
  const resources = resedit.NtExecutableResource.from(exe);
  const versionInfo = resedit.Resource.VersionInfo.createEmpty();
  versionInfo.lang = 1033;
  versionInfo.setStringValues({ lang: 1033, codepage: 1200 }, { ProductName: 'Electron', FileDescription: 'stand-in Electron' });
  versionInfo.outputToResourceEntries(resources.entries);
  resources.outputResource(exe);
  exe.setExtraData(Buffer.concat([Buffer.from(FUSE_SENTINEL, 'ascii'), Buffer.from([1, SHIPPED_FUSES.length, ...SHIPPED_FUSES])]));
  fs.writeFileSync(path.join(dir, 'electron.exe'), Buffer.from(exe.generate()));
  fs.writeFileSync(path.join(dir, 'LICENSE'), 'Copyright (c) Electron contributors (stand-in)\n');
  fs.writeFileSync(path.join(dir, 'LICENSES.chromium.html'), '<html><body>stand-in</body></html>\n');
  fs.writeFileSync(path.join(dir, 'version'), `${version}\n`);
  for (const name of [
    'icudtl.dat',
    'resources.pak',
    'chrome_100_percent.pak',
    'chrome_200_percent.pak',
    'v8_context_snapshot.bin',
    'snapshot_blob.bin',
    'ffmpeg.dll',
    'libEGL.dll',
    'libGLESv2.dll',
    'd3dcompiler_47.dll',
    'vk_swiftshader.dll',
    'vk_swiftshader_icd.json',
    'vulkan-1.dll',
  ]) {
    fs.writeFileSync(path.join(dir, name), 'stand-in');
  }
  fs.writeFileSync(path.join(dir, 'locales', 'en-US.pak'), 'stand-in');
  fs.writeFileSync(path.join(dir, 'locales', 'vi.pak'), 'stand-in');
  return dir;
}

/** The fuse wire bytes after the sentinel in a (packaged) binary: [version, length, ...states]. */
export function readFuseWire(binaryPath: string): number[] {
  const bytes = fs.readFileSync(binaryPath);
  const at = bytes.indexOf(FUSE_SENTINEL);
  if (at < 0) throw new Error(`no fuse sentinel in ${binaryPath}`);
  const start = at + FUSE_SENTINEL.length;
  const length = bytes[start + 1] ?? 0;
  return [...bytes.subarray(start, start + 2 + length)];
}
