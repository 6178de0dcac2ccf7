import type { WorkflowGraph } from './graph.ts';

/** Status of a node's current attempt, as readiness needs it. */
export type NodeState = 'pending' | 'ready' | 'dispatched' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

/**
 * Successors of `finishedNodeId` that are now ready: still pending, and every one of their predecessors
 * succeeded (the `all` barrier; `any` and branches come with the durable engine).
 */
export function readySuccessors(graph: WorkflowGraph, finishedNodeId: string, state: ReadonlyMap<string, NodeState>): string[] {
  return graph
    .successors(finishedNodeId)
    .filter((id) => state.get(id) === 'pending' && graph.predecessors(id).every((p) => state.get(p) === 'succeeded'));
}

/** Overall outcome once no node can make progress, or undefined while the run still has work. */
export function runOutcome(state: ReadonlyMap<string, NodeState>): 'succeeded' | 'failed' | 'cancelled' | undefined {
  const states = [...state.values()];
  if (states.some((s) => s === 'failed')) return 'failed';
  if (states.every((s) => s === 'succeeded' || s === 'skipped')) return 'succeeded';
  if (states.every((s) => s === 'succeeded' || s === 'skipped' || s === 'cancelled')) return 'cancelled';
  return undefined;
}
