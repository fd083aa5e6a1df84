/**
 * Running a command-line entry point (npm run import, npm run keys): its exit code, and an
 * unexpected failure as one line on stderr. A bad setting or a database that cannot be opened
 * (ConfigError) prints its one line; anything else is unexpected, and its stack helps (with
 * passwords hidden).
 */
import { ConfigError, redact } from './env.js';

/** Runs `main` with the command line's arguments and sets the process's exit code. */
export function runCommand(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const text =
        error instanceof ConfigError
          ? error.message
          : redact(error instanceof Error ? (error.stack ?? error.message) : String(error));
      process.stderr.write(`${text}\n`);
      process.exitCode = 1;
    },
  );
}
