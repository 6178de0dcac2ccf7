// DO NOT EDIT. Generated from schema/cwx/manifest.schema.json by `pnpm gen` (scripts/gen.ts).
// `pnpm gen:check` (part of the test command) fails when this file is stale.

/**
 * `manifest.json` at the root of a .cwx package: what the package is, which adapters (JavaScript entrypoints) it ships and which node types they implement.
 */
export interface PackageManifest {
  name: string;
  version: string;
  schemaVersion: '1.0.0';
  description?: string;
  /**
   * @minItems 1
   * @maxItems 32
   */
  adapters: [ManifestAdapter, ...ManifestAdapter[]];
  /**
   * @minItems 1
   * @maxItems 512
   */
  nodes: [ManifestNode, ...ManifestNode[]];
  /**
   * Other packages this one needs, name → exact version.
   */
  dependencies?: {
    [k: string]: string;
  };
  /**
   * @maxItems 64
   */
  resources?: ManifestResource[];
  hooks?: ManifestHooks;
}

export interface ManifestAdapter {
  name: string;
  runtime: 'node' | 'playwright';
  /**
   * Relative path of an ES module inside the package that exports `handlers`.
   */
  entrypoint: string;
  /**
   * @maxItems 256
   */
  capabilities?: string[];
}

export interface ManifestNode {
  type: string;
  /**
   * Name of the adapter that implements it.
   */
  adapter: string;
  /**
   * Key in the adapter module's `handlers` export.
   */
  handler: string;
  label: string;
  category?: string;
  description?: string;
  /**
   * @maxItems 32
   */
  tags?: string[];
  schema: NodeSchema;
  ui?: NodeUi;
  timeoutMs?: number;
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
  key: string;
  label?: string;
  binding: Binding;
}

export interface Binding {
  /**
   * Dot path into the node: `parameters.<name>[.<name>…]` or `results.<name>[.<name>…]`.
   */
  path: string;
  mode?: 'read' | 'write' | 'two_way';
}

export interface Widget {
  key: string;
  label?: string;
  component: string;
  binding: Binding;
  options?: {
    [k: string]: unknown;
  };
}

export interface ManifestResource {
  path: string;
  type: 'file' | 'directory';
  sha256?: string;
}

export interface ManifestHooks {
  /**
   * @maxItems 8
   */
  install?: string[];
  /**
   * @maxItems 8
   */
  uninstall?: string[];
}
