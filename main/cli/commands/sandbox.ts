import { text } from '../options';
import { UsageError, type CliCommand } from '../registry';

/** `einvoice sandbox [--port N] [--seed N] [--faults SPEC]`: runs the built-in sandbox until SIGINT/SIGTERM. */
export const sandboxCommand: CliCommand = {
  name: 'sandbox',
  summary: {
    en: 'Run the built-in sandbox service; prints its base URL and development token',
    vi: 'Chạy dịch vụ sandbox tích hợp; in địa chỉ và token phát triển',
  },
  options: {
    port: text('N', 'port on 127.0.0.1 (default: any free port)'),
    seed: text('N', 'seed of the generated data and faults'),
    faults: text('SPEC', 'e.g. download:reset=0.2,templates:429=1:retry-after=2,all:latency=300'),
  },
  async run(ctx, { values }) {
    const int = (name: string, v: unknown, min: number, max: number): number | undefined => {
      if (typeof v !== 'string') return undefined;
      const n = Number(v);
      if (!/^\d+$/.test(v) || n < min || n > max) {
        throw new UsageError(
          { en: `--${name} must be a whole number ${min}…${max} (got ${v}).`, vi: `--${name} phải là số nguyên ${min}…${max} (đang là ${v}).` },
          'sandbox',
        );
      }
      return n;
    };
    const port = int('port', values.port, 0, 65535);
    const seed = int('seed', values.seed, 0, 2 ** 31 - 1);
    const { startSandbox, parseFaultSpec } = await import('../../sandbox');
    let faults;
    if (typeof values.faults === 'string') {
      try {
        faults = parseFaultSpec(values.faults);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new UsageError({ en: `Bad --faults: ${why}`, vi: `--faults không hợp lệ: ${why}` }, 'sandbox');
      }
    }
    let sandbox;
    try {
      sandbox = await startSandbox({ ...(port !== undefined ? { port } : {}), ...(seed !== undefined ? { seed } : {}), ...(faults ? { faults } : {}) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' || (error as NodeJS.ErrnoException).code === 'EACCES') {
        throw new UsageError(
          {
            en: `Port ${port} on 127.0.0.1 is not available; choose another --port.`,
            vi: `Cổng ${port} trên 127.0.0.1 đang bận hoặc không được phép; hãy chọn --port khác.`,
          },
          'sandbox',
        );
      }
      throw error;
    }
    ctx.onClose(() => sandbox.close());
    const info = { baseUrl: sandbox.baseUrl, tokenUrl: sandbox.tokenUrl, devToken: sandbox.devToken };
    return {
      json: info,
      text: [`baseUrl  ${info.baseUrl}`, `tokenUrl ${info.tokenUrl}`, `devToken ${info.devToken}`].join('\n'),
      afterPrint: () =>
        new Promise<number>((resolve) => {
          ctx.progress({ vi: 'Sandbox đang chạy; nhấn Ctrl+C để dừng.', en: 'The sandbox is running; press Ctrl+C to stop.' });
          if (ctx.signal.aborted) return resolve(0);
          ctx.signal.addEventListener('abort', () => resolve(0), { once: true });
        }),
    };
  },
};
