import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../main/sandbox';
import { SANDBOX_CREDENTIALS, SANDBOX_DEV_TOKEN } from '../../../main/sandbox/tokens';
import { externalSandbox, SandboxRunner } from '../../../main/services/profiles/sandbox-runner';
import { sandboxSamples } from '../../../main/services/profiles/sandbox-samples';

describe('sample invoices of the built-in Sandbox', () => {
  it('lists real TransactionIDs of each kind with the flags that address them, the address and the sample sign-in', async () => {
    const sandbox = await startSandbox({ port: 0, seed: 3, invoiceCount: 60 });
    try {
      const samples = await sandboxSamples(new SandboxRunner(async () => externalSandbox(sandbox.origin, SANDBOX_DEV_TOKEN)), true);
      expect(samples.baseUrl).toBe(`${sandbox.origin}/api/integration/invoice`);
      const c = SANDBOX_CREDENTIALS;
      expect(samples.login).toEqual({ appId: c.appid, taxCode: c.taxcode, userName: c.username, password: c.password });
      expect(samples.groups.map((g) => g.kind)).toEqual(['withCode', 'withoutCode', 'cashRegister']);
      for (const g of samples.groups) {
        expect(g.ids).toHaveLength(5);
        expect(sandbox.catalogue.list(g.kind).slice(0, 5)).toEqual(g.ids);
      }
    } finally {
      await sandbox.close();
    }
  });

  it('answers nothing, and starts nothing, while another connection is active', async () => {
    let started = false;
    const runner = new SandboxRunner(async () => {
      started = true;
      throw new Error('not expected');
    });
    await expect(sandboxSamples(runner, false)).rejects.toMatchObject({ code: 'sandbox_not_active' });
    expect(started).toBe(false);
  });
});
