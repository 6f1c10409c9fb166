import type { SandboxSampleGroup, SandboxSamples } from '../../../common/calls/sandbox';
import { AppError } from '../../../common/errors';
import { INVOICE_KINDS } from '../../../common/model';
import type { SandboxRunner } from './sandbox-runner';

const PER_KIND = 5;

interface AdminState {
  credentials: { appid: string; taxcode: string; username: string; password: string };
}
interface AdminInvoices {
  ids: string[];
}

function notSandbox(): AppError {
  return new AppError('sandbox_not_active', {
    en: 'Sample invoices come from the built-in Sandbox: choose the Sandbox connection in Settings first.',
    vi: 'Hóa đơn mẫu lấy từ Sandbox tích hợp: hãy chọn kết nối Sandbox trong Cài đặt trước.',
  });
}

/**
 * Reads the sample sign-in and a few TransactionIDs of each kind from the running sandbox's
 * own admin endpoints (real HTTP on 127.0.0.1, as everything else talks to it).
 */
export async function sandboxSamples(sandbox: SandboxRunner, sandboxActive: boolean): Promise<SandboxSamples> {
  if (!sandboxActive) throw notSandbox();
  const handle = await sandbox.get();
  const origin = new URL(handle.baseUrl).origin;
  const admin = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${origin}/__sandbox${path}`, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`sandbox admin ${path}: HTTP ${res.status}`);
    return (await res.json()) as T;
  };
  const state = await admin<AdminState>('/state');
  const groups: SandboxSampleGroup[] = await Promise.all(
    INVOICE_KINDS.map(async (kind) => {
      const r = await admin<AdminInvoices>(`/invoices?kind=${kind}&limit=${PER_KIND}`);
      return { kind, ids: r.ids };
    }),
  );
  const c = state.credentials;
  return { baseUrl: handle.baseUrl, login: { appId: c.appid, taxCode: c.taxcode, userName: c.username, password: c.password }, groups };
}
