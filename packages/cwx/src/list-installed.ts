import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CwxError, isCwxError } from './errors.ts';
import type { InstalledPackage } from './installed-package.ts';
import { readInstalled } from './read-installed.ts';

/** A directory under the packages root that is not a usable installed package. */
export interface InstallProblem {
  /** Absolute path of the skipped directory. */
  dir: string;
  /** Why it was skipped (usually `E.CWX.INSTALL_CORRUPT` with the underlying error as `cause`). */
  error: CwxError;
}

/** Result of {@link scanInstalled}: the usable packages and the directories skipped. */
export interface InstalledScan {
  packages: InstalledPackage[];
  problems: InstallProblem[];
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  // Dot-directories are install scratch space (`.tmp-*`) or foreign; symlinks are never followed.
  return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
}

const byNameThenVersion = (a: InstalledPackage, b: InstalledPackage): number =>
  a.name.localeCompare(b.name) || a.version.localeCompare(b.version, 'en', { numeric: true });

/**
 * Scan `<packagesRoot>/<name>/<version>/` for installed packages. Broken version directories are not fatal: each is
 * skipped and reported in `problems`. A missing root is an empty scan. Packages are sorted by name, then version
 * (numeric segments compared as numbers).
 */
export async function scanInstalled(packagesRoot: string): Promise<InstalledScan> {
  const root = resolve(packagesRoot);
  const packages: InstalledPackage[] = [];
  const problems: InstallProblem[] = [];
  let names: string[];
  try {
    names = await subdirectories(root);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { packages, problems };
    throw new CwxError('E.CWX.IO_FAILED', `cannot read packages root ${root}`, { cause });
  }
  for (const name of names) {
    let versions: string[];
    try {
      versions = await subdirectories(join(root, name));
    } catch (cause) {
      problems.push({
        dir: join(root, name),
        error: new CwxError('E.CWX.IO_FAILED', `cannot read ${join(root, name)}`, { cause }),
      });
      continue;
    }
    for (const version of versions) {
      const dir = join(root, name, version);
      try {
        packages.push(await readInstalled(dir));
      } catch (error) {
        if (!isCwxError(error)) throw error;
        problems.push({ dir, error });
      }
    }
  }
  packages.sort(byNameThenVersion);
  return { packages, problems };
}

/**
 * The usable packages installed under `packagesRoot` (see {@link scanInstalled}; broken directories are skipped —
 * call `scanInstalled` to see them).
 */
export async function listInstalled(packagesRoot: string): Promise<InstalledPackage[]> {
  return (await scanInstalled(packagesRoot)).packages;
}
