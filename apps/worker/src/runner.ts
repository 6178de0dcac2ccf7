import type { Logger } from 'pino';
import type { DispatchPayload, FeedbackPayload, InflightTask, ResultPayload } from '@drover/protocol';
import type { BrowserAccess, ExecutionContext, NodeLogger, RunResources } from '@drover/sdk';
import type { AdapterEntry } from './adapter-registry.ts';
import { attemptError } from './attempt-error.ts';
import { WorkerError } from './errors.ts';

/** Where the runner gets per-run browser access and resources. */
export interface RunScope {
  browser(runId: string): BrowserAccess;
  resources(runId: string): RunResources;
  /** The run has had no attempt here for a while: free its context and resources. */
  release(runId: string): Promise<void>;
}

/** Runner dependencies. */
export interface RunnerOptions {
  workerId: string;
  tenant: string;
  scope: RunScope;
  log: Logger;
  /** Release a run's scope after this long without attempts. */
  runIdleMs: number;
  /** Streams a feedback payload to the scheduler (best effort). */
  feedback: (payload: FeedbackPayload) => void;
}

interface Active {
  dispatch: DispatchPayload;
  controller: AbortController;
}

/**
 * Executes dispatched attempts: builds the ExecutionContext, enforces the timeout through the AbortSignal, and
 * turns whatever happens into a result payload. `run()` never rejects.
 */
export class Runner {
  private readonly active = new Map<string, Active>();
  private readonly runs = new Map<string, { count: number; timer: NodeJS.Timeout | undefined }>();

  constructor(private readonly options: RunnerOptions) {}

  /** Attempts executing now, as the register frame reports them. */
  inflight(): InflightTask[] {
    return [...this.active.values()].map(({ dispatch: d }) => ({ run_id: d.run_id, task_id: d.task_id, attempt: d.attempt, dispatch_id: d.dispatch_id, state: 'running' as const }));
  }

  /** Number of attempts executing. */
  size(): number {
    return this.active.size;
  }

  /** True when this attempt is executing here. */
  has(taskId: string): boolean {
    return this.active.has(taskId);
  }

  /** Abort an executing attempt; its handler sees the signal and the result says E.RUNNER.ABORTED. */
  cancel(taskId: string, attempt: number, reason: string): boolean {
    const a = this.active.get(taskId);
    if (!a || a.dispatch.attempt !== attempt) return false;
    a.controller.abort(new WorkerError('E.RUNNER.ABORTED', `cancelled: ${reason}`));
    return true;
  }

  /** Run one attempt with `entry`'s handler and return its result payload. */
  async run(d: DispatchPayload, entry: AdapterEntry): Promise<ResultPayload> {
    const controller = new AbortController();
    this.active.set(d.task_id, { dispatch: d, controller });
    this.enterRun(d.run_id);
    const log = this.options.log.child({ runId: d.run_id, nodeId: d.node_id, taskId: d.task_id, attempt: d.attempt, type: d.node.type });
    const timeoutMs = d.timeout_ms;
    const timer = setTimeout(() => controller.abort(new WorkerError('E.RUNNER.TIMEOUT', `node ran longer than ${timeoutMs} ms`)), timeoutMs);
    const startedAt = new Date();
    const t0 = performance.now();
    const base = { run_id: d.run_id, task_id: d.task_id, node_id: d.node_id, attempt: d.attempt, dispatch_id: d.dispatch_id };
    try {
      // A copy, so defaults filled in by the schema never leak back into the dispatch frame.
      const parameters = structuredClone(d.parameters) as Record<string, unknown>;
      entry.checkParameters?.(parameters);
      const ctx = this.context(d, parameters, controller.signal, log);
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(controller.signal.reason);
        if (controller.signal.aborted) fail();
        else controller.signal.addEventListener('abort', fail, { once: true });
      });
      const value = await Promise.race([Promise.resolve().then(() => entry.handler(ctx)), aborted]);
      const results = plainResults(value);
      return { ...base, status: 'succeeded', results, timings: timings(startedAt, t0) };
    } catch (err) {
      const error = attemptError(err);
      log.warn({ code: error.code, step: error.step }, `node failed: ${error.message}`);
      return { ...base, status: 'failed', error, timings: timings(startedAt, t0) };
    } finally {
      clearTimeout(timer);
      this.active.delete(d.task_id);
      this.leaveRun(d.run_id);
    }
  }

  private context(d: DispatchPayload, parameters: Record<string, unknown>, signal: AbortSignal, log: Logger): ExecutionContext {
    const send = (level: FeedbackPayload['level'], message: string, data?: Record<string, unknown>) => {
      log[level ?? 'info'](data ?? {}, message);
      const p: FeedbackPayload = { run_id: d.run_id, task_id: d.task_id, node_id: d.node_id, attempt: d.attempt, kind: 'log', level, message: message.slice(0, 8000) };
      if (data) p.data = data;
      this.options.feedback(p);
    };
    const logger: NodeLogger = {
      debug: (m, data) => log.debug(data ?? {}, m),
      info: (m, data) => send('info', m, data),
      warn: (m, data) => send('warn', m, data),
      error: (m, data) => send('error', m, data),
    };
    const { scope } = this.options;
    return {
      runId: d.run_id,
      taskId: d.task_id,
      nodeId: d.node_id,
      attempt: d.attempt,
      tenant: this.options.tenant,
      workerId: this.options.workerId,
      nodeType: d.node.type,
      parameters,
      signal,
      log: logger,
      progress: (fraction, message) =>
        this.options.feedback({ run_id: d.run_id, task_id: d.task_id, node_id: d.node_id, attempt: d.attempt, kind: 'progress', progress: Math.min(1, Math.max(0, fraction)), message: (message ?? '').slice(0, 8000) }),
      get resources() {
        return scope.resources(d.run_id);
      },
      get browser() {
        return scope.browser(d.run_id);
      },
    };
  }

  private enterRun(runId: string): void {
    const r = this.runs.get(runId) ?? { count: 0, timer: undefined };
    if (r.timer) clearTimeout(r.timer);
    r.timer = undefined;
    r.count++;
    this.runs.set(runId, r);
  }

  private leaveRun(runId: string): void {
    const r = this.runs.get(runId);
    if (!r) return;
    r.count--;
    if (r.count > 0) return;
    r.timer = setTimeout(() => {
      this.runs.delete(runId);
      this.options.scope.release(runId).catch((err) => this.options.log.warn({ err, runId }, 'releasing run resources failed'));
    }, this.options.runIdleMs);
    r.timer.unref();
  }

  /** Abort everything and release every run (shutdown). */
  async close(): Promise<void> {
    for (const a of this.active.values()) a.controller.abort(new WorkerError('E.RUNNER.ABORTED', 'worker shutting down'));
    for (const [runId, r] of this.runs) {
      if (r.timer) clearTimeout(r.timer);
      await this.options.scope.release(runId).catch(() => undefined);
    }
    this.runs.clear();
  }
}

function timings(startedAt: Date, t0: number): ResultPayload['timings'] {
  const duration = performance.now() - t0;
  return { started_at: startedAt.toISOString(), finished_at: new Date(startedAt.getTime() + duration).toISOString(), duration_ms: Math.round(duration * 1000) / 1000 };
}

/** Results must be a plain JSON object; anything else fails the attempt with E.RUNNER.BAD_RESULT. */
function plainResults(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new WorkerError('E.RUNNER.BAD_RESULT', `handler returned ${Array.isArray(value) ? 'an array' : typeof value}; it must return an object`);
  }
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch (err) {
    throw new WorkerError('E.RUNNER.BAD_RESULT', `handler result is not JSON-serialisable: ${(err as Error).message}`);
  }
}
