import type { PackageManifest } from '@drover/cwx';
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from '@drover/engine';

/** One step of a linear workflow. */
export interface LinearStep {
  type: string;
  label?: string;
  parameters?: Record<string, unknown>;
  timeoutMs?: number;
}

/**
 * A workflow that runs `steps` one after another, with each node's ports copied from the package manifest (as an
 * editor would). Consecutive nodes are wired `page → page` when both have that port (so a browser page flows
 * down the chain), `value → value` likewise, and otherwise `done → trigger`.
 */
export function linearWorkflow(manifest: PackageManifest, steps: LinearStep[], name = 'linear workflow'): WorkflowDefinition {
  const nodes: WorkflowNode[] = steps.map((step, i) => {
    const def = manifest.nodes.find((n) => n.type === step.type);
    if (!def) throw new Error(`${manifest.name}@${manifest.version} has no node type ${step.type}`);
    const node: WorkflowNode = {
      id: crypto.randomUUID(),
      type: step.type,
      package: { name: manifest.name, version: manifest.version },
      label: step.label ?? def.label,
      position: { x: 100 + 240 * i, y: 160 },
      parameters: step.parameters ?? {},
    };
    if (def.ui) node.ui = structuredClone(def.ui);
    if (step.timeoutMs !== undefined) node.timeoutMs = step.timeoutMs;
    return node;
  });
  const edges: WorkflowEdge[] = [];
  for (let i = 1; i < nodes.length; i++) {
    const from = nodes[i - 1]!;
    const to = nodes[i]!;
    const outs = new Set(from.ui?.outputPorts?.map((p) => p.key));
    const ins = new Set(to.ui?.inputPorts?.map((p) => p.key));
    const wired = ['page', 'value'].filter((k) => outs.has(k) && ins.has(k));
    const pairs: Array<[string, string]> = wired.length > 0 ? wired.map((k) => [k, k]) : [['done', 'trigger']];
    for (const [sp, tp] of pairs) {
      if (!outs.has(sp) || !ins.has(tp)) throw new Error(`cannot wire ${from.type} → ${to.type}: no ${sp}/${tp} ports`);
      edges.push({ id: crypto.randomUUID(), source: { node: from.id, port: sp }, target: { node: to.id, port: tp } });
    }
  }
  return { id: crypto.randomUUID(), schemaVersion: '1', metadata: { name }, nodes: nodes as WorkflowDefinition['nodes'], edges };
}
