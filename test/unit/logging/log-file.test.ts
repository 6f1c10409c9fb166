import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile } from '../../../main/services/logging/log-file';
import { makeTempDir } from '../../support/temp-dir';

let temp: ReturnType<typeof makeTempDir>;
afterEach(() => temp?.cleanup());

const readAll = (log: LogFile) =>
  log
    .files()
    .map((f) => fs.readFileSync(f, 'utf8'))
    .join('');

describe('rotating log file', () => {
  it('writes one timestamped line per call, with newlines folded', () => {
    temp = makeTempDir();
    const log = new LogFile({ dir: temp.dir, now: () => new Date('2026-11-21T08:00:00Z') });
    log.write('info', 'started');
    log.write('error', 'two\nlines');
    expect(fs.readFileSync(log.file, 'utf8')).toBe('2026-11-21T08:00:00.000Z INFO started\n2026-11-21T08:00:00.000Z ERROR two ⏎ lines\n');
  });

  it('redacts tokens, passwords, email addresses and remembered secrets before writing', () => {
    temp = makeTempDir();
    const log = new LogFile({ dir: temp.dir });
    const pasted = 'shop-token-8c1f9a77';
    log.remember(pasted);
    log.write('info', `Authorization: Bearer ${pasted}`);
    log.write('info', `token field {"password":"Matkhau@123","token":"abc.def.ghi"} sent to chi.nguyen@cuahang.vn`);
    log.write('warn', `raw ${pasted} again and eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl`);
    const text = fs.readFileSync(log.file, 'utf8');
    for (const secret of [pasted, 'Matkhau@123', 'chi.nguyen@cuahang.vn', 'eyJhbGciOiJIUzI1NiJ9']) expect(text).not.toContain(secret);
    expect(text).toContain('[email]');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
  });

  it('rotates at the size limit and keeps only the newest files', () => {
    temp = makeTempDir();
    const log = new LogFile({ dir: temp.dir, maxBytes: 200, keep: 3 });
    for (let i = 0; i < 60; i++) log.write('info', `line ${String(i).padStart(3, '0')} ${'x'.repeat(40)}`);
    const files = log.files();
    expect(files.map((f) => path.basename(f))).toEqual(['einvoice.log', 'einvoice.1.log', 'einvoice.2.log', 'einvoice.3.log']);
    for (const file of files) expect(fs.statSync(file).size).toBeLessThanOrEqual(200);
    const text = readAll(log);
    expect(text).toContain('line 059');
    expect(text).not.toContain('line 000');
    expect(fs.readdirSync(temp.dir)).toHaveLength(4);
  });

  it('picks up the size of an existing file after a restart', () => {
    temp = makeTempDir();
    new LogFile({ dir: temp.dir, maxBytes: 150 }).write('info', 'y'.repeat(100));
    const again = new LogFile({ dir: temp.dir, maxBytes: 150 });
    again.write('info', 'z'.repeat(100));
    expect(again.files()).toHaveLength(2);
  });
});
