import { Ajv2020, type AnySchema, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CwxError } from './errors.ts';
import { manifestSchema, workflowSchema } from './generated/manifest-schema.ts';
import type { PackageManifest } from './generated/manifest-types.ts';
import { unsafeEntryReason } from './unsafe-entry-reason.ts';

/** Options of {@link validateManifest}. */
export interface ValidateManifestOptions {
  /**
   * Paths of the files in the package (forward slashes, relative to its root). When given, every adapter
   * entrypoint and declared resource must be among them.
   * @default undefined (file checks skipped)
   */
  files?: Iterable<string>;
}

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

let compiled: ValidateFunction<PackageManifest> | undefined;

/** Compile the embedded schemas once per process; strict, no coercion, first error only. */
function manifestValidator(): ValidateFunction<PackageManifest> {
  if (compiled === undefined) {
    const ajv = new Ajv2020({ strict: true, allErrors: false, coerceTypes: false, $data: false, useDefaults: false });
    addFormats(ajv);
    ajv.addSchema(workflowSchema as unknown as AnySchema);
    compiled = ajv.compile<PackageManifest>(manifestSchema as unknown as AnySchema);
  }
  return compiled;
}

/** JSON pointer of the value an Ajv error is about (the missing or extra property itself, when there is one). */
function pointerOf(error: ErrorObject): string {
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
  const escaped = child === undefined ? '' : '/' + child.replace(/~/g, '~0').replace(/\//g, '~1');
  return error.instancePath + escaped || '/';
}

function invalid(pointer: string, message: string, details: Record<string, unknown> = {}): CwxError {
  return new CwxError('E.CWX.MANIFEST_INVALID', `manifest.json ${pointer}: ${message}`, {
    details: { pointer, ...details },
  });
}

/**
 * Check a parsed `manifest.json` against the manifest schema and the rules the schema cannot express (adapter
 * names unique, each node's adapter declared, node types unique, safe relative resource paths; with `files`, the
 * entrypoints and resources present). Returns the value typed, or throws a {@link CwxError}:
 * `E.CWX.MANIFEST_INVALID` (details.pointer names the offending JSON pointer), `E.CWX.ENTRYPOINT_MISSING` or
 * `E.CWX.RESOURCE_MISSING`.
 */
export function validateManifest(value: unknown, options: ValidateManifestOptions = {}): PackageManifest {
  const validate = manifestValidator();
  if (!validate(value)) {
    const error = validate.errors?.[0];
    if (error === undefined) throw invalid('/', 'does not match the manifest schema');
    throw invalid(pointerOf(error), error.message ?? 'does not match the manifest schema', {
      keyword: error.keyword,
      schemaPath: error.schemaPath,
      params: error.params,
    });
  }
  const manifest = value;

  const adapters = new Set<string>();
  manifest.adapters.forEach((adapter, i) => {
    if (adapters.has(adapter.name)) throw invalid(`/adapters/${i}/name`, `duplicate adapter name "${adapter.name}"`);
    adapters.add(adapter.name);
  });

  const types = new Set<string>();
  manifest.nodes.forEach((node, i) => {
    if (!adapters.has(node.adapter)) {
      throw invalid(`/nodes/${i}/adapter`, `node "${node.type}" names undeclared adapter "${node.adapter}"`);
    }
    if (types.has(node.type)) throw invalid(`/nodes/${i}/type`, `duplicate node type "${node.type}"`);
    types.add(node.type);
  });

  (manifest.resources ?? []).forEach((resource, i) => {
    const reason = unsafeEntryReason(resource.path);
    if (reason !== undefined)
      throw invalid(`/resources/${i}/path`, `unsafe resource path "${resource.path}": ${reason}`);
  });

  if (options.files !== undefined) checkFiles(manifest, new Set(options.files));
  return manifest;
}

/** Entrypoints and resources must be files of the package (a directory resource: at least one file under it). */
function checkFiles(manifest: PackageManifest, files: ReadonlySet<string>): void {
  manifest.adapters.forEach((adapter, i) => {
    if (!files.has(adapter.entrypoint)) {
      throw new CwxError(
        'E.CWX.ENTRYPOINT_MISSING',
        `adapter "${adapter.name}" entrypoint "${adapter.entrypoint}" is not in the package`,
        { details: { pointer: `/adapters/${i}/entrypoint`, adapter: adapter.name, entrypoint: adapter.entrypoint } },
      );
    }
  });
  (manifest.resources ?? []).forEach((resource, i) => {
    const prefix = resource.path.replace(/\/$/, '') + '/';
    const present =
      resource.type === 'file' ? files.has(resource.path) : [...files].some((file) => file.startsWith(prefix));
    if (!present) {
      throw new CwxError(
        'E.CWX.RESOURCE_MISSING',
        `${resource.type} resource "${resource.path}" is not in the package`,
        {
          details: { pointer: `/resources/${i}/path`, path: resource.path, type: resource.type },
        },
      );
    }
  });
}
