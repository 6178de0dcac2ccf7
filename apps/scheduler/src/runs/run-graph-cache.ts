import { WorkflowGraph, type WorkflowDefinition } from '@drover/engine';
import type { Database, Kysely } from '@drover/store';

/**
 * Workflow graphs of runs, built from the run's immutable snapshot and kept in a small LRU so result handling and
 * dispatch do not re-read and re-index the definition for every node.
 */
export class RunGraphCache {
  private readonly graphs = new Map<string, WorkflowGraph>();
  constructor(private readonly capacity = 1000) {}

  /** Remember the graph of a run just created. */
  put(runId: string, graph: WorkflowGraph): void {
    this.graphs.delete(runId);
    this.graphs.set(runId, graph);
    if (this.graphs.size > this.capacity) this.graphs.delete(this.graphs.keys().next().value!);
  }

  /** The graph of `runId`, loading the snapshot through `db` (which may be a transaction) on a miss. */
  async get(db: Kysely<Database>, runId: string): Promise<WorkflowGraph> {
    const hit = this.graphs.get(runId);
    if (hit) {
      this.graphs.delete(runId);
      this.graphs.set(runId, hit);
      return hit;
    }
    const row = await db.selectFrom('runs').select('workflow').where('id', '=', runId).executeTakeFirstOrThrow();
    const graph = new WorkflowGraph(row.workflow as unknown as WorkflowDefinition);
    this.put(runId, graph);
    return graph;
  }
}
