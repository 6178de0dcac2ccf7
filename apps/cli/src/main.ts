// The `drover` command: parse arguments and run one subcommand; usage errors exit 2, API errors exit 1.
import { parseArgs } from 'node:util';
import { ApiRequestError, DroverClient, type ApiSchemas } from '@drover/api';
import { CliError } from './cli-error.ts';
import { loadCliConfig } from './config.ts';
import { runsGet, runsList, runsSubmit, workersList } from './commands/api-commands.ts';
import { pkgInstall, pkgList } from './commands/pkg-commands.ts';
import { buildPackages, dev, foreground } from './commands/process-commands.ts';
import { USAGE } from './usage.ts';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      'packages-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      wait: { type: 'boolean', default: false },
      inputs: { type: 'string' },
      'idempotency-key': { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [cmd, sub, ...rest] = positionals;
  if (values.help || !cmd) {
    process.stdout.write(USAGE);
    return cmd || values.help ? 0 : 2;
  }
  const config = loadCliConfig();
  const client = () => new DroverClient({ baseUrl: values.url ?? config.url, ...((values.token ?? config.token) ? { token: values.token ?? config.token } : {}) });
  const packagesDir = values['packages-dir'] ?? config.packagesDir;
  const json = values.json === true;

  switch (`${cmd} ${sub ?? ''}`.trim()) {
    case 'scheduler':
      return foreground('scheduler', config);
    case 'worker':
      return foreground('worker', config);
    case 'dev':
      return dev(config);
    case 'pkg build':
      return buildPackages(config);
    case 'pkg install':
      return pkgInstall(rest, packagesDir, json);
    case 'pkg list':
      return pkgList(packagesDir, json);
    case 'runs submit': {
      if (!rest[0]) throw new CliError('runs submit needs a workflow file');
      return runsSubmit(client(), rest[0], {
        wait: values.wait === true,
        json,
        ...(values.inputs !== undefined ? { inputs: values.inputs } : {}),
        ...(values['idempotency-key'] !== undefined ? { idempotencyKey: values['idempotency-key'] } : {}),
      });
    }
    case 'runs get':
      if (!rest[0]) throw new CliError('runs get needs a run id');
      return runsGet(client(), rest[0], json);
    case 'runs list': {
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && !Number.isInteger(limit)) throw new CliError('--limit must be an integer');
      return runsList(client(), { ...(values.status ? { status: values.status as ApiSchemas['RunStatus'] } : {}), ...(limit ? { limit } : {}) }, json);
    }
    case 'workers':
      return workersList(client(), json);
    default:
      throw new CliError(`unknown command "${positionals.join(' ')}"; see drover --help`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ApiRequestError) {
      process.stderr.write(`drover: ${err.statusCode} ${err.code}: ${err.body.message}\n`);
      for (const p of (err.body.details?.problems ?? []) as Array<{ pointer: string; message: string; code: string }>) {
        process.stderr.write(`  ${p.pointer || '/'}  ${p.code}  ${p.message}\n`);
      }
      process.exit(1);
    }
    const e = err as Error & { code?: string };
    process.stderr.write(`drover: ${e.code ? `${e.code}: ` : ''}${e.message}\n`);
    process.exit(err instanceof CliError || (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 2 : 1);
  },
);
