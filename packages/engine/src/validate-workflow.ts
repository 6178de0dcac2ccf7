import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { workflowSchema } from './generated/workflow-schema.ts';
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from './generated/workflow-types.ts';
import type { WorkflowProblem } from './errors.ts';
import { findCycle } from './graph.ts';

const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;
const WF = workflowSchema.$id;

interface Validators {
  /** One validator per top-level property, with node and edge items left open. */
  top: Map<string, ValidateFunction>;
  required: readonly string[];
  node: ValidateFunction;
  edge: ValidateFunction;
}

let compiled: Validators | undefined;

/**
 * Validators compiled once: the document shell (with node and edge items left open), one node, one edge. Checking
 * each node and edge on its own reports a problem for every bad element while Ajv itself stops at the first error
 * of each (no allErrors: bounded work per element).
 */
function validators(): Validators {
  if (compiled) return compiled;
  const ajv = new Ajv2020({ strict: true, allErrors: false, coerceTypes: false, $data: false, useDefaults: false });
  addFormats(ajv, ['uuid', 'date-time', 'uri']);
  ajv.addSchema(workflowSchema);
  const shellSchema = structuredClone(workflowSchema) as unknown as {
    $id: string;
    properties: { nodes: { items: unknown }; edges: { items: unknown } };
  };
  shellSchema.$id = WF.replace(/\.schema\.json$/, '.shell.schema.json');
  shellSchema.properties.nodes.items = true;
  shellSchema.properties.edges.items = true;
  ajv.addSchema(shellSchema);
  const top = new Map(
    Object.keys(shellSchema.properties).map((key) => [key, ajv.getSchema(`${shellSchema.$id}#/properties/${key}`)!] as const),
  );
  compiled = {
    top,
    required: workflowSchema.required,
    node: ajv.getSchema(`${WF}#/$defs/node`)!,
    edge: ajv.getSchema(`${WF}#/$defs/edge`)!,
  };
  return compiled;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function schemaProblem(prefix: string, err: ErrorObject | undefined): WorkflowProblem {
  const params = (err?.params ?? {}) as Record<string, unknown>;
  let pointer = prefix + (err?.instancePath ?? '');
  let message = err?.message ?? 'is invalid';
  if (err?.keyword === 'additionalProperties') {
    pointer += `/${String(params.additionalProperty)}`;
    message = 'is not an allowed property';
  } else if (err?.keyword === 'required') {
    pointer += `/${String(params.missingProperty)}`;
    message = 'is required';
  } else if (err?.keyword === 'format') {
    message = `must be a ${String(params.format)}`;
  } else if (err?.keyword === 'enum') {
    message = `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
  }
  return { code: 'E.WORKFLOW.SCHEMA', pointer, message };
}

/** Outcome of validating a workflow definition. */
export type WorkflowValidation =
  | { ok: true; workflow: WorkflowDefinition }
  | { ok: false; problems: WorkflowProblem[] };

/**
 * Validate a submitted workflow definition: schema (per element), unique ids, edges that reference existing nodes
 * and declared ports, input ports bound to parameters, and no cycles. Returns every problem found, each with the
 * JSON pointer of the offending part.
 */
export function validateWorkflow(input: unknown): WorkflowValidation {
  const v = validators();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, problems: [{ code: 'E.WORKFLOW.SCHEMA', pointer: '', message: 'must be an object' }] };
  }
  // Top level: every unknown, missing or invalid property is its own problem.
  const problems: WorkflowProblem[] = [];
  for (const [key, value] of Object.entries(input)) {
    const validate = v.top.get(key);
    if (!validate) problems.push({ code: 'E.WORKFLOW.SCHEMA', pointer: `/${escapePointer(key)}`, message: 'is not an allowed property' });
    else if (!validate(value)) problems.push(schemaProblem(`/${key}`, validate.errors?.[0]));
  }
  for (const key of v.required) {
    if (!Object.hasOwn(input, key)) problems.push({ code: 'E.WORKFLOW.SCHEMA', pointer: `/${key}`, message: 'is required' });
  }
  const raw = input as { nodes?: unknown; edges?: unknown };
  const doc = { nodes: Array.isArray(raw.nodes) ? raw.nodes : [], edges: Array.isArray(raw.edges) ? raw.edges : [] };

  const nodes = new Map<string, { node: WorkflowNode; index: number }>();
  const ids = new Map<string, string>();
  doc.nodes.forEach((raw, i) => {
    if (!v.node(raw)) return void problems.push(schemaProblem(`/nodes/${i}`, v.node.errors?.[0]));
    const node = raw as WorkflowNode;
    if (ids.has(node.id)) {
      problems.push({ code: 'E.WORKFLOW.DUPLICATE_ID', pointer: `/nodes/${i}/id`, message: `id ${node.id} is already used at ${ids.get(node.id)}` });
      return;
    }
    ids.set(node.id, `/nodes/${i}/id`);
    nodes.set(node.id, { node, index: i });
    for (const side of ['inputPorts', 'outputPorts'] as const) {
      const seen = new Set<string>();
      node.ui?.[side]?.forEach((port, j) => {
        const at = `/nodes/${i}/ui/${side}/${j}`;
        if (seen.has(port.key)) problems.push({ code: 'E.WORKFLOW.DUPLICATE_PORT', pointer: `${at}/key`, message: `port ${port.key} is declared twice` });
        seen.add(port.key);
        if (side === 'inputPorts' && !port.binding.path.startsWith('parameters.')) {
          problems.push({ code: 'E.WORKFLOW.BAD_BINDING', pointer: `${at}/binding/path`, message: `input port ${port.key} must bind to parameters.*, not ${port.binding.path}` });
        }
      });
    }
  });

  const edges: Array<{ edge: WorkflowEdge; index: number }> = [];
  doc.edges.forEach((raw, i) => {
    if (!v.edge(raw)) return void problems.push(schemaProblem(`/edges/${i}`, v.edge.errors?.[0]));
    const edge = raw as WorkflowEdge;
    if (ids.has(edge.id)) {
      problems.push({ code: 'E.WORKFLOW.DUPLICATE_ID', pointer: `/edges/${i}/id`, message: `id ${edge.id} is already used at ${ids.get(edge.id)}` });
    } else ids.set(edge.id, `/edges/${i}/id`);
    let ok = true;
    for (const end of ['source', 'target'] as const) {
      const ref = edge[end];
      const target = nodes.get(ref.node);
      if (!target) {
        problems.push({ code: 'E.WORKFLOW.DANGLING_EDGE', pointer: `/edges/${i}/${end}/node`, message: `${end} node ${ref.node} is not in the workflow` });
        ok = false;
        continue;
      }
      const ports = end === 'source' ? target.node.ui?.outputPorts : target.node.ui?.inputPorts;
      if (!ports?.some((p) => p.key === ref.port)) {
        const kind = end === 'source' ? 'output' : 'input';
        const known = ports?.map((p) => p.key).join(', ') || 'none';
        problems.push({ code: 'E.WORKFLOW.UNKNOWN_PORT', pointer: `/edges/${i}/${end}/port`, message: `node ${ref.node} has no ${kind} port ${ref.port} (its ${kind} ports: ${known})` });
        ok = false;
      }
    }
    if (ok) edges.push({ edge, index: i });
  });

  const cycle = findCycle([...nodes.keys()], edges.map(({ edge }) => [edge.source.node, edge.target.node]));
  if (cycle) {
    const first = edges.find(({ edge }) => edge.source.node === cycle[0] && edge.target.node === cycle[1]);
    problems.push({
      code: 'E.WORKFLOW.CYCLE',
      pointer: first ? `/edges/${first.index}` : '/edges',
      message: `edges form a cycle: ${cycle.join(' → ')}`,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, workflow: input as WorkflowDefinition };
}
