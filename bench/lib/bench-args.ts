import { parseArgs } from 'node:util';

/** A database the benchmark runs the scheduler on. */
export type BenchDialect = 'pglite' | 'postgres';

/** Options of the dispatch-overhead benchmark, validated. */
export interface BenchArgs {
  /** Measured runs per dialect, after one warm-up run. @default 5 */
  runs: number;
  /** Nodes in the chain. @default 40 */
  nodes: number;
  /** @default both when DATABASE_URL is set, else pglite */
  dialects: BenchDialect[];
  /** Where PGlite keeps its data: a temp directory (as a deployed scheduler does) or memory. @default 'disk' */
  pgliteData: 'disk' | 'memory';
  help: boolean;
}

/** Upper bounds that keep the benchmark finite. */
export const MAX_RUNS = 50;
export const MAX_NODES = 1000;

export const USAGE = `usage: pnpm bench [--runs N] [--nodes N] [--dialect pglite|postgres|both] [--pglite-data disk|memory]

  --runs N         measured runs per dialect after one warm-up run (1..${MAX_RUNS}; default 5)
  --nodes N        test.noop nodes in the chain (2..${MAX_NODES}; default 40)
  --dialect D      pglite, postgres or both (default: both when DATABASE_URL is set, else pglite)
  --pglite-data W  disk: PGlite in a temp directory, as a deployed scheduler runs (default); memory: memory://
`;

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in [${min}, ${max}], got ${JSON.stringify(raw)}`);
  return n;
}

/** Parse the command line; throws with a message naming the bad option. */
export function parseBenchArgs(argv: string[], databaseUrl: string | undefined): BenchArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      runs: { type: 'string' },
      nodes: { type: 'string' },
      dialect: { type: 'string' },
      'pglite-data': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const dialect = values.dialect ?? (databaseUrl ? 'both' : 'pglite');
  if (!['pglite', 'postgres', 'both'].includes(dialect)) throw new Error(`--dialect must be pglite, postgres or both, got ${JSON.stringify(dialect)}`);
  const dialects: BenchDialect[] = dialect === 'both' ? ['pglite', 'postgres'] : [dialect as BenchDialect];
  if (dialects.includes('postgres') && !databaseUrl) {
    throw new Error('--dialect postgres needs DATABASE_URL, e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test');
  }
  const pgliteData = values['pglite-data'] ?? 'disk';
  if (pgliteData !== 'disk' && pgliteData !== 'memory') throw new Error(`--pglite-data must be disk or memory, got ${JSON.stringify(pgliteData)}`);
  return {
    runs: int('runs', values.runs, 5, 1, MAX_RUNS),
    nodes: int('nodes', values.nodes, 40, 2, MAX_NODES),
    dialects,
    pgliteData,
    help: values.help ?? false,
  };
}
