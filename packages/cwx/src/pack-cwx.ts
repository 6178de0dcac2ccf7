import { createHash } from 'node:crypto';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { CwxError } from './errors.ts';
import type { PackageManifest } from './generated/manifest-types.ts';
import { unsafeEntryReason } from './unsafe-entry-reason.ts';
import { validateManifest } from './validate-manifest.ts';

/** A packed `.cwx` archive. */
export interface PackedCwx {
  buffer: Buffer;
  /** Hex sha256 of `buffer`. */
  sha256: string;
  /** Byte length of `buffer`. */
  size: number;
  manifest: PackageManifest;
}

/** DOS timestamp 1980-01-01 00:00:00, the zip epoch: every entry gets it so packing is reproducible. */
const FIXED_DOS_TIME = (1 << 21) | (1 << 16);
/** "Made by" Unix, zip spec 2.0: tells unzip tools to honour the Unix mode in the external attributes. */
const MADE_BY_UNIX = (3 << 8) | 20;
/** Folder whose whole content is packed; bundled entrypoints live there. */
const DIST_DIR = 'dist';

/** Every regular file under `dir` (relative, forward slashes); symlinks and special files are refused. */
async function walk(root: string, rel: string, out: Set<string>): Promise<void> {
  const info = await lstat(join(root, rel));
  if (info.isSymbolicLink()) throw unsafe(rel, 'symbolic link');
  if (info.isFile()) {
    out.add(rel);
    return;
  }
  if (!info.isDirectory()) throw unsafe(rel, 'special file');
  for (const name of (await readdir(join(root, rel))).sort()) await walk(root, `${rel}/${name}`, out);
}

function unsafe(path: string, reason: string): CwxError {
  return new CwxError('E.CWX.UNSAFE_ENTRY', `cannot pack "${path}": ${reason}`, { details: { entry: path, reason } });
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Pack a node package directory into a `.cwx`: `manifest.json`, everything under `dist/` and the resources the
 * manifest declares. Entries are sorted and carry a fixed timestamp and mode, so the same input always gives the
 * same bytes and sha256. Throws a {@link CwxError} when the manifest is invalid or names a missing entrypoint.
 */
export async function packCwx(dir: string): Promise<PackedCwx> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CwxError(
      missing ? 'E.CWX.MANIFEST_MISSING' : 'E.CWX.MANIFEST_INVALID',
      missing ? `${dir} has no manifest.json` : `manifest.json /: not valid JSON (${String(cause)})`,
      { details: { dir, pointer: '/' }, cause },
    );
  }
  // Schema first, so resource paths are known to be safe before they are walked.
  const declared = validateManifest(raw);

  const files = new Set<string>(['manifest.json']);
  if (await exists(join(dir, DIST_DIR))) await walk(dir, DIST_DIR, files);
  for (const resource of declared.resources ?? []) {
    const path = resource.path.replace(/\/$/, '');
    if (await exists(join(dir, path))) await walk(dir, path, files);
  }
  for (const file of files) {
    const reason = unsafeEntryReason(file);
    if (reason !== undefined) throw unsafe(file, reason);
  }
  const manifest = validateManifest(raw, { files });

  const zip = new AdmZip();
  for (const file of [...files].sort()) {
    const entry = zip.addFile(file, await readFile(join(dir, file)), '', 0o644);
    entry.header.timeval = FIXED_DOS_TIME;
    entry.header.made = MADE_BY_UNIX;
  }
  const buffer = zip.toBuffer();
  return { buffer, sha256: createHash('sha256').update(buffer).digest('hex'), size: buffer.length, manifest };
}
