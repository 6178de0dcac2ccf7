/** A usage or input error of the CLI: printed without a stack, exit code 2. */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code = 'E.CLI.USAGE';
}
