import { parseArgs } from 'node:util';
import path from 'node:path';
import { AppError } from '../../common/errors';
import { ApiError, type ApiClient, type ApiErrorKind } from '../services/api';
import { resolveDataDir } from '../services/config';
import { APP_VERSION } from '../services/version';
import { openCliServices, type CliServices } from './services';
import {
  ExitCode,
  UsageError,
  type Bilingual,
  type CliCommand,
  type CliIo,
  type CliOption,
  type CommandContext,
  type CommandRegistry,
  type GlobalOptions,
} from './registry';

const GLOBAL_OPTIONS: Record<string, CliOption> = {
  profile: { type: 'string', arg: 'NAME', help: 'connection profile (`sandbox` = the built-in sandbox service)' },
  'base-url': { type: 'string', arg: 'URL', help: 'service {base_url}, e.g. https://testapi.meinvoice.vn/api/integration/invoice' },
  'data-dir': { type: 'string', arg: 'DIR', help: 'data folder (default: EINVOICE_DATA_DIR or the app’s folder)' },
  json: { type: 'boolean', help: 'print exactly one JSON document on stdout' },
  timeout: { type: 'string', arg: 'SECONDS', help: 'per-request timeout (default 30)' },
  help: { type: 'boolean', short: 'h', help: 'show help' },
};
const GLOBAL_VALUE_OPTIONS = new Set(
  Object.entries(GLOBAL_OPTIONS)
    .filter(([, o]) => o.type === 'string')
    .map(([k]) => `--${k}`),
);

/** Exit code for a failure kind: 3 authentication, 4 unreachable, 2 configuration, 1 otherwise. */
function exitCodeForKind(kind: ApiErrorKind): number {
  switch (kind) {
    case 'auth':
      return ExitCode.Auth;
    case 'offline':
    case 'network':
    case 'timeout':
    case 'unavailable':
    case 'rate_limited':
      return ExitCode.Unreachable;
    case 'config':
      return ExitCode.Usage;
    default:
      return ExitCode.SomeFailed;
  }
}

/** The command's synopsis, or one made from its positionals and options: `FILE.json [--save OUT.pdf]`. */
function synopsisOf(cmd: CliCommand): string {
  if (cmd.synopsis !== undefined) return cmd.synopsis;
  const options = Object.entries(cmd.options ?? {}).map(([name, o]) => {
    const option = `--${name}${o.type === 'string' ? ` ${o.arg ?? 'VALUE'}` : ''}`;
    return o.required ? option : `[${option}]`;
  });
  const label = cmd.positionals?.label;
  // Required arguments first (`AMOUNT [--currency CODE]`), optional ones last (`… [ID…]`).
  const parts = cmd.positionals && cmd.positionals.min > 0 ? [label, ...options] : [...options, label];
  return parts.filter(Boolean).join(' ');
}

function usageLine(cmd: CliCommand): string {
  const synopsis = synopsisOf(cmd);
  return `einvoice ${cmd.name}${synopsis ? ` ${synopsis}` : ''}`;
}

function optionLines(options: Record<string, CliOption>): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.arg ?? 'VALUE'}` : ''}`;
    return `  ${flag.padEnd(28)} ${o.help}`;
  });
}

function usageText(registry: CommandRegistry, command?: string): string {
  const cmd = command ? registry.get(command) : undefined;
  if (cmd) {
    return [
      `usage: ${usageLine(cmd)} [global options]`,
      '',
      `  ${cmd.summary.vi}`,
      `  ${cmd.summary.en}`,
      ...(cmd.options && Object.keys(cmd.options).length ? ['', 'options:', ...optionLines(cmd.options)] : []),
      '',
      'global options:',
      ...optionLines(GLOBAL_OPTIONS),
      '',
    ].join('\n');
  }
  return [
    'usage: einvoice <command> [options]',
    '       (Dòng lệnh eInvoice Desk / the eInvoice Desk command line)',
    '',
    'commands:',
    ...registry.list().map((c) => `  ${usageLine(c).padEnd(58)} ${c.summary.en}`),
    '',
    'global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    'environment: EINVOICE_TOKEN (access token), EINVOICE_BASE_URL, EINVOICE_DATA_DIR',
    'exit codes: 0 all done · 1 some items failed · 2 usage/configuration · 3 authentication failed · 4 service unreachable',
    '`einvoice help COMMAND` shows a command’s options.',
    '',
  ].join('\n');
}

/** Index of the command name: the first token that is neither an option nor a global option's value. */
function findCommand(argv: string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (a.startsWith('-')) {
      if (GLOBAL_VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return i;
  }
  return -1;
}

/** Negative numbers (`-1000`) are values, not options: move them behind `--`. */
function protectNegativeNumbers(args: string[]): string[] {
  const dashIndex = args.indexOf('--');
  const head = dashIndex >= 0 ? args.slice(0, dashIndex) : args;
  const tail = dashIndex >= 0 ? args.slice(dashIndex + 1) : [];
  const numbers = head.filter((a) => /^-\d[\d.]*$/.test(a));
  if (numbers.length === 0) return args;
  return [...head.filter((a) => !/^-\d[\d.]*$/.test(a)), '--', ...numbers, ...tail];
}

function bilingualLines(m: Bilingual): string {
  return m.vi === m.en ? `${m.en}\n` : `${m.vi}\n${m.en}\n`;
}

interface ErrorReport {
  exitCode: number;
  message: Bilingual;
  json: Record<string, unknown>;
}

function describeFailure(error: unknown): ErrorReport {
  if (error instanceof ApiError) {
    return {
      exitCode: exitCodeForKind(error.kind),
      message: { en: error.message, vi: error.messageVi },
      json: {
        code: error.code,
        kind: error.kind,
        message: error.message,
        messageVi: error.messageVi,
        ...(error.serviceCode ? { serviceCode: error.serviceCode } : {}),
        ...(error.httpStatus ? { httpStatus: error.httpStatus } : {}),
      },
    };
  }
  if (error instanceof UsageError) {
    return { exitCode: ExitCode.Usage, message: error.bilingual, json: { code: 'usage', message: error.bilingual.en, messageVi: error.bilingual.vi } };
  }
  if (error instanceof AppError) {
    // A wrong command line, or input the app refuses (a profile's name or address): exit 2.
    const usage = error.code === 'validation' || error.code === 'config' || error.code === 'usage' || error.code.startsWith('profile_');
    return {
      exitCode: usage ? ExitCode.Usage : ExitCode.SomeFailed,
      message: { en: error.message, vi: error.messageVi },
      json: { ...error.toPayload() },
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return {
    exitCode: ExitCode.SomeFailed,
    message: { en: `Unexpected error: ${text}`, vi: `Lỗi không mong đợi: ${text}` },
    json: { code: 'internal', message: `Unexpected error: ${text}`, messageVi: `Lỗi không mong đợi: ${text}` },
  };
}

interface RunOptions {
  io: CliIo;
  signal?: AbortSignal;
}

/** Runs one `einvoice` invocation; returns the exit code. Never throws. */
export async function runCli(argv: string[], registry: CommandRegistry, options: RunOptions): Promise<number> {
  const { io } = options;
  const signal = options.signal ?? new AbortController().signal;
  const wantsJson = argv.includes('--json');
  const closers: Array<() => Promise<void> | void> = [];
  let printed = false;

  const fail = (error: unknown, usageOf?: string): number => {
    const report = describeFailure(error);
    io.stderr.write(`einvoice: ${bilingualLines(report.message)}`);
    if (usageOf !== undefined) io.stderr.write(`\n${usageText(registry, usageOf || undefined)}`);
    if (wantsJson && !printed) {
      io.stdout.write(`${JSON.stringify({ error: report.json })}\n`);
      printed = true;
    }
    return report.exitCode;
  };

  try {
    if (argv[0] === '--version' || argv[0] === 'version') {
      io.stdout.write(wantsJson ? `${JSON.stringify({ version: APP_VERSION })}\n` : `${APP_VERSION}\n`);
      return ExitCode.Ok;
    }
    const at = findCommand(argv);
    const name = at >= 0 ? argv[at]! : undefined;
    if (name === 'help' || (name === undefined && (argv.includes('--help') || argv.includes('-h')))) {
      const topic = at >= 0 ? argv[at + 1] : undefined;
      io.stdout.write(usageText(registry, topic));
      return ExitCode.Ok;
    }
    if (name === undefined) {
      return fail(new UsageError({ en: 'No command given.', vi: 'Chưa nhập lệnh.' }), '');
    }
    const command = registry.get(name);
    if (!command) {
      return fail(new UsageError({ en: `Unknown command "${name}".`, vi: `Không có lệnh "${name}".` }), '');
    }

    const rest = protectNegativeNumbers([...argv.slice(0, at), ...argv.slice(at + 1)]);
    const allOptions = { ...GLOBAL_OPTIONS, ...command.options };
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: Object.fromEntries(
          Object.entries(allOptions).map(([k, o]) => [k, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) }]),
        ),
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      return fail(new UsageError({ en: text, vi: `Tham số không hợp lệ: ${text}` }), command.name);
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values.help) {
      io.stdout.write(usageText(registry, command.name));
      return ExitCode.Ok;
    }
    const { min, max } = command.positionals ?? { min: 0, max: 0 };
    if (parsed.positionals.length < min || parsed.positionals.length > max) {
      return fail(
        new UsageError({
          en: parsed.positionals.length < min ? 'Missing argument.' : `Unexpected argument "${parsed.positionals[max]}".`,
          vi: parsed.positionals.length < min ? 'Thiếu tham số.' : `Tham số thừa "${parsed.positionals[max]}".`,
        }),
        command.name,
      );
    }

    let timeoutMs: number | undefined;
    if (typeof values.timeout === 'string') {
      const s = Number(values.timeout);
      if (!Number.isFinite(s) || s <= 0) {
        return fail(
          new UsageError({
            en: `--timeout must be a number of seconds (got ${values.timeout}).`,
            vi: `--timeout phải là số giây (đang là ${values.timeout}).`,
          }),
          command.name,
        );
      }
      timeoutMs = Math.round(s * 1000);
    }
    const dataDirRaw = typeof values['data-dir'] === 'string' ? values['data-dir'] : undefined;
    const globals: GlobalOptions = {
      profile: typeof values.profile === 'string' ? values.profile : undefined,
      baseUrl: typeof values['base-url'] === 'string' ? values['base-url'] : undefined,
      dataDir: dataDirRaw ? path.resolve(io.cwd, dataDirRaw) : resolveDataDir(io.env as NodeJS.ProcessEnv),
      json: values.json === true,
      timeoutMs,
    };

    let opened: Promise<CliServices> | undefined;
    let client: ApiClient | undefined;
    const ctx: CommandContext = {
      globals,
      io,
      signal,
      services(options = {}) {
        opened ??= openCliServices(globals, io, (m) => ctx.progress(m), options).then((cli) => {
          closers.push(() => cli.services.close());
          return cli;
        });
        return opened;
      },
      async client() {
        if (client) return client;
        const cli = await ctx.services({ requireService: true });
        const made = cli.services.clients.forSession(await cli.sessionNow(), 'command');
        closers.push(() => made.close());
        client = made;
        return client;
      },
      progress(message) {
        io.stderr.write(typeof message === 'string' ? `${message}\n` : bilingualLines(message));
      },
      onClose(fn) {
        closers.push(fn);
      },
    };

    const commandValues = Object.fromEntries(Object.entries(parsed.values).filter(([k]) => !(k in GLOBAL_OPTIONS)));
    const result = await command.run(ctx, { values: commandValues, positionals: parsed.positionals });
    if (!(globals.json && result.streamed)) {
      io.stdout.write(globals.json ? `${JSON.stringify(result.json)}\n` : result.text.endsWith('\n') || result.text === '' ? result.text : `${result.text}\n`);
    }
    printed = true;
    if (result.afterPrint) return await result.afterPrint();
    return result.exitCode ?? ExitCode.Ok;
  } catch (error) {
    return fail(error);
  } finally {
    for (const close of closers.reverse()) {
      try {
        await close();
      } catch {
        // closing is best effort
      }
    }
  }
}
