import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CwxError, isCwxError } from './errors.ts';
import { extractArchive, inflateEntry } from './extract-archive.ts';
import type { PackageManifest } from './generated/manifest-types.ts';
import { type InstallLimits, resolveInstallLimits } from './install-limits.ts';
import { INSTALL_RECORD_FILE, type InstallRecord, type InstalledPackage } from './installed-package.ts';
import { readInstalled } from './read-installed.ts';
import { type ScannedArchive, scanArchive } from './scan-archive.ts';
import { validateManifest } from './validate-manifest.ts';

/** Prefix of the scratch directories installs extract into; `listInstalled` skips them. */
export const INSTALL_TEMP_PREFIX = '.tmp-';

/** Options of {@link installCwx}. */
export interface InstallCwxOptions {
  /**
   * Hex sha256 the archive must have (from the registry). Checked before the archive is parsed.
   * @default undefined (not checked; the computed digest is still recorded)
   */
  expectedSha256?: string;
  /**
   * Byte size the archive must have. Checked before hashing.
   * @default undefined (not checked)
   */
  expectedSize?: number;
  /** Caps for the pre-scan; unset fields take {@link DEFAULT_INSTALL_LIMITS}. */
  limits?: Partial<InstallLimits>;
  /**
   * Clock for `installedAt`.
   * @default () => new Date()
   */
  now?: () => Date;
}

/** Parse and validate `manifest.json` from the archive (before extraction), including entrypoints and resources. */
async function readArchiveManifest(archive: ScannedArchive): Promise<PackageManifest> {
  const entry = archive.entries.find((e) => e.path === 'manifest.json' && !e.isDirectory);
  if (entry === undefined) throw new CwxError('E.CWX.MANIFEST_MISSING', 'the package has no manifest.json at its root');
  const text = (await inflateEntry(entry)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new CwxError('E.CWX.MANIFEST_INVALID', `manifest.json /: not valid JSON (${String(cause)})`, {
      details: { pointer: '/' },
      cause,
    });
  }
  return validateManifest(value, { files: archive.files });
}

/** The package already at `dir`, or undefined when nothing is there. A same-sha install is a no-op. */
async function existingInstall(
  dir: string,
  sha256: string,
  manifest: PackageManifest,
): Promise<InstalledPackage | undefined> {
  try {
    await stat(dir);
  } catch {
    return undefined;
  }
  let existing: InstalledPackage;
  try {
    existing = await readInstalled(dir);
  } catch (cause) {
    throw conflict(manifest, 'unreadable', sha256, cause);
  }
  if (existing.sha256 !== sha256) throw conflict(manifest, existing.sha256, sha256);
  return existing;
}

function conflict(manifest: PackageManifest, installed: string, offered: string, cause?: unknown): CwxError {
  return new CwxError(
    'E.CWX.VERSION_CONFLICT',
    `${manifest.name}@${manifest.version} is already installed with sha256 ${installed}; refusing ${offered}`,
    { details: { name: manifest.name, version: manifest.version, installedSha256: installed, sha256: offered }, cause },
  );
}

/** Write the install record and sync it, so a renamed directory is always complete. */
async function writeRecord(dir: string, record: InstallRecord): Promise<void> {
  const handle = await open(join(dir, INSTALL_RECORD_FILE), 'wx', 0o644);
  try {
    await handle.writeFile(JSON.stringify(record, null, 2) + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function ioFailed(message: string, cause: unknown): CwxError {
  return new CwxError('E.CWX.IO_FAILED', `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, {
    cause,
  });
}

/**
 * Install a `.cwx` archive into `<packagesRoot>/<name>/<version>/`. Verifies size and sha256 before parsing,
 * pre-scans every entry against the limits, validates the manifest and its entrypoints, extracts into
 * `<packagesRoot>/.tmp-*`, writes `.cwx.json` and renames the directory into place atomically. The same version
 * with the same sha256 already installed is a no-op returning it; with another sha256 it is
 * `E.CWX.VERSION_CONFLICT`. On any failure the temp directory is removed and installed versions are untouched.
 */
export async function installCwx(
  buffer: Buffer,
  packagesRoot: string,
  options: InstallCwxOptions = {},
): Promise<InstalledPackage> {
  const limits = resolveInstallLimits(options.limits);
  const root = resolve(packagesRoot);
  if (options.expectedSize !== undefined && buffer.length !== options.expectedSize) {
    throw new CwxError('E.CWX.SIZE_MISMATCH', `package is ${buffer.length} bytes, expected ${options.expectedSize}`, {
      details: { size: buffer.length, expectedSize: options.expectedSize },
    });
  }
  if (buffer.length > limits.maxArchiveBytes) {
    throw new CwxError('E.CWX.TOO_LARGE', `package is ${buffer.length} bytes; the cap is ${limits.maxArchiveBytes}`, {
      details: { size: buffer.length, limit: limits.maxArchiveBytes },
    });
  }
  const sha256 = createHash('sha256').update(buffer).digest('hex');
  if (options.expectedSha256 !== undefined && sha256 !== options.expectedSha256.toLowerCase()) {
    throw new CwxError('E.CWX.DIGEST_MISMATCH', `package sha256 is ${sha256}, expected ${options.expectedSha256}`, {
      details: { sha256, expectedSha256: options.expectedSha256 },
    });
  }

  const archive = scanArchive(buffer, limits);
  // The install record is written by the installer; a package must not be able to forge it.
  const forged = archive.entries.find((e) => e.path.toLowerCase() === INSTALL_RECORD_FILE);
  if (forged !== undefined) {
    throw new CwxError('E.CWX.UNSAFE_ENTRY', `unsafe entry "${forged.path}": reserved name`, {
      details: { entry: forged.path, reason: 'reserved name' },
    });
  }
  const manifest = await readArchiveManifest(archive);
  const finalDir = join(root, manifest.name, manifest.version);
  const already = await existingInstall(finalDir, sha256, manifest);
  if (already !== undefined) return already;

  let tempDir: string | undefined;
  try {
    try {
      await mkdir(root, { recursive: true });
      tempDir = await mkdtemp(join(root, INSTALL_TEMP_PREFIX));
    } catch (cause) {
      throw ioFailed(`cannot create a temp directory under ${root}`, cause);
    }
    try {
      await extractArchive(archive, tempDir);
    } catch (cause) {
      if (isCwxError(cause)) throw cause;
      throw ioFailed(`cannot extract ${manifest.name}@${manifest.version}`, cause);
    }
    const installedAt = (options.now ?? (() => new Date()))().toISOString();
    const record: InstallRecord = { sha256, size: buffer.length, installedAt };
    try {
      await writeRecord(tempDir, record);
      await chmod(tempDir, 0o755); // mkdtemp makes it 0700; installed versions are world-readable like any code
      await mkdir(join(root, manifest.name), { recursive: true });
      await rename(tempDir, finalDir);
      tempDir = undefined;
    } catch (cause) {
      // Lost a race with a concurrent install of the same version: same sha → theirs is ours.
      const code = (cause as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST') {
        const raced = await existingInstall(finalDir, sha256, manifest);
        if (raced !== undefined) return raced;
      }
      throw ioFailed(`cannot move ${manifest.name}@${manifest.version} into place`, cause);
    }
    return { name: manifest.name, version: manifest.version, dir: finalDir, manifest, ...record };
  } finally {
    if (tempDir !== undefined) await rm(tempDir, { recursive: true, force: true });
  }
}
