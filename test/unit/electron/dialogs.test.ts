import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// Electron's shell cannot run under vitest: record what would have been opened or shown.
const calls = vi.hoisted(() => ({ opened: [] as string[], shown: [] as string[] }));
vi.mock('electron', () => ({
  dialog: {},
  shell: {
    openPath: async (p: string) => {
      calls.opened.push(p);
      return '';
    },
    showItemInFolder: (p: string) => void calls.shown.push(p),
  },
}));
const { openAction, electronDialogs } = await import('../../../main/electron/dialogs');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einvoice-dialogs-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('opening a downloaded file never executes it', () => {
  it('PDF, XML, HTML and ZIP open; anything else is only shown in its folder', () => {
    for (const f of ['a.pdf', 'B.PDF', 'c.xml', 'd.html', 'e.htm', 'f.zip']) expect(openAction(`/d/${f}`, false), f).toBe('open');
    for (const f of ['x.exe', 'x.lnk', 'x.desktop', 'x.app', 'x.bat', 'x.cmd', 'x.sh', 'x.js', 'x.scr', 'x.msi', 'x.url', 'x', 'x.pdf.exe', '.pdf']) {
      expect(openAction(`/d/${f}`, false), f).toBe('showInFolder');
    }
  });

  it('a folder opens in the file manager unless it is a runnable bundle (.app, .pkg…)', () => {
    expect(openAction('/d/Hóa đơn 2026', true)).toBe('open');
    expect(openAction('/d/Invoices.v2', true)).toBe('open');
    for (const f of ['Evil.app', 'x.APP', 'x.pkg', 'x.bundle', 'x.workflow']) expect(openAction(`/d/${f}`, true), f).toBe('showInFolder');
  });

  it('openFolder shows a runnable folder instead of opening it, and opens an ordinary one', async () => {
    const plain = path.join(tmp, 'invoices');
    const bundle = path.join(tmp, 'Trap.app');
    fs.mkdirSync(plain);
    fs.mkdirSync(bundle);
    const dialogs = electronDialogs(() => undefined);
    expect(await dialogs.openFolder!(plain)).toBe(true);
    expect(await dialogs.openFolder!(bundle)).toBe(true);
    expect(await dialogs.openFolder!(path.join(tmp, 'missing'))).toBe(false);
    expect(await dialogs.openFolder!('relative/path')).toBe(false);
    expect(calls.opened).toEqual([plain]);
    expect(calls.shown).toEqual([bundle]);
  });
});
