import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installCwx, type InstalledPackage } from '@drover/cwx';
import { repoRoot } from './repo-root.ts';

/** Build every node package (.cwx) and install them into a fresh packages directory. */
export async function installBuiltPackages(): Promise<{ packagesDir: string; installed: InstalledPackage[] }> {
  const { buildNodePackages } = (await import(join(repoRoot, 'scripts/build-packages.ts'))) as {
    buildNodePackages(): Promise<Array<{ file: string; sha256: string; size: number }>>;
  };
  const built = await buildNodePackages();
  const packagesDir = await mkdtemp(join(tmpdir(), 'drover-pkgs-'));
  const installed: InstalledPackage[] = [];
  for (const b of built) {
    installed.push(await installCwx(await readFile(b.file), packagesDir, { expectedSha256: b.sha256, expectedSize: b.size }));
  }
  return { packagesDir, installed };
}
