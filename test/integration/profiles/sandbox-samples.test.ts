import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN } from '../../../main/sandbox/tokens';
import { externalSandbox, SandboxRunner } from '../../../main/services/profiles/sandbox-runner';
import { sandboxSamples } from '../../../main/services/profiles/sandbox-samples';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, invoiceCount: 60 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('sample invoices of the built-in Sandbox', () => {
  const runner = () => new SandboxRunner(async () => externalSandbox(sandbox.origin, SANDBOX_DEV_TOKEN));

  it('lists real TransactionIDs of each kind with the flags that address them, the address and the sample sign-in', async () => {
    const samples = await sandboxSamples(runner(), true);
    expect(samples.baseUrl).toBe(`${sandbox.origin}/api/integration/invoice`);
    expect(samples.login).toEqual({ appId: SANDBOX_CREDENTIALS.appid, taxCode: SANDBOX_CREDENTIALS.taxcode, userName: SANDBOX_CREDENTIALS.username, password: SANDBOX_CREDENTIALS.password });
    expect(samples.groups.map((g) => [g.kind, g.withCode, g.calc])).toEqual([
      ['withCode', true, false],
      ['withoutCode', false, false],
      ['calc', true, true],
    ]);
    for (const g of samples.groups) {
      expect(g.ids).toHaveLength(5);
      expect(sandbox.catalogue.list(g.kind).slice(0, 5)).toEqual(g.ids);
    }
  });

  it('answers nothing while another connection is active', async () => {
    await expect(sandboxSamples(runner(), false)).rejects.toMatchObject({ code: 'sandbox_not_active' });
  });
});
