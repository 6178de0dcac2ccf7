import type { PackageManifest } from './generated/manifest-types.ts';

/** Name of the install record written into every installed package directory. */
export const INSTALL_RECORD_FILE = '.cwx.json';

/** Contents of `<dir>/.cwx.json`: what was installed there and when. */
export interface InstallRecord {
  /** Hex sha256 of the `.cwx` archive. */
  sha256: string;
  /** Byte size of the archive. */
  size: number;
  /** ISO 8601 time the install completed. */
  installedAt: string;
}

/** A package installed at `<packagesRoot>/<name>/<version>/`. */
export interface InstalledPackage extends InstallRecord {
  name: string;
  version: string;
  /** Absolute path of the version directory (entrypoints are relative to it). */
  dir: string;
  manifest: PackageManifest;
}
