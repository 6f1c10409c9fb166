import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { createServices, type Services } from '../../../main/services';
import { MemorySecretStore } from '../../../main/services/secrets';
import { makeTempDir } from '../../support/temp-dir';

const CLI = path.resolve(__dirname, '../../../out/main/cli.cjs');
const run = promisify(execFile);
const BAD_TOKEN = 'not-the-token';

let sandbox: Sandbox;
let tmp: ReturnType<typeof makeTempDir>;
beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('build first: node scripts/build.mjs --quiet');
  sandbox = await startSandbox({ port: 0, invoiceCount: 50, seed: 7 });
  tmp = makeTempDir('einvoice-cli-gate-');
});
afterAll(async () => {
  await sandbox?.close();
  tmp?.cleanup();
});

/** The services of a data folder with a "Shop" profile on the sandbox (active). */
async function openShop(dataDir: string): Promise<{ services: Services; shopId: string }> {
  const services = await createServices({ dataDir, version: 'test', host: 'browser', background: false, secrets: new MemorySecretStore() });
  const existing = services.profiles.list().find((p) => p.name === 'Shop');
  const shop = existing ?? services.profiles.add({ name: 'Shop', kind: 'custom', baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl });
  services.profiles.activate(shop.id);
  return { services, shopId: shop.id };
}

it('a download refused by the service stops at the sign-in gate the same way in the app and in the CLI', async () => {
  const ids = sandbox.catalogue.list('withoutCode').slice(0, 3);

  // The app: signed in with a token the service refuses.
  const app = await openShop(path.join(tmp.dir, 'app'));
  let appJob;
  try {
    await app.services.auth.signInWithToken(app.shopId, BAD_TOKEN);
    const { job } = await app.services.downloads.createOrResume({ ids, type: 'Xml', folder: path.join(tmp.dir, 'app-out') });
    app.services.downloads.start(job.id);
    appJob = await app.services.downloads.whenDone(job.id);
    expect((await app.services.auth.status(app.shopId)).state).toBe('paused');
  } finally {
    await app.services.close();
  }
  expect(appJob.status).toBe('paused');
  expect(appJob.lastError?.en).toMatch(/Authentication failed/);

  // The CLI: the same profile, the same refused token (from the environment).
  const cliData = path.join(tmp.dir, 'cli');
  await (await openShop(cliData)).services.close();
  const requestsBefore = sandbox.requests({ op: 'download' }).length;
  let result: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, 'download', '--type', 'xml', '--out', path.join(tmp.dir, 'cli-out'), '--json', '--profile', 'Shop', '--data-dir', cliData, ...ids],
      { env: { ...process.env, EINVOICE_TOKEN: BAD_TOKEN, EINVOICE_KEYCHAIN: 'off' } },
    );
    result = { code: 0, stdout, stderr };
  } catch (error) {
    result = error as { code: number; stdout: string; stderr: string };
  }
  expect(result.code, result.stderr).toBe(3);
  const report = JSON.parse(result.stdout) as { error: { code: string; kind: string; message: string; messageVi: string } };
  expect(report.error).toMatchObject({ code: 'api.auth', kind: 'auth', message: appJob.lastError?.en, messageVi: appJob.lastError?.vi });
  expect(result.stderr).toContain('Xác thực thất bại');
  expect(result.stderr).not.toContain(BAD_TOKEN);
  // One refused call, not a retry loop.
  expect(sandbox.requests({ op: 'download' }).length - requestsBefore).toBe(1);

  // The CLI's job is left exactly as the app leaves its own: paused, with the same reason.
  const after = await openShop(cliData);
  try {
    const { jobs } = (await after.services.handlers['downloads.list']({}, { host: 'cli' })) as { jobs: Array<{ status: string; lastError: unknown }> };
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ status: 'paused', lastError: appJob.lastError });
  } finally {
    await after.services.close();
  }
});

it('a profile that is not signed in is refused before anything is sent (exit 3, "einvoice login")', async () => {
  const cliData = path.join(tmp.dir, 'signed-out');
  await (await openShop(cliData)).services.close();
  const before = sandbox.requests().length;
  const env = { ...process.env, EINVOICE_KEYCHAIN: 'off' } as NodeJS.ProcessEnv;
  delete env.EINVOICE_TOKEN;
  let result: { code: number; stdout: string; stderr: string };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, 'download', '--type', 'xml', '--out', path.join(tmp.dir, 'x'), '--json', '--profile', 'Shop', '--data-dir', cliData, 'ABC'],
      { env },
    );
    result = { code: 0, stdout, stderr };
  } catch (error) {
    result = error as { code: number; stdout: string; stderr: string };
  }
  expect(result.code, result.stderr).toBe(3);
  expect(result.stderr).toContain('einvoice login --profile "Shop"');
  expect(sandbox.requests().length).toBe(before);
});
