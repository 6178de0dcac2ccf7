import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { InstalledPackage } from '@drover/cwx';
import type { NodeHandler } from '@drover/sdk';
import { WorkerError } from './errors.ts';
import { ParameterValidators, type ParameterCheck } from './parameter-validator.ts';

/** A loaded handler with what the runner needs to know about it. */
export interface AdapterEntry {
  package: { name: string; version: string };
  type: string;
  runtime: string;
  handler: NodeHandler;
  /** Default per-attempt timeout from the manifest, if any. */
  timeoutMs: number | undefined;
  /** Validates parameters against the manifest's `schema.parameters` and fills in its defaults. */
  checkParameters: ParameterCheck | undefined;
}

const key = (name: string, version: string, type: string) => `${name}@${version}#${type}`;

/**
 * Maps (package, version, node type) to a handler loaded from an installed package's adapter entrypoints.
 * Versions of a package coexist; each is imported from its own directory.
 */
export class AdapterRegistry {
  private readonly entries = new Map<string, AdapterEntry>();
  private readonly loaded: InstalledPackage[] = [];
  private readonly validators = new ParameterValidators();

  constructor(private readonly log: Logger) {}

  /** Import a package's adapters and register its nodes. Throws `E.PKG.LOAD_FAILED` and registers nothing on error. */
  async load(pkg: InstalledPackage): Promise<void> {
    const m = pkg.manifest;
    const modules = new Map<string, Record<string, unknown>>();
    for (const adapter of m.adapters) {
      let mod: { handlers?: Record<string, unknown> };
      try {
        mod = (await import(pathToFileURL(join(pkg.dir, adapter.entrypoint)).href)) as typeof mod;
      } catch (err) {
        throw new WorkerError('E.PKG.LOAD_FAILED', `${m.name}@${m.version}: cannot import ${adapter.entrypoint}: ${(err as Error).message}`, { cause: err });
      }
      if (!mod.handlers || typeof mod.handlers !== 'object') {
        throw new WorkerError('E.PKG.LOAD_FAILED', `${m.name}@${m.version}: ${adapter.entrypoint} exports no \`handlers\` table`);
      }
      modules.set(adapter.name, mod.handlers);
    }
    const staged: AdapterEntry[] = [];
    for (const node of m.nodes) {
      const adapter = m.adapters.find((a) => a.name === node.adapter);
      const handler = modules.get(node.adapter)?.[node.handler];
      if (!adapter || typeof handler !== 'function') {
        throw new WorkerError('E.PKG.LOAD_FAILED', `${m.name}@${m.version}: node ${node.type} has no handler ${node.adapter}.${node.handler}`);
      }
      let checkParameters: ParameterCheck | undefined;
      try {
        checkParameters = this.validators.compile(node.schema.parameters);
      } catch (err) {
        throw new WorkerError('E.PKG.LOAD_FAILED', `${m.name}@${m.version}: node ${node.type} has an invalid parameter schema: ${(err as Error).message}`, { cause: err });
      }
      staged.push({ package: { name: m.name, version: m.version }, type: node.type, runtime: adapter.runtime, handler: handler as NodeHandler, timeoutMs: node.timeoutMs, checkParameters });
    }
    for (const e of staged) this.entries.set(key(e.package.name, e.package.version, e.type), e);
    this.loaded.push(pkg);
    this.log.info({ package: `${m.name}@${m.version}`, nodes: staged.length }, 'package loaded');
  }

  /** The handler for a node type of a package version, or undefined. */
  resolve(name: string, version: string, type: string): AdapterEntry | undefined {
    return this.entries.get(key(name, version, type));
  }

  /** Loaded packages, as the register frame reports them. */
  packages(): Array<{ name: string; version: string; sha256: string; nodes: string[] }> {
    return this.loaded.map((p) => ({ name: p.manifest.name, version: p.manifest.version, sha256: p.sha256, nodes: p.manifest.nodes.map((n) => n.type) }));
  }

  /** True when some loaded package needs the browser. */
  needsBrowser(): boolean {
    return [...this.entries.values()].some((e) => e.runtime === 'playwright');
  }
}
