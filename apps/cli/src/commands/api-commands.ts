import { readFile } from 'node:fs/promises';
import { DroverClient, type ApiSchemas } from '@drover/api';
import { CliError } from '../cli-error.ts';

function printRun(run: ApiSchemas['Run']): void {
  process.stdout.write(`run ${run.id}  ${run.status}${run.name ? `  "${run.name}"` : ''}\n`);
  run.nodes.forEach((n, i) => {
    const where = n.workerId ? ` on ${n.workerId}` : '';
    const err = n.error ? `  ${n.error.code}: ${n.error.message}` : '';
    process.stdout.write(`  ${String(i + 1).padStart(2)}. ${(n.label ?? n.type).padEnd(28)} ${n.status} (attempt ${n.attempt})${where}${err}\n`);
  });
  if (run.error) process.stdout.write(`  error: ${run.error.code} at ${run.error.nodeId}: ${run.error.message}\n`);
}

/** `drover runs submit <file>`: submit a workflow (a bare definition or a `{workflow, inputs}` body). */
export async function runsSubmit(
  client: DroverClient,
  file: string,
  opts: { inputs?: string; idempotencyKey?: string; wait: boolean; json: boolean },
): Promise<number> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const body = (typeof doc === 'object' && doc !== null && 'workflow' in doc ? doc : { workflow: doc }) as { workflow: object; inputs?: Record<string, unknown> };
  if (opts.inputs !== undefined) {
    try {
      body.inputs = JSON.parse(opts.inputs) as Record<string, unknown>;
    } catch {
      throw new CliError('--inputs must be a JSON object');
    }
  }
  let run = await client.createRun(body, opts.idempotencyKey);
  if (!opts.json) process.stdout.write(`submitted run ${run.id}\n`);
  if (opts.wait) {
    run = await client.waitForRun(run.id, {
      timeoutMs: 24 * 3600_000,
      onChange: (r) => {
        if (!opts.json) printRun(r);
      },
    });
  }
  if (opts.json) process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  return opts.wait && run.status !== 'succeeded' ? 1 : 0;
}

/** `drover runs get <id>`. */
export async function runsGet(client: DroverClient, id: string, json: boolean): Promise<number> {
  const run = await client.getRun(id);
  if (json) process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  else printRun(run);
  return 0;
}

/** `drover runs list`. */
export async function runsList(client: DroverClient, q: { status?: ApiSchemas['RunStatus']; limit?: number }, json: boolean): Promise<number> {
  const { runs } = await client.listRuns(q);
  if (json) process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
  else for (const r of runs) process.stdout.write(`${r.id}  ${r.status.padEnd(9)}  ${r.createdAt}  ${r.name ?? ''}\n`);
  return 0;
}

/** `drover workers`. */
export async function workersList(client: DroverClient, json: boolean): Promise<number> {
  const { workers } = await client.listWorkers();
  if (json) process.stdout.write(`${JSON.stringify(workers, null, 2)}\n`);
  else {
    for (const w of workers) {
      process.stdout.write(`${w.id.padEnd(32)} ${w.status.padEnd(8)} ${w.running}/${w.maxParallel} running  ${w.packages.map((p) => `${p.name}@${p.version}`).join(', ')}\n`);
    }
  }
  return 0;
}
