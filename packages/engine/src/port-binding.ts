import type { WorkflowGraph } from './graph.ts';

/** Read the value at a dot path (`results.page.url`) of an object; undefined when any step is missing. */
export function getPath(root: unknown, path: string): unknown {
  let at: unknown = root;
  for (const key of path.split('.')) {
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Write `value` at a dot path, creating plain objects on the way. Refuses prototype keys. */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at: Record<string, unknown> = root;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new Error(`forbidden path segment ${key}`);
    if (i === keys.length - 1) {
      at[key] = value;
      return;
    }
    const next = at[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
}

/** What a finished upstream node produced, as the binding step needs it. */
export interface NodeOutput {
  parameters: Record<string, unknown>;
  results: Record<string, unknown>;
}

/**
 * Parameters for `nodeId` once its upstream nodes are done: the node's own parameters, then, for each incoming
 * edge, the value at the source output port's binding path copied to the target input port's binding path.
 * Edges are applied in definition order, so a later edge to the same path wins.
 */
export function bindParameters(graph: WorkflowGraph, nodeId: string, outputs: ReadonlyMap<string, NodeOutput>): Record<string, unknown> {
  const node = graph.node(nodeId);
  const target: Record<string, unknown> = { parameters: structuredClone(node.parameters ?? {}) };
  for (const edge of graph.edgesInto(nodeId)) {
    const source = graph.node(edge.source.node);
    const out = source.ui?.outputPorts?.find((p) => p.key === edge.source.port);
    const inp = node.ui?.inputPorts?.find((p) => p.key === edge.target.port);
    const produced = outputs.get(source.id);
    if (!out || !inp || !produced) continue;
    const value = getPath(produced, out.binding.path);
    if (value === undefined) continue;
    setPath(target, inp.binding.path, structuredClone(value));
  }
  return target.parameters as Record<string, unknown>;
}
