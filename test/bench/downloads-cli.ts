/**
 * The `einvoice download` command as the downloads scale benchmark runs it: the CLI bundled from
 * the sources, run in a process of its own started as the `einvoice` launcher starts it (the `#!`
 * line of bin/einvoice.cjs) with a preload that writes, when the process exits,
 * its start time, exit time and peak RSS; and the sandbox's request log, which says when the
 * first Download call of a run arrived.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleForNode } from '../support/bundle';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Epoch ms: the process's start (performance.timeOrigin), its exit (absent when killed). */
  startedAt: number;
  exitedAt: number | null;
  maxRssKb: number | null;
  /** The `--json` document (null when killed). */
  report: { items: unknown[]; saved: number; failed: number; skipped: number } | null;
  /** Items seen on stdout (the streamed document, also when killed). */
  itemsSeen: number;
  stderr: string;
}

export interface CliHarness {
  /** `plain`: without the launcher's environment settings and Node options. */
  run(args: string[], options?: { killAfterItems?: number; plain?: boolean }): Promise<CliRun>;
}

/**
 * How the `einvoice` launcher starts the CLI: the `#!/usr/bin/env -S [NAME=value…] node [option…]`
 * line of bin/einvoice.cjs, its environment settings and its Node options.
 */
export function launcherStart(root: string): { env: Record<string, string>; nodeOptions: string[] } {
  const first = fs.readFileSync(path.join(root, 'bin', 'einvoice.cjs'), 'utf8').split('\n', 1)[0]!;
  const words = first
    .replace(/^#!\S*env\s+(-S\s+)?/, '')
    .split(/\s+/)
    .filter(Boolean);
  const at = words.indexOf('node');
  const env = Object.fromEntries(words.slice(0, Math.max(0, at)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
  return { env, nodeOptions: at < 0 ? [] : words.slice(at + 1) };
}

/** Bundles the CLI and the exit probe into `work`; runs it as the launcher does (`launcherStart`). */
export async function cliHarness(root: string, work: string, env: Record<string, string>): Promise<CliHarness> {
  const launcher = launcherStart(root);
  const bundle = path.join(work, 'einvoice-cli.cjs');
  await bundleForNode(path.join(root, 'main', 'cli', 'main.ts'), bundle);
  const probe = path.join(work, 'exit-probe.cjs');
  fs.writeFileSync(
    probe,
    `const fs = require('node:fs');
     process.on('exit', () => {
       fs.writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify({ startedAt: performance.timeOrigin, exitedAt: Date.now(), maxRssKb: process.resourceUsage().maxRSS }));
     });`,
  );
  let n = 0;
  return {
    run(args, options = {}) {
      const probeFile = path.join(work, `probe-${n++}.json`);
      fs.rmSync(probeFile, { force: true });
      const spawnedAt = performance.timeOrigin + performance.now();
      const child = spawn(process.execPath, [...(options.plain ? [] : launcher.nodeOptions), '-r', probe, bundle, ...args], {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          ...(options.plain ? {} : launcher.env),
          ...env,
          NODE_PATH: path.join(root, 'node_modules'),
          BENCH_PROBE_FILE: probeFile,
          EINVOICE_KEYCHAIN: 'off',
        },
      });
      const chunks: string[] = [];
      let stderr = '';
      let itemsSeen = 0;
      let killed = false;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        chunks.push(d);
        itemsSeen += d.split('{"transactionId"').length - 1;
        if (!killed && options.killAfterItems !== undefined && itemsSeen >= options.killAfterItems) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      return new Promise((resolve) => {
        child.on('close', (code, signal) => {
          const probed = fs.existsSync(probeFile)
            ? (JSON.parse(fs.readFileSync(probeFile, 'utf8')) as { startedAt: number; exitedAt: number; maxRssKb: number })
            : null;
          const stdout = chunks.join('');
          resolve({
            code,
            signal,
            startedAt: probed?.startedAt ?? spawnedAt,
            exitedAt: probed?.exitedAt ?? null,
            maxRssKb: probed?.maxRssKb ?? null,
            report: killed || stdout === '' ? null : (JSON.parse(stdout) as CliRun['report']),
            itemsSeen,
            stderr,
          });
        });
      });
    },
  };
}

/** Epoch ms of the first Download call the sandbox received after request number `afterSeq`. */
export async function firstDownloadAfter(origin: string, afterSeq: number): Promise<{ at: number; seq: number } | null> {
  const log = (await (await fetch(`${origin}/__sandbox/requests?op=download`)).json()) as Array<{ seq: number; at: string }>;
  const first = log.find((r) => r.seq > afterSeq);
  return first ? { at: Date.parse(first.at), seq: first.seq } : null;
}

/** The number of the last request the sandbox logged (0 before any). */
export async function lastRequestSeq(origin: string): Promise<number> {
  const log = (await (await fetch(`${origin}/__sandbox/requests`)).json()) as Array<{ seq: number }>;
  return log.at(-1)?.seq ?? 0;
}
