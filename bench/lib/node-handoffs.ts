/** A task row as the benchmark reads it back: one attempt of one node, with the scheduler's timestamps. */
export interface TaskTimingRow {
  node_id: string;
  attempt: number;
  status: string;
  timings: Record<string, unknown>;
}

/** The scheduler's timestamps of one node (epoch ms, sub-millisecond), as written into `tasks.timings`. */
export interface NodeStamps {
  readyAt: number;
  dispatchedAt: number;
  /** Missing when the result was recorded before the ACK update ran (the ACK update then matches no row). */
  ackedAt: number | undefined;
  resultAt: number;
  completedAt: number;
  workerMs: number;
}

/**
 * The segments of one node-to-node handoff, in ms. The four parts `tail + readyToDispatched + dispatchedToResult +
 * resultToCompleted` add up to `handoff` exactly.
 */
export interface Handoff {
  /** Position of the node in the chain (1 = the second node; the first has no predecessor). */
  index: number;
  /** completedAt(i) − completedAt(i−1). */
  handoff: number;
  /** handoff − workerMs: what the control plane adds per node. */
  overhead: number;
  /** completedAt(i−1) → readyAt(i): the rest of the previous node's result transaction. */
  tail: number;
  /** readyAt → dispatchedAt. */
  readyToDispatched: number;
  /** dispatchedAt → resultAt (includes the handler's workerMs). */
  dispatchedToResult: number;
  /** dispatchedAt → ackedAt; undefined when ackedAt is missing. */
  dispatchedToAcked: number | undefined;
  /** dispatchedAt → resultAt − workerMs: both sockets, both event loops, the worker's runner. */
  roundTripMinusWorker: number;
  /** resultAt → completedAt. */
  resultToCompleted: number;
  /** Handler duration the worker reported. */
  workerMs: number;
}

function stamp(timings: Record<string, unknown>, key: string, nodeId: string): number {
  const v = timings[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`task of node ${nodeId} has no numeric timings.${key} (timings: ${JSON.stringify(timings)})`);
  return v;
}

/** Read the stamps of every node of a linear run, in chain order; every node must have exactly one succeeded attempt. */
export function nodeStamps(order: readonly string[], rows: readonly TaskTimingRow[]): NodeStamps[] {
  return order.map((nodeId) => {
    const attempts = rows.filter((r) => r.node_id === nodeId);
    if (attempts.length !== 1 || attempts[0]!.status !== 'succeeded') {
      throw new Error(`node ${nodeId}: expected one succeeded attempt, got ${JSON.stringify(attempts.map((a) => [a.attempt, a.status]))}`);
    }
    const t = attempts[0]!.timings;
    return {
      readyAt: stamp(t, 'readyAt', nodeId),
      dispatchedAt: stamp(t, 'dispatchedAt', nodeId),
      ackedAt: typeof t.ackedAt === 'number' ? t.ackedAt : undefined,
      resultAt: stamp(t, 'resultAt', nodeId),
      completedAt: stamp(t, 'completedAt', nodeId),
      workerMs: stamp(t, 'workerMs', nodeId),
    };
  });
}

/** The handoffs of a linear run: one per node after the first. */
export function handoffs(stamps: readonly NodeStamps[]): Handoff[] {
  const out: Handoff[] = [];
  for (let i = 1; i < stamps.length; i++) {
    const prev = stamps[i - 1]!;
    const s = stamps[i]!;
    const handoff = s.completedAt - prev.completedAt;
    out.push({
      index: i,
      handoff,
      overhead: handoff - s.workerMs,
      tail: s.readyAt - prev.completedAt,
      readyToDispatched: s.dispatchedAt - s.readyAt,
      dispatchedToResult: s.resultAt - s.dispatchedAt,
      dispatchedToAcked: s.ackedAt === undefined ? undefined : s.ackedAt - s.dispatchedAt,
      roundTripMinusWorker: s.resultAt - s.dispatchedAt - s.workerMs,
      resultToCompleted: s.completedAt - s.resultAt,
      workerMs: s.workerMs,
    });
  }
  return out;
}
