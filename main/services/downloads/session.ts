import { AppError } from '../../../common/errors';
import { clients as defaultClients, type ClientFactory } from '../api';
import type { SignedInSession } from '../auth';
import type { DownloadSession } from './service';

interface GateLike {
  ready(signal?: AbortSignal): Promise<SignedInSession>;
}

/**
 * Sessions for download jobs from the sign-in gate: waits while signed out (the job shows
 * `running` and continues once staff sign in), one keep-alive client per run.
 */
export function sessionFromGate(
  gate: GateLike,
  options: { log?: (level: 'info' | 'warn' | 'error', message: string) => void; timeoutMs?: number; clients?: ClientFactory } = {},
): (profileId: string, signal: AbortSignal) => Promise<DownloadSession> {
  const clients = options.clients ?? defaultClients;
  return async (profileId, signal) => {
    const session = await gate.ready(signal);
    if (session.profile.id !== profileId) {
      throw new AppError('download_other_profile', {
        en: `This download belongs to another connection profile; switch to it to continue.`,
        vi: `Lượt tải này thuộc cấu hình kết nối khác; hãy chuyển sang cấu hình đó để tiếp tục.`,
      });
    }
    const client = clients.forSession(session, 'download', {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
    return { profileId, baseUrl: session.endpoint.baseUrl, client, release: () => client.close() };
  };
}
