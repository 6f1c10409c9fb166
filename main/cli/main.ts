import { APP_VERSION } from '../services/version';

/** The `einvoice` command line. Commands are added by the client, download and email issues. */
async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === 'version') {
    console.log(APP_VERSION);
    return 0;
  }
  console.error('usage: einvoice <command> [options]  (commands arrive with later releases)');
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`einvoice: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
