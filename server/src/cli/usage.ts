// A usage error: the command line itself is wrong. The CLI prints the message on one line, with
// where help is (`relata <command> --help`), to stderr and exits with status 2, as Unix tools do.

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
