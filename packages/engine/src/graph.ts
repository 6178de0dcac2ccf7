import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from './generated/workflow-types.ts';

/**
 * Find a directed cycle, or undefined. Iterative three-colour DFS (no recursion, so deep graphs cannot overflow the
 * stack). Returns the cycle as node ids, first id repeated at the end.
 */
export function findCycle(nodeIds: string[], edges: Array<[string, string]>): string[] | undefined {
  const out = new Map<string, string[]>(nodeIds.map((id) => [id, []]));
  for (const [from, to] of edges) out.get(from)?.push(to);
  const colour = new Map<string, 1 | 2>();
  const parent = new Map<string, string>();
  for (const start of nodeIds) {
    if (colour.has(start)) continue;
    const stack: Array<[string, number]> = [[start, 0]];
    colour.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [node, i] = top;
      const next = out.get(node)![i];
      if (next === undefined) {
        colour.set(node, 2);
        stack.pop();
        continue;
      }
      top[1] = i + 1;
      const c = colour.get(next);
      if (c === 1) {
        // `next` is on the stack: walk parents from `node` back to it.
        const path = [node];
        for (let at = node; at !== next; ) {
          at = parent.get(at)!;
          path.push(at);
        }
        path.reverse();
        path.push(next);
        return path;
      }
      if (c === undefined) {
        colour.set(next, 1);
        parent.set(next, node);
        stack.push([next, 0]);
      }
    }
  }
  return undefined;
}

/** Read-only view of a validated workflow: nodes by id, incoming and outgoing edges. */
export class WorkflowGraph {
  readonly nodes = new Map<string, WorkflowNode>();
  private readonly incoming = new Map<string, WorkflowEdge[]>();
  private readonly outgoing = new Map<string, WorkflowEdge[]>();

  constructor(readonly definition: WorkflowDefinition) {
    for (const node of definition.nodes) {
      this.nodes.set(node.id, node);
      this.incoming.set(node.id, []);
      this.outgoing.set(node.id, []);
    }
    for (const edge of definition.edges) {
      this.outgoing.get(edge.source.node)?.push(edge);
      this.incoming.get(edge.target.node)?.push(edge);
    }
  }

  /** The node with this id; throws for an unknown id (a programming error after validation). */
  node(id: string): WorkflowNode {
    const n = this.nodes.get(id);
    if (!n) throw new Error(`unknown node ${id}`);
    return n;
  }

  /** Edges that end at `id`. */
  edgesInto(id: string): readonly WorkflowEdge[] {
    return this.incoming.get(id) ?? [];
  }

  /** Distinct nodes that feed `id`. */
  predecessors(id: string): string[] {
    return [...new Set(this.edgesInto(id).map((e) => e.source.node))];
  }

  /** Distinct nodes fed by `id`. */
  successors(id: string): string[] {
    return [...new Set((this.outgoing.get(id) ?? []).map((e) => e.target.node))];
  }

  /** Nodes with no incoming edge: they are ready when the run starts. */
  entryNodes(): string[] {
    return this.definition.nodes.filter((n) => this.edgesInto(n.id).length === 0).map((n) => n.id);
  }
}
