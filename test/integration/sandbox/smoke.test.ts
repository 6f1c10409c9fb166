import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ invoiceCount: 60 });
});
afterAll(() => sb.close());

const auth = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

describe('sandbox smoke', () => {
  it('lists templates and downloads a pdf', async () => {
    const t = await fetch(`${sb.baseUrl}/templates?invoiceWithCode=true`, { headers: auth(sb.devToken) });
    const env = (await t.json()) as { success: boolean; data: string };
    expect(env.success).toBe(true);
    expect(JSON.parse(env.data).length).toBeGreaterThan(0);
    const id = sb.catalogue.list('withCode')[0]!;
    const d = await fetch(`${sb.baseUrl}/Download?invoiceWithCode=true&downloadDataType=Pdf`, {
      method: 'POST',
      headers: auth(sb.devToken),
      body: JSON.stringify([id]),
    });
    const denv = (await d.json()) as { data: string };
    const items = JSON.parse(denv.data) as { TransactionID: string; data: string; ErrorCode: string }[];
    expect(items[0]!.ErrorCode).toBe('');
    expect(Buffer.from(items[0]!.data, 'base64').equals(Buffer.from(await sb.catalogue.expected(id, 'Pdf')))).toBe(true);
  });
});
