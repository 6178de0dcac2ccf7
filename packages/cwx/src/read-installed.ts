import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CwxError, isCwxError } from './errors.ts';
import type { PackageManifest } from './generated/manifest-types.ts';
import { INSTALL_RECORD_FILE, type InstallRecord, type InstalledPackage } from './installed-package.ts';
import { validateManifest } from './validate-manifest.ts';

function corrupt(dir: string, message: string, cause?: unknown): CwxError {
  return new CwxError('E.CWX.INSTALL_CORRUPT', `installed package ${dir}: ${message}`, { details: { dir }, cause });
}

async function readJson(file: string, dir: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw corrupt(dir, `cannot read ${basename(file)}`, cause);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw corrupt(dir, `${basename(file)} is not valid JSON`, cause);
  }
}

function isInstallRecord(value: unknown): value is InstallRecord {
  const r = value as Partial<InstallRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(r.sha256) &&
    typeof r.size === 'number' &&
    typeof r.installedAt === 'string'
  );
}

/** True when `path` is an existing regular file. */
async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Read one installed version directory `<root>/<name>/<version>/`: its install record and manifest, checking that
 * the manifest is valid, matches the directory's name and version, and that its entrypoints are present. Throws
 * `E.CWX.INSTALL_CORRUPT` (with the underlying error as `cause`) when anything is off.
 */
export async function readInstalled(dir: string): Promise<InstalledPackage> {
  const record = await readJson(join(dir, INSTALL_RECORD_FILE), dir);
  if (!isInstallRecord(record)) throw corrupt(dir, `${INSTALL_RECORD_FILE} lacks sha256, size or installedAt`);

  const raw = await readJson(join(dir, 'manifest.json'), dir);
  let manifest: PackageManifest;
  try {
    manifest = validateManifest(raw);
  } catch (cause) {
    if (isCwxError(cause)) throw corrupt(dir, cause.message, cause);
    throw cause;
  }
  for (const adapter of manifest.adapters) {
    if (!(await isFile(join(dir, adapter.entrypoint)))) {
      throw corrupt(dir, `adapter "${adapter.name}" entrypoint "${adapter.entrypoint}" is missing`);
    }
  }

  const version = basename(dir);
  const name = basename(dirname(dir));
  if (manifest.name !== name || manifest.version !== version) {
    throw corrupt(dir, `manifest says ${manifest.name}@${manifest.version}, directory says ${name}@${version}`);
  }
  return {
    name,
    version,
    dir,
    sha256: record.sha256,
    size: record.size,
    installedAt: record.installedAt,
    manifest,
  };
}
