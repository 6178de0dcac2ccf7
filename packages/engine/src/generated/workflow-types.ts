// DO NOT EDIT. Generated from schema/workflow/workflow.schema.json by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

export type Uuid = string;

export type Key = string;

/**
 * Dot path into the node: `parameters.<name>[.<name>…]` or `results.<name>[.<name>…]`.
 */
export type BindingPath = string;

/**
 * A workflow as the editor saves it and the scheduler runs it: nodes (UUID ids) wired by edges between output and input ports. Ports bind to `parameters.*` / `results.*` paths of their node.
 */
export interface WorkflowDefinition {
  id: Uuid;
  schemaVersion?: string;
  metadata?: WorkflowMetadata;
  /**
   * @minItems 1
   * @maxItems 2000
   */
  nodes: [WorkflowNode, ...WorkflowNode[]];
  /**
   * @maxItems 10000
   */
  edges: WorkflowEdge[];
  runtimes?: {
    [k: string]: unknown;
  };
  /**
   * @maxItems 64
   */
  tags?: string[];
}

export interface WorkflowMetadata {
  name?: string;
  description?: string;
  /**
   * @maxItems 64
   */
  tags?: string[];
  environment?: string;
}

export interface WorkflowNode {
  id: Uuid;
  type: string;
  package: NodePackage;
  label?: string;
  position?: Position;
  parameters?: {
    [k: string]: unknown;
  };
  results?: {
    [k: string]: unknown;
  };
  schema?: NodeSchema;
  ui?: NodeUi;
  /**
   * Wall-clock limit for one attempt.
   */
  timeoutMs?: number;
  conditions?: {
    [k: string]: unknown;
  };
  extensions?: {
    [k: string]: unknown;
  };
  metadata?: {
    [k: string]: unknown;
  };
}

export interface NodePackage {
  name: string;
  version: string;
}

export interface Position {
  x: number;
  y: number;
}

export interface NodeSchema {
  parameters?: {
    [k: string]: unknown;
  };
  results?: {
    [k: string]: unknown;
  };
}

export interface NodeUi {
  /**
   * @maxItems 256
   */
  inputPorts?: Port[];
  /**
   * @maxItems 256
   */
  widgets?: Widget[];
  /**
   * @maxItems 256
   */
  outputPorts?: Port[];
}

export interface Port {
  key: Key;
  label?: string;
  binding: Binding;
}

export interface Binding {
  path: BindingPath;
  mode?: 'read' | 'write' | 'two_way';
}

export interface Widget {
  key: Key;
  label?: string;
  component: string;
  binding: Binding;
  options?: {
    [k: string]: unknown;
  };
}

export interface WorkflowEdge {
  id: Uuid;
  source: EdgeEndpoint;
  target: EdgeEndpoint;
}

export interface EdgeEndpoint {
  node: Uuid;
  port: Key;
}
