import { AppError } from '../../../common/errors';

/** The part of the sandbox (main/sandbox) the built-in profile needs. */
interface SandboxHandle {
  baseUrl: string;
  tokenUrl: string;
  devToken: string;
  stop(): Promise<void> | void;
  start(): Promise<void> | void;
  close(): Promise<void> | void;
}

export type StartSandbox = () => Promise<SandboxHandle>;

export function sandboxStopped(): AppError {
  return new AppError(
    'sandbox_stopped',
    {
      en: 'The built-in sandbox is stopped, so the app is offline. Start it again in Settings.',
      vi: 'Sandbox tích hợp đang dừng nên ứng dụng đang ngoại tuyến. Hãy bật lại trong Cài đặt.',
    },
    { retryable: true },
  );
}

/**
 * Runs the built-in sandbox in this process on 127.0.0.1: started on first use, and stoppable
 * on purpose (to work "offline" for training) — while stopped it is not restarted behind the
 * user's back.
 */
export class SandboxRunner {
  private handle: SandboxHandle | undefined;
  private starting: Promise<SandboxHandle> | undefined;
  private stoppedByUser = false;

  constructor(private readonly startSandbox: StartSandbox | undefined) {}

  get running(): boolean {
    return this.handle !== undefined && !this.stoppedByUser;
  }

  get baseUrl(): string | null {
    return this.running ? (this.handle?.baseUrl ?? null) : null;
  }

  /** The running sandbox, started on first use; throws `sandbox_stopped` while stopped by the user. */
  async get(): Promise<SandboxHandle> {
    if (this.stoppedByUser) throw sandboxStopped();
    if (this.handle) return this.handle;
    if (!this.startSandbox) {
      throw new AppError('sandbox_unavailable', {
        en: 'The built-in sandbox is not available in this build.',
        vi: 'Sandbox tích hợp không có trong bản cài đặt này.',
      });
    }
    this.starting ??= this.startSandbox().then(
      (handle) => {
        this.handle = handle;
        this.starting = undefined;
        return handle;
      },
      (error: unknown) => {
        this.starting = undefined;
        throw error;
      },
    );
    return await this.starting;
  }

  async setRunning(running: boolean): Promise<void> {
    if (running) {
      if (this.stoppedByUser && this.handle) await this.handle.start();
      this.stoppedByUser = false;
      await this.get();
    } else {
      if (this.handle && !this.stoppedByUser) await this.handle.stop();
      this.stoppedByUser = true;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    this.handle = undefined;
    if (handle) await handle.close();
  }
}

/**
 * A sandbox already running elsewhere (tests: `EINVOICE_SANDBOX_URL=<sandbox origin>`), used by
 * the built-in Sandbox profile instead of starting one in-process. Stopping it is the owner's job.
 */
export function externalSandbox(origin: string, devToken: string): SandboxHandle {
  const base = origin.replace(/\/+$/, '');
  return {
    baseUrl: `${base}/api/integration/invoice`,
    tokenUrl: `${base}/api/integration/auth/token`,
    devToken,
    stop() {},
    start() {},
    close() {},
  };
}
