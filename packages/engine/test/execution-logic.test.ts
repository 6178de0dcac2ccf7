import { describe, expect, it } from 'vitest';
import { WorkflowGraph, bindParameters, findCycle, getPath, pinnedWorker, readySuccessors, runOutcome, setPath, type NodeState } from '../src/index.ts';
import { uid, workflow } from './workflow-builder.ts';

describe('graph and readiness', () => {
  const graph = new WorkflowGraph(workflow([1, 2, 3, 4], [[1, 2], [1, 3], [2, 4], [3, 4]]));

  it('knows entry nodes, predecessors and successors', () => {
    expect(graph.entryNodes()).toEqual([uid(1)]);
    expect(graph.successors(uid(1)).sort()).toEqual([uid(2), uid(3)]);
    expect(graph.predecessors(uid(4)).sort()).toEqual([uid(2), uid(3)]);
  });

  it('makes a join ready only when every input succeeded', () => {
    const state = new Map<string, NodeState>([[uid(1), 'succeeded'], [uid(2), 'succeeded'], [uid(3), 'running'], [uid(4), 'pending']]);
    expect(readySuccessors(graph, uid(2), state)).toEqual([]);
    state.set(uid(3), 'succeeded');
    expect(readySuccessors(graph, uid(3), state)).toEqual([uid(4)]);
  });

  it('settles the run outcome', () => {
    expect(runOutcome(new Map([[uid(1), 'succeeded'], [uid(2), 'running']]))).toBeUndefined();
    expect(runOutcome(new Map([[uid(1), 'succeeded'], [uid(2), 'succeeded']]))).toBe('succeeded');
    expect(runOutcome(new Map([[uid(1), 'failed'], [uid(2), 'running']]))).toBe('failed');
  });

  it('returns the nodes of a cycle in order', () => {
    expect(findCycle(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['c', 'b']])).toEqual(['b', 'c', 'b']);
    expect(findCycle(['a', 'b'], [['a', 'b']])).toBeUndefined();
  });
});

describe('port bindings', () => {
  it('copies output port values into input port parameters', () => {
    const graph = new WorkflowGraph(workflow([1, 2], [[1, 2]]));
    const params = bindParameters(graph, uid(2), new Map([[uid(1), { parameters: {}, results: { value: { deep: [1, 2] } } }]]));
    expect(params).toEqual({ value: { deep: [1, 2] } });
    // the node's own parameters are not mutated
    expect(graph.node(uid(2)).parameters).toEqual({ value: 2 });
  });

  it('keeps the node parameter when the source produced nothing at that path', () => {
    const graph = new WorkflowGraph(workflow([1, 2], [[1, 2]]));
    expect(bindParameters(graph, uid(2), new Map([[uid(1), { parameters: {}, results: {} }]]))).toEqual({ value: 2 });
  });

  it('reads and writes dot paths and refuses prototype keys', () => {
    const o: Record<string, unknown> = {};
    setPath(o, 'parameters.a.b', 1);
    expect(getPath(o, 'parameters.a.b')).toBe(1);
    expect(getPath(o, 'parameters.x.y')).toBeUndefined();
    expect(() => setPath(o, 'parameters.__proto__.polluted', 1)).toThrow(/forbidden/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('pins a node to the worker holding a resource it receives', () => {
    const ref = (w: string) => ({ $resource: { workerId: w, id: 'p1', type: 'playwright.page' } });
    expect(pinnedWorker({ page: ref('w1'), other: [1, { x: ref('w1') }] })).toBe('w1');
    expect(pinnedWorker({ a: 1 })).toBeUndefined();
    expect(() => pinnedWorker({ a: ref('w1'), b: ref('w2') })).toThrow(/two workers/);
  });
});
