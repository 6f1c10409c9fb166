/**
 * Wrong Node says so: `npm start`, `npm run start:browser` and `einvoice` on a Node older than 24
 * print one line naming the version found and exit non-zero before anything else runs (no build).
 * Runs the machine's own old Node (/usr/bin/node) where there is one, and a faked version always.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { nodeVersionProblem } = createRequire(import.meta.url)('../../../bin/node-check.cjs') as { nodeVersionProblem(version: string): string | null };

const OLD_NODE = '/usr/bin/node';
const oldVersion = fs.existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const hasOldNode = /^v(\d+)\./.test(oldVersion) && Number(/^v(\d+)/.exec(oldVersion)![1]) < 24;
const oldNpm = '/usr/bin/npm';

const line = (version: string) => `eInvoice Desk needs Node.js 24 or newer (found ${version}). / eInvoice Desk cần Node.js 24 trở lên (đang có ${version}).`;

function builtStamp(): number {
  const file = path.join(root, 'out', 'main', 'browser-host.cjs');
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0;
}

describe('wrong Node says so', () => {
  it('names the version found when it is older than 24, and nothing otherwise', () => {
    expect(nodeVersionProblem('v20.11.1')).toBe(line('v20.11.1'));
    expect(nodeVersionProblem('v23.9.0')).toBe(line('v23.9.0'));
    expect(nodeVersionProblem('v24.0.0')).toBeNull();
    expect(nodeVersionProblem('v25.2.1')).toBeNull();
  });

  it('exits 1 with that one line on a faked old version', () => {
    const result = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(path.join(root, 'bin', 'node-check.cjs'))}).requireNode('v20.9.0'); console.log('went on')`],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${line('v20.9.0')}\n`);
    expect(result.stdout).toBe('');
  });

  it.skipIf(!hasOldNode)('the start script, its browser mode and einvoice stop at once on the machine’s old Node', () => {
    const before = builtStamp();
    for (const args of [['scripts/start.mjs'], ['scripts/start.mjs', '--browser'], ['bin/einvoice.cjs', 'status']]) {
      const result = spawnSync(OLD_NODE, args, { cwd: root, encoding: 'utf8', timeout: 30_000 });
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toBe(`${line(oldVersion)}\n`);
      expect(result.stdout).toBe('');
    }
    expect(builtStamp()).toBe(before);
  });

  it.skipIf(!hasOldNode || !fs.existsSync(oldNpm))('npm start and npm run start:browser stop before the build on the machine’s old Node', () => {
    const before = builtStamp();
    for (const script of [['start'], ['run', 'start:browser']]) {
      const result = spawnSync(oldNpm, script, {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, PATH: `${path.dirname(OLD_NODE)}:/bin` },
      });
      expect(result.status, script.join(' ')).not.toBe(0);
      expect(result.stderr).toContain(line(oldVersion));
      expect(result.stdout).not.toContain('Built main');
    }
    expect(builtStamp()).toBe(before);
  });
});
