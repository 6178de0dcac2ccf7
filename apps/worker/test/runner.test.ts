import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { DispatchPayload, FeedbackPayload } from '@drover/protocol';
import { installBuiltPackages } from '@drover/testing';
import { AdapterRegistry } from '../src/adapter-registry.ts';
import { RunResourceTable } from '../src/run-resources.ts';
import { createRunScope } from '../src/run-scope.ts';
import { Runner } from '../src/runner.ts';

const log = pino({ level: 'silent' });

describe('Runner with the installed drover.test package', () => {
  let packagesDir: string;
  const registry = new AdapterRegistry(log);
  const feedback: FeedbackPayload[] = [];
  let runner: Runner;

  beforeAll(async () => {
    const built = await installBuiltPackages();
    packagesDir = built.packagesDir;
    await registry.load(built.installed.find((p) => p.name === 'drover.test')!);
    runner = new Runner({ workerId: 'w-test', tenant: 'default', scope: createRunScope(new RunResourceTable('w-test'), undefined, log), log, runIdleMs: 1000, feedback: (p) => feedback.push(p) });
  });
  afterAll(async () => {
    await runner.close();
    await rm(packagesDir, { recursive: true, force: true });
  });

  const dispatch = (type: string, parameters: Record<string, unknown>, timeout_ms = 10_000): DispatchPayload => ({
    run_id: crypto.randomUUID(),
    task_id: crypto.randomUUID(),
    node_id: crypto.randomUUID(),
    attempt: 1,
    dispatch_id: crypto.randomUUID(),
    node: { type, package: { name: 'drover.test', version: '0.1.0' } },
    parameters,
    timeout_ms,
  });
  const run = (d: DispatchPayload) => runner.run(d, registry.resolve('drover.test', '0.1.0', d.node.type)!);

  it('registers every node of the package and nothing else', () => {
    expect(registry.packages()).toEqual([expect.objectContaining({ name: 'drover.test', version: '0.1.0', nodes: ['test.noop', 'test.sleep', 'test.echo', 'test.fail'] })]);
    expect(registry.resolve('drover.test', '0.1.0', 'test.nope')).toBeUndefined();
    expect(registry.resolve('drover.test', '9.9.9', 'test.echo')).toBeUndefined();
  });

  it('returns the results of a handler with the fencing ids of its dispatch', async () => {
    const d = dispatch('test.echo', { value: { deep: [1, 'two'] } });
    const r = await run(d);
    expect(r).toMatchObject({ status: 'succeeded', results: { value: { deep: [1, 'two'] } }, task_id: d.task_id, attempt: 1, dispatch_id: d.dispatch_id });
    expect(r.timings.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('applies schema defaults before the handler and leaves the dispatch untouched', async () => {
    const d = dispatch('test.sleep', {});
    const r = await run(d);
    expect(r).toMatchObject({ status: 'succeeded', results: { done: true } });
    expect((r.results as { slept: number }).slept).toBeGreaterThanOrEqual(90); // the schema's default of 100 ms
    expect(d.parameters).toEqual({});
  });

  it('refuses parameters that do not match the schema, naming the parameter', async () => {
    const wrongType = await run(dispatch('test.sleep', { ms: 'soon' }));
    expect(wrongType).toMatchObject({ status: 'failed', error: { code: 'E.RUNNER.INVALID_PARAMETERS' } });
    expect(wrongType.error!.message).toContain('parameters.ms');
    const unknown = await run(dispatch('test.echo', { value: 1, colour: 'red' }));
    expect(unknown).toMatchObject({ status: 'failed', error: { code: 'E.RUNNER.INVALID_PARAMETERS' } });
    expect(unknown.error!.message).toContain('colour');
  });

  it('turns a NodeError into its code and message', async () => {
    const r = await run(dispatch('test.fail', { code: 'E.TEST.BROKEN', message: 'as requested' }));
    expect(r).toMatchObject({ status: 'failed', error: { code: 'E.TEST.BROKEN', message: 'as requested' } });
  });

  it('aborts an attempt at its timeout with E.RUNNER.TIMEOUT', async () => {
    const r = await run(dispatch('test.sleep', { ms: 10_000 }, 100));
    expect(r).toMatchObject({ status: 'failed', error: { code: 'E.RUNNER.TIMEOUT' } });
    expect(r.timings.duration_ms).toBeLessThan(5000);
  });

  it('aborts a cancelled attempt with E.RUNNER.ABORTED and reports it in flight until then', async () => {
    const d = dispatch('test.sleep', { ms: 10_000 });
    const pending = run(d);
    expect(runner.inflight()).toEqual([{ run_id: d.run_id, task_id: d.task_id, attempt: 1, dispatch_id: d.dispatch_id, state: 'running' }]);
    expect(runner.cancel(d.task_id, 2, 'wrong attempt')).toBe(false);
    expect(runner.cancel(d.task_id, 1, 'operator said so')).toBe(true);
    expect(await pending).toMatchObject({ status: 'failed', error: { code: 'E.RUNNER.ABORTED' } });
    expect(runner.inflight()).toEqual([]);
  });
});
