import { randomUUID } from 'node:crypto';
import path from 'node:path';
import fs from 'node:fs';
import { createServices, type Services } from '../../../main/services';
import type { IssuingServiceDeps } from '../../../main/services/issuing';
import { MemorySecretStore } from '../../../main/services/secrets';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox';
import { emptyDraft, emptyLine, type InvoiceDraft } from '../../../common/money';
import { vietnamToday } from '../../../common/rules';
import { makeTempDir } from '../../support/temp-dir';

export interface IssuingHarness {
  dir: string;
  folder: string;
  sandbox: Sandbox;
  services: Services;
  /** A draft of a small counter sale on `series`, saved; returns its id. */
  draft(i: number, o?: Partial<InvoiceDraft>): string;
  close(): Promise<void>;
}

/** The app's own wiring around a sandbox, with the template cache filled and a download folder set. */
export async function startIssuing(
  options: { sandbox?: SandboxOptions; issuing?: Partial<IssuingServiceDeps>; background?: boolean } = {},
): Promise<IssuingHarness> {
  const tmp = makeTempDir('einvoice-issuing-it-');
  const sandbox = await startSandbox({ invoiceCount: 300, ...options.sandbox });
  const services = await createServices({
    dataDir: path.join(tmp.dir, 'data'),
    version: 'test',
    host: 'cli',
    background: options.background !== false,
    secrets: new MemorySecretStore(),
    startSandbox: async () => sandbox,
    connectivity: { onlineIntervalMs: 200, offlineMinMs: 100, offlineMaxMs: 300, probeTimeoutMs: 1000 },
    emails: { backoffBaseMs: 50, backoffMaxMs: 500, sendTimeoutMs: 2_000, stopGraceMs: 3_000 },
    issuing: {
      backoffBaseMs: 50,
      backoffMaxMs: 500,
      settleWindowMs: 1_500,
      lookupDelaysMs: [100, 200, 400],
      codeCheckMs: 200,
      stopGraceMs: 3_000,
      ...options.issuing,
    },
  });
  const folder = path.join(tmp.dir, 'invoices');
  fs.mkdirSync(folder);
  services.settings.update({ downloadFolder: folder, issuing: { seriesGapMs: 0 } });
  await services.drafting.templates.refresh(new Date().getUTCFullYear());
  const today = vietnamToday(new Date());
  return {
    dir: tmp.dir,
    folder,
    sandbox,
    services,
    draft(i, o = {}) {
      const d = emptyDraft({
        RefID: randomUUID(),
        InvSeries: '1K26TAA',
        InvDate: today,
        InvoiceName: 'Hóa đơn giá trị gia tăng',
        PaymentMethodName: 'TM/CK',
        BuyerLegalName: `Công ty TNHH Khách ${i}`,
        BuyerTaxCode: '0101243150',
        BuyerAddress: 'Số 5 Thụy Khuê, Hà Nội',
        BuyerEmail: `khach${i}@example.vn`,
        lines: [
          {
            ...emptyLine(1),
            ItemCode: 'CF01',
            ItemName: 'Cà phê rang xay',
            UnitName: 'gói',
            Quantity: String(1 + (i % 5)),
            UnitPrice: '185000',
            VATRateName: '10%',
          },
        ],
        ...o,
      });
      return services.drafting.drafts.create(d).id;
    },
    async close() {
      await services.close();
      await sandbox.close();
      tmp.cleanup();
    },
  };
}

export async function waitFor(predicate: () => boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
