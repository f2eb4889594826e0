import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Misuse of an operator command: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** What a command run ends with: the text to print, and how the process exits. */
export interface CliOutcome {
  text: string;
  code: 0 | 1 | 2;
}

/** `--help`, `-h` and `help` (first word) ask for the usage, as does a bare command. */
export function asksForHelp(argv: readonly string[]): boolean {
  return argv.length === 0 || argv[0] === 'help' || argv.includes('--help') || argv.includes('-h');
}

/** parseArgs whose complaints (unknown option, missing value) are misuse, not failures. */
export function parseCliArgs<T extends ParseArgsConfig>(config: T, usage: string) {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${usage}`);
  }
}

/**
 * Runs a command the way an operator sees it: the usage with exit 0 when asked for it, the usage
 * with exit 2 on misuse (scripts can tell it from a failure), the message with exit 1 on failure.
 */
export async function runOperatorCli(
  argv: readonly string[],
  usage: string,
  run: () => Promise<string>,
): Promise<CliOutcome> {
  if (asksForHelp(argv)) return { text: usage, code: 0 };
  try {
    return { text: await run(), code: 0 };
  } catch (err) {
    const message = (err as Error).message;
    if (err instanceof UsageError)
      return { text: message.includes(usage) ? message : `${message}\n${usage}`, code: 2 };
    return { text: message, code: 1 };
  }
}

/** Prints the outcome (stdout when fine, stderr otherwise) and exits with its code. */
export function finishCli(outcome: Promise<CliOutcome>): void {
  outcome.then(
    ({ text, code }) => {
      (code === 0 ? console.log : console.error)(text);
      process.exit(code);
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
