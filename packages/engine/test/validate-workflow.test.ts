import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '../src/index.ts';
import { testNode, uid, workflow } from './workflow-builder.ts';

function problems(input: unknown) {
  const r = validateWorkflow(input);
  return r.ok ? [] : r.problems.map((p) => `${p.code} ${p.pointer}`);
}

describe('validateWorkflow', () => {
  it('accepts a valid chain and a diamond', () => {
    expect(validateWorkflow(workflow([1, 2, 3], [[1, 2], [2, 3]])).ok).toBe(true);
    expect(validateWorkflow(workflow([1, 2, 3, 4], [[1, 2], [1, 3], [2, 4], [3, 4]])).ok).toBe(true);
  });

  it('reports every problem at once, each with its JSON pointer', () => {
    const wf = workflow([1, 2, 3], [[1, 2], [2, 3]]);
    wf.nodes.push(testNode(2)); // duplicate id → /nodes/3/id
    wf.nodes.push({ ...testNode(7), id: 'not-a-uuid' }); // /nodes/4/id
    wf.edges.push({ id: uid(2001), source: { node: uid(1), port: 'out' }, target: { node: uid(42), port: 'in' } }); // dangling
    wf.edges.push({ id: uid(2002), source: { node: uid(1), port: 'nope' }, target: { node: uid(3), port: 'in' } }); // unknown port
    expect(problems(wf)).toEqual([
      'E.WORKFLOW.DUPLICATE_ID /nodes/3/id',
      'E.WORKFLOW.SCHEMA /nodes/4/id',
      'E.WORKFLOW.DANGLING_EDGE /edges/2/target/node',
      'E.WORKFLOW.UNKNOWN_PORT /edges/3/source/port',
    ]);
  });

  it('finds a cycle and points at an edge on it', () => {
    const p = validateWorkflow(workflow([1, 2, 3], [[1, 2], [2, 3], [3, 2]]));
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.code).toBe('E.WORKFLOW.CYCLE');
    expect(p.problems[0]!.message).toContain(uid(2));
    expect(p.problems[0]!.pointer).toMatch(/^\/edges\/[12]$/);
  });

  it('finds a self loop', () => {
    expect(problems(workflow([1], [[1, 1]]))).toEqual(['E.WORKFLOW.CYCLE /edges/0']);
  });

  it('refuses an input port bound to results and a port declared twice', () => {
    const wf = workflow([1], []);
    wf.nodes[0]!.ui!.inputPorts = [
      { key: 'in', binding: { path: 'results.value' } },
      { key: 'in', binding: { path: 'parameters.x' } },
    ];
    expect(problems(wf)).toEqual(['E.WORKFLOW.BAD_BINDING /nodes/0/ui/inputPorts/0/binding/path', 'E.WORKFLOW.DUPLICATE_PORT /nodes/0/ui/inputPorts/1/key']);
  });

  it('refuses unknown properties, missing fields and non-objects with pointers', () => {
    expect(problems({ ...workflow([1], []), extra: true })).toEqual(['E.WORKFLOW.SCHEMA /extra']);
    expect(problems({ id: uid(1), edges: [] })).toEqual(['E.WORKFLOW.SCHEMA /nodes']);
    expect(problems('nope')).toEqual(['E.WORKFLOW.SCHEMA ']);
    expect(problems({ id: 'nope', nodes: [], extra: 1 })).toEqual([
      'E.WORKFLOW.SCHEMA /id',
      'E.WORKFLOW.SCHEMA /nodes',
      'E.WORKFLOW.SCHEMA /extra',
      'E.WORKFLOW.SCHEMA /edges',
    ]);
    const wf = workflow([1, 2], []);
    delete (wf.nodes[1] as { type?: string }).type;
    expect(problems(wf)).toEqual(['E.WORKFLOW.SCHEMA /nodes/1/type']);
  });

  it('handles a 2000-node chain without deep recursion', () => {
    const n = Array.from({ length: 2000 }, (_, i) => i + 1);
    const edges = n.slice(1).map((k): [number, number] => [k - 1, k]);
    expect(validateWorkflow(workflow(n, edges, 10_000)).ok).toBe(true);
    edges.push([2000, 1]);
    expect(problems(workflow(n, edges, 10_000))[0]).toMatch(/^E.WORKFLOW.CYCLE/);
  });
});
