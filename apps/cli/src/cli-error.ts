/** Error codes of the `drover` command itself, with their meaning for docs/errors.md. */
export const CLI_ERROR_CODES = {
  'E.CLI.USAGE': 'The command line is wrong (unknown command, missing argument, bad option value); exit code 2.',
} as const;

/** A usage or input error of the CLI: printed without a stack, exit code 2. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code = 'E.CLI.USAGE';
}
