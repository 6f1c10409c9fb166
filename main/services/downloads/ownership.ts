import { AppError } from '../../../common/errors';
import { parseServiceUrl } from '../api';
import { newOwnerToken, ownerAlive as processAlive } from '../store/owner';

/**
 * One owner per download job: the process running it, named "<pid>:<random>" like the email
 * outbox's claims. Another process may take a job over only when its owner no longer exists.
 */
export type OwnerAlive = (owner: string) => boolean;

/** Owners living in this process (a service until it is closed); any other one with our pid is a former process's. */
const liveHere = new Set<string>();

export const ownerAlive: OwnerAlive = (owner) => (Number(owner.split(':')[0]) === process.pid ? liveHere.has(owner) : processAlive(owner));

export function newOwner(): { id: string; end: () => void } {
  const id = newOwnerToken();
  liveHere.add(id);
  return { id, end: () => liveHere.delete(id) };
}

/** How often a running job's heartbeat is written (it is also written with every batch). */
const HEARTBEAT_MS = 5_000;

/** Writes the heartbeat every few seconds; `onLost` when the row names another owner. Returns the stop. */
export function heartbeat(beat: () => boolean, onLost: () => void): () => void {
  const timer = setInterval(() => {
    if (!beat()) onLost();
  }, HEARTBEAT_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** The job's row names another owner: this process must stop touching it. */
export class OwnershipLost extends Error {
  constructor(readonly jobId: string) {
    super(`download job ${jobId} is no longer owned by this process`);
    this.name = 'OwnershipLost';
  }
}

export function runningElsewhere(owner: string): AppError {
  const pid = owner.split(':')[0];
  return new AppError('download_running_elsewhere', {
    en: `This download is running in another window (process ${pid}). It can be continued here once that window is closed.`,
    vi: `Lượt tải này đang chạy ở một cửa sổ khác (tiến trình ${pid}). Có thể tiếp tục ở đây sau khi đóng cửa sổ đó.`,
  });
}

function serviceKey(url: string): string {
  try {
    return parseServiceUrl(url).href;
  } catch {
    return url;
  }
}

/** A job goes on only against the service address it was created for (two spellings of one address are one). */
export function sameService(jobUrl: string, sessionUrl: string): void {
  if (serviceKey(jobUrl) === serviceKey(sessionUrl)) return;
  throw new AppError('download_other_service', {
    en: `This download was created for the service at ${jobUrl}, but the connection now points at ${sessionUrl}. It is not continued against another service: change the address back, or start a new download.`,
    vi: `Lượt tải này được tạo cho dịch vụ tại ${jobUrl}, nhưng kết nối hiện trỏ tới ${sessionUrl}. Không tiếp tục với dịch vụ khác: hãy đổi lại địa chỉ, hoặc tạo lượt tải mới.`,
  });
}
