import { ApiClient, apiErrors, type ApiLogger } from '../services/api';
import { UsageError, type Bilingual, type CliIo, type GlobalOptions } from './registry';

export interface Connection {
  client: ApiClient;
  /** Where the client talks to (for messages). */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Opens the connection a command talks through: `--profile sandbox` starts the built-in
 * sandbox in this process and uses its development token (unless EINVOICE_TOKEN is set);
 * `--base-url URL` (or EINVOICE_BASE_URL) talks to that service with EINVOICE_TOKEN.
 * Named profiles other than `sandbox` arrive with the profiles issue.
 */
export async function openConnection(globals: GlobalOptions, io: CliIo, progress: (m: Bilingual) => void): Promise<Connection> {
  const envToken = io.env.EINVOICE_TOKEN?.trim() || undefined;
  const log: ApiLogger | undefined = io.env.EINVOICE_DEBUG ? (level, message) => io.stderr.write(`[${level}] ${message}\n`) : undefined;
  const common = { timeoutMs: globals.timeoutMs, log };

  if (globals.profile !== undefined && globals.baseUrl !== undefined) {
    throw new UsageError({
      en: 'Give either --profile or --base-url, not both.',
      vi: 'Chỉ dùng một trong hai: --profile hoặc --base-url.',
    });
  }

  if (globals.profile !== undefined) {
    if (globals.profile.toLowerCase() !== 'sandbox') {
      throw new UsageError({
        en: `Unknown profile "${globals.profile}". Only "sandbox" exists for now; use --base-url URL for another service.`,
        vi: `Không có hồ sơ kết nối "${globals.profile}". Hiện chỉ có "sandbox"; hãy dùng --base-url URL cho dịch vụ khác.`,
      });
    }
    const { startSandbox } = await import('../sandbox');
    const sandbox = await startSandbox({ port: 0 });
    progress({ vi: `Đang dùng sandbox tại ${sandbox.baseUrl}`, en: `Using the sandbox at ${sandbox.baseUrl}` });
    const client = new ApiClient({ baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, token: envToken ?? sandbox.devToken, ...common });
    return {
      client,
      baseUrl: sandbox.baseUrl,
      async close() {
        await client.close();
        await sandbox.close();
      },
    };
  }

  const baseUrl = globals.baseUrl ?? (io.env.EINVOICE_BASE_URL?.trim() || undefined);
  if (!baseUrl) {
    throw new UsageError({
      en: 'No service given: use --profile sandbox, or --base-url URL (or set EINVOICE_BASE_URL).',
      vi: 'Chưa chọn dịch vụ: dùng --profile sandbox, hoặc --base-url URL (hoặc đặt biến EINVOICE_BASE_URL).',
    });
  }
  if (!envToken) {
    throw apiErrors.config({
      en: 'No access token: set EINVOICE_TOKEN (the keychain arrives with the credentials release).',
      vi: 'Chưa có mã truy cập (token): hãy đặt biến EINVOICE_TOKEN.',
    });
  }
  const client = new ApiClient({ baseUrl, token: envToken, ...common });
  return { client, baseUrl, close: () => client.close() };
}
