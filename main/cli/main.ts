import { keepMemoryFlat } from '../memory-policy';
import { builtinCommands } from './commands';
import { runCli } from './run';

keepMemoryFlat();

/** The `einvoice` command line (bin/einvoice.cjs → out/main/cli.cjs). */
const controller = new AbortController();
const stop = () => controller.abort();
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

runCli(process.argv.slice(2), builtinCommands(), {
  io: {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: touching process.stdin creates the stream, so only commands that read it do.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  },
  signal: controller.signal,
}).then(
  (code) => {
    // Let stdout drain (a pipe may still hold the JSON document) before exiting.
    process.stdout.write('', () => process.exit(code));
  },
  (error: unknown) => {
    process.stderr.write(`einvoice: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
