import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { fileNameFor, resolveInside, safeComponent, TEMP_PREFIX } from '../../../main/services/downloads/names';
import { makeTempDir } from '../../support/temp-dir';

describe('safeComponent', () => {
  it('leaves a plain TransactionID alone', () => {
    expect(safeComponent('GWBDKRLD5A8')).toBe('GWBDKRLD5A8');
    expect(safeComponent('a-b_c.1')).toBe('a-b_c.1');
    expect(fileNameFor('GWBDKRLD5A8', 'Pdf', false)).toBe('GWBDKRLD5A8.pdf');
    expect(fileNameFor('X', 'All', true)).toBe('X');
    expect(fileNameFor('X', 'All', false)).toBe('X.zip');
    expect(fileNameFor('X', 'Html', false)).toBe('X.html');
    expect(fileNameFor('X', 'Xml', false)).toBe('X.xml');
  });

  it.each([
    ['../x'],
    ['..'],
    ['.'],
    ['a/b'],
    ['a\\b'],
    ['/etc/passwd'],
    ['C:\\Windows\\x'],
    ['CON'],
    ['con.txt'],
    ['NUL'],
    ['COM1'],
    ['lpt9.pdf'],
    ['a\u0000b'],
    ['a\nb\r\t'],
    ['trailing. . '],
    ['x'.repeat(300)],
    ['\u202eexe.pdf'],
    ['   '],
    [''],
  ])('neutralises %j', (raw) => {
    const name = safeComponent(raw);
    // eslint-disable-next-line no-control-regex
    expect(name).not.toMatch(/[/\\:*?"<>|\u0000-\u001f]/);
    expect(name).not.toMatch(/^\./);
    expect(name).not.toMatch(/[. ]$/);
    expect(name.split('.')[0]!.toUpperCase()).not.toMatch(/^(CON|PRN|AUX|NUL|COM\d|LPT\d)$/);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
    expect(name.length).toBeGreaterThan(0);
    expect(name).not.toBe(raw);
  });

  it('gives different hostile IDs different names', () => {
    expect(safeComponent('a/b')).not.toBe(safeComponent('a\\b'));
    expect(safeComponent('a/b')).not.toBe(safeComponent('a_b'));
    expect(safeComponent('x'.repeat(300))).not.toBe(safeComponent(`${'x'.repeat(299)}y`));
  });

  it('never escapes a folder and never produces a temp name (property)', () => {
    const base = path.resolve('/srv/invoices');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (raw) => {
        const name = fileNameFor(raw, 'Pdf', false);
        const full = resolveInside(base, name);
        expect(path.dirname(full)).toBe(base);
        expect(name.startsWith(TEMP_PREFIX)).toBe(false);
        expect(Buffer.byteLength(name)).toBeLessThanOrEqual(130);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('resolveInside', () => {
  const tmp = makeTempDir('einvoice-names-');
  afterEach(() => {});
  it('refuses anything that is not a single child name', () => {
    for (const bad of ['..', '.', '', 'a/b', '../x', 'a\\b', 'a\0b']) expect(() => resolveInside(tmp.dir, bad)).toThrow(/outside the folder/);
    expect(resolveInside(tmp.dir, 'ok.pdf')).toBe(path.join(tmp.dir, 'ok.pdf'));
  });
  it('the sanitised names are writable files on this system', () => {
    for (const raw of ['../x', 'a/b', 'CON', 'x'.repeat(300), 'a\u0001b', 'é'.repeat(200)]) {
      const p = resolveInside(tmp.dir, fileNameFor(raw, 'Pdf', false));
      fs.writeFileSync(p, 'x');
    }
    expect(fs.readdirSync(tmp.dir)).toHaveLength(6);
    tmp.cleanup();
  });
});
