import { createRequire } from 'node:module';
import { arch, cpus, release, totalmem, type, version } from 'node:os';
import { dirname, join } from 'node:path';
import { repoRoot } from '@drover/testing';

/** The machine a benchmark ran on. */
export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  totalMemoryBytes: number;
  node: string;
  /** OS name, kernel release and build, architecture. */
  os: string;
  /** `select version()` of the PostgreSQL server, when the postgres dialect ran. */
  postgres?: string;
  /** The @electric-sql/pglite package version and its `select version()`, when the pglite dialect ran. */
  pglite?: { package: string; server: string };
}

/** CPU, memory, Node and OS of this machine (database versions are added by the caller). */
export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cpuCount: cpu.length,
    totalMemoryBytes: totalmem(),
    node: process.version,
    os: `${type()} ${release()} (${version()}) ${arch()}`,
  };
}

/** Version of the PGlite package the store uses (it is not a dependency of the repository root). */
export function pglitePackageVersion(): string {
  const require = createRequire(join(repoRoot, 'packages/store/package.json'));
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      const manifest = require(join(dir, 'package.json')) as { name?: string; version?: string };
      if (manifest.name === '@electric-sql/pglite') return manifest.version ?? 'unknown';
    } catch {
      // no package.json at this level
    }
  }
  return 'unknown';
}

/** One line: `<cpu> ×<n>, <mem> GiB, Node <v>, <os>, PostgreSQL <v>, PGlite <v>`. */
export function machineLine(m: MachineInfo): string {
  const parts = [
    `${m.cpuModel} ×${m.cpuCount}`,
    `${(m.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB`,
    `Node ${m.node}`,
    m.os,
  ];
  if (m.postgres) parts.push(m.postgres.split(' on ')[0]!);
  if (m.pglite) parts.push(`PGlite ${m.pglite.package} (${m.pglite.server.split(' on ')[0]})`);
  return parts.join(', ');
}
