import type { ApiClient } from '../services/api';
import type { CliServices, CliServicesOptions } from './services';

/** Exit codes of the `einvoice` command. */
export const ExitCode = {
  Ok: 0,
  SomeFailed: 1,
  Usage: 2,
  Auth: 3,
  Unreachable: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export interface Bilingual {
  en: string;
  vi: string;
}

/** A `node:util` parseArgs option, as each command declares its own. */
export interface CliOption {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** One line for the usage text. */
  help: string;
  /** Placeholder shown in usage for string options (`N`, `FILE`, …). */
  arg?: string;
  /** Shown without brackets in the usage line (the command checks it itself). */
  required?: boolean;
}

export interface GlobalOptions {
  profile: string | undefined;
  baseUrl: string | undefined;
  dataDir: string;
  json: boolean;
  /** Per-attempt timeout in ms (`--timeout SECONDS`). */
  timeoutMs: number | undefined;
}

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  /** For commands that read a secret or data from a pipe (e.g. `login`). */
  stdin?: NodeJS.ReadableStream;
}

export interface CommandContext {
  readonly globals: GlobalOptions;
  readonly io: CliIo;
  /** Aborted on SIGINT/SIGTERM. */
  readonly signal: AbortSignal;
  /**
   * The service client for the chosen connection (`--profile`/`--base-url`, token from
   * EINVOICE_TOKEN); created on first use and closed when the command ends.
   */
  client(): Promise<ApiClient>;
  /**
   * The app's services over the data folder for the chosen connection, opened on first use
   * and closed when the command ends. `requireService`: ask for --profile or --base-url.
   */
  services(options?: CliServicesOptions & { requireService?: boolean }): Promise<CliServices>;
  /** A progress or info line on stderr (never stdout, so `--json` output stays one document). */
  progress(message: Bilingual | string): void;
  /** Registers cleanup that runs when the command ends (after `afterPrint`, if any). */
  onClose(fn: () => Promise<void> | void): void;
}

export interface CommandResult {
  /** Default 0. */
  exitCode?: number;
  /** What `--json` prints: exactly one JSON document. */
  json: unknown;
  /** The command wrote its `--json` document to stdout itself, as it went (`json` is then not printed). */
  streamed?: boolean;
  /** What a person sees without `--json` (stdout). */
  text: string;
  /** Runs after the result is printed (e.g. `sandbox` stays up until a signal); its number is the exit code. */
  afterPrint?: () => Promise<number>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  positionals: string[];
}

/**
 * One `einvoice` sub-command: a file `main/cli/commands/<name>.ts`, listed in
 * `main/cli/commands/index.ts`.
 */
export interface CliCommand {
  name: string;
  summary: Bilingual;
  /** Usage after the command name when the options alone do not say it (required or exclusive options). */
  synopsis?: string;
  options?: Record<string, CliOption>;
  /** How many positional arguments, and their placeholder in the usage (`FILE.json`). */
  positionals?: { min: number; max: number; label?: string };
  run(ctx: CommandContext, args: ParsedArgs): Promise<CommandResult>;
}

export class CommandRegistry {
  private readonly commands = new Map<string, CliCommand>();

  register(command: CliCommand): this {
    if (this.commands.has(command.name)) throw new Error(`command ${command.name} registered twice`);
    this.commands.set(command.name, command);
    return this;
  }

  get(name: string): CliCommand | undefined {
    return this.commands.get(name);
  }

  list(): CliCommand[] {
    return [...this.commands.values()];
  }
}

/** Thrown for a wrong command line or configuration: exit code 2, message shown as is. */
export class UsageError extends Error {
  constructor(
    readonly bilingual: Bilingual,
    readonly showUsageOf?: string,
  ) {
    super(bilingual.en);
    this.name = 'UsageError';
  }
}
