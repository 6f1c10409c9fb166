import { ApiClient, ApiError, apiErrors, type ApiLogger } from '../services/api';
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
 * `--profile NAME` (another profile of the data folder, see `einvoice login`) uses that
 * profile's address and its token from the OS keychain (EINVOICE_TOKEN overrides it).
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
    if (globals.profile.toLowerCase() !== 'sandbox') return await openNamedProfile(globals, io, envToken, common);
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

/** A connection profile of the data folder, signed in with `einvoice login --profile NAME`. */
async function openNamedProfile(
  globals: GlobalOptions,
  _io: CliIo,
  envToken: string | undefined,
  common: { timeoutMs: number | undefined; log: ApiLogger | undefined },
): Promise<Connection> {
  const { EventBus } = await import('../../common/ipc/bus');
  const { createConnections } = await import('../services/profiles/connections');
  const conn = await createConnections({ dataDir: globals.dataDir, bus: new EventBus() });
  try {
    const name = globals.profile!;
    const profile = conn.profiles.list().find((p) => p.id === name || p.name.toLowerCase() === name.toLowerCase());
    if (!profile) {
      const known = conn.profiles.list().map((p) => p.name).join(', ');
      throw new UsageError({
        en: `Unknown profile "${name}". Profiles in this data folder: ${known}.`,
        vi: `Không có cấu hình kết nối "${name}". Các cấu hình trong thư mục dữ liệu này: ${known}.`,
      });
    }
    const session = envToken ? null : await conn.auth.session(profile.id);
    const token = envToken ?? session?.token;
    if (!token) {
      throw new ApiError(
        'auth',
        {
          en: `The profile "${profile.name}" is not signed in (or its token expired): run einvoice login --profile "${profile.name}".`,
          vi: `Cấu hình "${profile.name}" chưa đăng nhập (hoặc token đã hết hạn): hãy chạy einvoice login --profile "${profile.name}".`,
        },
        {},
      );
    }
    const endpoint = session?.endpoint ?? (await conn.resolveEndpoint(profile));
    const client = new ApiClient({ baseUrl: endpoint.baseUrl, ...(endpoint.tokenUrl ? { tokenUrl: endpoint.tokenUrl } : {}), token, ...common });
    return {
      client,
      baseUrl: endpoint.baseUrl,
      async close() {
        await client.close();
        await conn.close();
      },
    };
  } catch (error) {
    await conn.close();
    throw error;
  }
}
