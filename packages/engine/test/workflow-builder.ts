import type { WorkflowDefinition, WorkflowNode } from '../src/index.ts';

/** A deterministic UUID for test ids: `uid(1)` → `00000000-0000-4000-8000-000000000001`. */
export const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** A node of the drover.test package with an `in`/`out` port pair bound to parameters.value/results.value. */
export function testNode(n: number, extra: Partial<WorkflowNode> = {}): WorkflowNode {
  return {
    id: uid(n),
    type: 'test.echo',
    package: { name: 'drover.test', version: '0.1.0' },
    label: `node ${n}`,
    parameters: { value: n },
    ui: {
      inputPorts: [{ key: 'in', binding: { path: 'parameters.value' } }],
      outputPorts: [{ key: 'out', binding: { path: 'results.value' } }],
    },
    ...extra,
  };
}

/** A workflow from nodes and `[from, to]` edges between their numbers (ports out → in). */
export function workflow(nodes: number[], edges: Array<[number, number]>, edgeBase = 1000): WorkflowDefinition {
  return {
    id: uid(999_999),
    nodes: nodes.map((n) => testNode(n)) as WorkflowDefinition['nodes'],
    edges: edges.map(([a, b], i) => ({ id: uid(edgeBase + i), source: { node: uid(a), port: 'out' }, target: { node: uid(b), port: 'in' } })),
  };
}
