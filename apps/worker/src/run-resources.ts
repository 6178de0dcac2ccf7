import { randomUUID } from 'node:crypto';
import { NodeError, isResourceRef, type ResourceRef, type RunResources } from '@drover/sdk';
import type { Logger } from 'pino';

/** Error codes the resource table fails with (NodeErrors, so they become the failing node's code). */
export const RUN_RESOURCE_ERROR_CODES = {
  'E.RESOURCE.NOT_FOUND': 'A resource reference names nothing this worker holds for this run.',
  'E.RESOURCE.INVALID_REF': 'A value passed as a resource reference is not `{ $resource: { workerId, id, type } }`.',
  'E.RESOURCE.WRONG_WORKER': 'A resource reference names an object held by another worker.',
  'E.RESOURCE.TYPE_MISMATCH': 'A resource reference names an object of another type than the node expects.',
  'E.RESOURCE.RUN_RELEASED': "A node tried to keep a resource after its run's resources were released.",
} as const;

type RunResourceErrorCode = keyof typeof RUN_RESOURCE_ERROR_CODES;

function resourceError(code: RunResourceErrorCode, message: string, details: Record<string, unknown>): NodeError {
  return new NodeError(code, message, { details });
}

/** Options of {@link RunResourceTable}. */
export interface RunResourceTableOptions {
  /**
   * Receives disposal failures (they never fail the run release).
   * @default undefined (failures are dropped)
   */
  logger?: Logger;
  /**
   * Longest wait for one resource's dispose function before moving on.
   * @default 5000
   */
  disposeTimeoutMs?: number;
}

interface Entry {
  id: string;
  type: string;
  value: unknown;
  dispose: (() => Promise<void> | void) | undefined;
}

/** The resources of one run; `closed` once released so late `put`s from a stale handle are refused. */
interface RunScope {
  runId: string;
  entries: Map<string, Entry>;
  closed: boolean;
}

/**
 * The worker's run-scoped resource table: objects (browser pages…) that outlive one node, are reachable from
 * later nodes of the same run through a {@link ResourceRef}, and are disposed when the run is released.
 */
export class RunResourceTable {
  private readonly runs = new Map<string, RunScope>();
  private readonly disposeTimeoutMs: number;

  constructor(
    /** This worker's id, stamped into every reference it hands out. */
    readonly workerId: string,
    private readonly options: RunResourceTableOptions = {},
  ) {
    this.disposeTimeoutMs = options.disposeTimeoutMs ?? 5_000;
  }

  /** The `RunResources` a node of run `runId` sees in its ExecutionContext. */
  forRun(runId: string): RunResources {
    let scope = this.runs.get(runId);
    if (scope === undefined) {
      scope = { runId, entries: new Map(), closed: false };
      this.runs.set(runId, scope);
    }
    const bound = scope;
    return {
      put: (type, value, dispose) => this.put(bound, type, value, dispose),
      get: <T>(ref: unknown, type?: string) => this.get<T>(bound, ref, type),
    };
  }

  /** Dispose everything run `runId` put, newest first. Never throws; failures go to the logger. */
  async releaseRun(runId: string): Promise<void> {
    const scope = this.runs.get(runId);
    if (scope === undefined) return;
    scope.closed = true;
    this.runs.delete(runId);
    const entries = [...scope.entries.values()].reverse();
    scope.entries.clear();
    for (const entry of entries) await this.dispose(runId, entry);
  }

  /** Number of live resources across all runs. */
  size(): number {
    let n = 0;
    for (const scope of this.runs.values()) n += scope.entries.size;
    return n;
  }

  private put(scope: RunScope, type: string, value: unknown, dispose?: () => Promise<void> | void): ResourceRef {
    if (scope.closed) {
      // The run was released while this node was still running: do not leak the object.
      void this.dispose(scope.runId, { id: 'late', type, value, dispose });
      throw resourceError('E.RESOURCE.RUN_RELEASED', `run ${scope.runId} has been released; cannot keep a ${type}`, {
        runId: scope.runId,
        type,
      });
    }
    const id = randomUUID();
    scope.entries.set(id, { id, type, value, dispose });
    return { $resource: { workerId: this.workerId, id, type } };
  }

  private get<T>(scope: RunScope, ref: unknown, type?: string): T {
    if (!isResourceRef(ref)) {
      throw resourceError(
        'E.RESOURCE.INVALID_REF',
        'expected a resource reference ({ $resource: { workerId, id, type } })',
        { ref },
      );
    }
    const { workerId, id } = ref.$resource;
    if (workerId !== this.workerId) {
      throw resourceError(
        'E.RESOURCE.WRONG_WORKER',
        `resource ${id} lives on worker ${workerId}, not ${this.workerId}`,
        { resource: ref.$resource, workerId: this.workerId },
      );
    }
    // A resource of another run is reported exactly like a missing one: runs do not learn of each other.
    const entry = scope.closed ? undefined : scope.entries.get(id);
    if (entry === undefined) {
      throw resourceError(
        'E.RESOURCE.NOT_FOUND',
        `resource ${id} does not exist in run ${scope.runId} on this worker`,
        { resource: ref.$resource, runId: scope.runId },
      );
    }
    const wanted = type ?? ref.$resource.type;
    if (entry.type !== wanted || entry.type !== ref.$resource.type) {
      throw resourceError('E.RESOURCE.TYPE_MISMATCH', `resource ${id} is a ${entry.type}, not a ${wanted}`, {
        resource: ref.$resource,
        actualType: entry.type,
        expectedType: wanted,
      });
    }
    return entry.value as T;
  }

  private async dispose(runId: string, entry: Entry): Promise<void> {
    if (entry.dispose === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(entry.dispose),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`dispose timed out after ${this.disposeTimeoutMs} ms`)),
            this.disposeTimeoutMs,
          );
        }),
      ]);
    } catch (err) {
      this.options.logger?.warn({ err, runId, resourceId: entry.id, type: entry.type }, 'resource dispose failed');
    } finally {
      clearTimeout(timer);
    }
  }
}
