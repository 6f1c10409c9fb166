import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../../main/services/index';
import { makeTempDir } from '../../support/temp-dir';

let services: Services | undefined;
let temp: ReturnType<typeof makeTempDir>;
afterEach(async () => {
  await services?.close();
  services = undefined;
  temp?.cleanup();
});

describe('Export diagnostics', () => {
  it('zips the logs and versions with no token, password or email address in it', async () => {
    temp = makeTempDir();
    services = await createServices({ dataDir: temp.dir, version: '1.4.0', host: 'browser' });
    const token = 'diag-token-5f0e1c2d9a8b';
    const password = 'Mật-khẩu-bí-mật-42';
    // Signing in hands the token to the keychain, and so to the log's redactor.
    const signIn = await services.dispatch('auth.signInWithToken', { token }, { host: 'browser' });
    expect(signIn.ok, JSON.stringify(signIn)).toBe(true);
    services.log.remember(password);
    // Lines as careless code might write them.
    services.log.write('info', `signed in with ${token} and password=${password}`);
    services.log.write('error', `sendemail to an.tran@khachhang.vn failed; Authorization: Bearer ${token}`);

    const result = await services.dispatch('diagnostics.export', {}, { host: 'browser' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { path: zipPath, files, bytes } = result.value as { path: string; files: string[]; bytes: number };
    expect(path.dirname(zipPath)).toBe(path.join(temp.dir, 'diagnostics'));
    expect(fs.statSync(zipPath).size).toBe(bytes);
    expect(files).toContain('about.json');
    expect(files).toContain('logs/einvoice.log');

    const entries = unzipSync(fs.readFileSync(zipPath));
    const everything = Object.values(entries)
      .map((bytes) => strFromU8(bytes))
      .join('\n');
    for (const secret of [token, password, 'an.tran@khachhang.vn']) expect(everything).not.toContain(secret);
    expect(everything).toContain('sendemail to [email] failed');
    expect(JSON.parse(strFromU8(entries['about.json']!))).toMatchObject({ app: '1.4.0', host: 'browser', node: process.versions.node });
    // The raw bytes of the zip do not carry them either (e.g. in a file name or a comment).
    const raw = fs.readFileSync(zipPath).toString('latin1');
    expect(raw).not.toContain(token);
  });
});
