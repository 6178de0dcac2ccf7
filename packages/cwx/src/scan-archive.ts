import AdmZip from 'adm-zip';
import { CwxError } from './errors.ts';
import type { InstallLimits } from './install-limits.ts';
import { unsafeEntryReason } from './unsafe-entry-reason.ts';

/** One entry of a scanned archive: its checked name and declared sizes. */
export interface ScannedEntry {
  /** Forward-slash relative path; directories keep no trailing slash. */
  path: string;
  isDirectory: boolean;
  /** Uncompressed size declared by the central directory. */
  size: number;
  compressedSize: number;
  /** The adm-zip entry, for extraction. */
  zipEntry: AdmZip.IZipEntry;
}

/** An archive whose every entry passed the pre-scan. */
export interface ScannedArchive {
  entries: ScannedEntry[];
  /** Paths of the file entries. */
  files: string[];
  totalBytes: number;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const DOS_DIRECTORY = 0x10;
const DOS_REPARSE_POINT = 0x400;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;

function unsafe(name: string, reason: string): CwxError {
  return new CwxError('E.CWX.UNSAFE_ENTRY', `unsafe entry "${name}": ${reason}`, { details: { entry: name, reason } });
}

/** Open the zip's central directory; anything adm-zip cannot read is `E.CWX.NOT_A_ZIP`. */
function openZip(buffer: Buffer): AdmZip.IZipEntry[] {
  try {
    return new AdmZip(buffer).getEntries();
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (/duplicate/i.test(message)) {
      throw new CwxError('E.CWX.DUPLICATE_ENTRY', `archive declares an entry twice: ${message}`, { cause });
    }
    throw new CwxError('E.CWX.NOT_A_ZIP', `not a readable zip archive: ${message}`, { cause });
  }
}

/** Reject entries that are not plain files or directories (symlinks, devices, FIFOs, sockets, reparse points). */
function checkEntryType(name: string, zipEntry: AdmZip.IZipEntry): void {
  const attr = zipEntry.header.attr >>> 0;
  const unixType = (attr >>> 16) & S_IFMT;
  // Unix modes live in the high 16 bits whatever the "made by" host says; 0 means "not recorded".
  if (unixType === S_IFLNK) throw unsafe(name, 'symbolic link');
  if (unixType !== 0 && unixType !== S_IFREG && unixType !== S_IFDIR) {
    throw unsafe(name, `special file (mode 0o${unixType.toString(8)})`);
  }
  if ((attr & DOS_REPARSE_POINT) !== 0) throw unsafe(name, 'reparse point (Windows symbolic link)');
  const markedDirectory = unixType === S_IFDIR || (unixType === 0 && (attr & DOS_DIRECTORY) !== 0);
  if (markedDirectory !== zipEntry.isDirectory) throw unsafe(name, 'entry type does not match its name');
}

/**
 * Pre-scan every entry of a `.cwx` archive before anything touches the disk: safe names, plain files and
 * directories only, no duplicates (also case-insensitively, and no file where a directory is needed), supported
 * compression, and the entry-count, total-size and ratio caps. Throws a {@link CwxError} on the first problem.
 */
export function scanArchive(buffer: Buffer, limits: Readonly<InstallLimits>): ScannedArchive {
  const zipEntries = openZip(buffer);
  if (zipEntries.length > limits.maxEntries) {
    throw new CwxError(
      'E.CWX.TOO_MANY_ENTRIES',
      `archive has ${zipEntries.length} entries; the cap is ${limits.maxEntries}`,
      {
        details: { entries: zipEntries.length, limit: limits.maxEntries },
      },
    );
  }

  const entries: ScannedEntry[] = [];
  const seen = new Map<string, string>(); // lower-cased path → path as written
  let totalBytes = 0;
  for (const zipEntry of zipEntries) {
    const name = zipEntry.entryName;
    if (name.includes('\uFFFD')) throw unsafe(name, 'name is not valid UTF-8');
    const reason = unsafeEntryReason(name);
    if (reason !== undefined) throw unsafe(name, reason);
    checkEntryType(name, zipEntry);

    const { header } = zipEntry;
    if (header.encrypted) {
      throw new CwxError('E.CWX.UNSUPPORTED_ENTRY', `entry "${name}" is encrypted`, { details: { entry: name } });
    }
    if (!zipEntry.isDirectory && header.method !== METHOD_STORED && header.method !== METHOD_DEFLATED) {
      throw new CwxError('E.CWX.UNSUPPORTED_ENTRY', `entry "${name}" uses compression method ${header.method}`, {
        details: { entry: name, method: header.method },
      });
    }

    const path = zipEntry.isDirectory ? name.slice(0, -1) : name;
    const key = path.toLowerCase();
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      throw new CwxError('E.CWX.DUPLICATE_ENTRY', `entries "${earlier}" and "${path}" resolve to the same path`, {
        details: { entry: path, other: earlier },
      });
    }
    seen.set(key, path);

    const size = zipEntry.isDirectory ? 0 : header.size;
    const compressedSize = zipEntry.isDirectory ? 0 : header.compressedSize;
    if (size >= limits.ratioMinBytes && size / Math.max(compressedSize, 1) > limits.maxEntryRatio) {
      throw new CwxError(
        'E.CWX.RATIO_EXCEEDED',
        `entry "${name}" expands ${Math.round(size / Math.max(compressedSize, 1))}× (cap ${limits.maxEntryRatio}×)`,
        { details: { entry: name, size, compressedSize, limit: limits.maxEntryRatio } },
      );
    }
    totalBytes += size;
    if (totalBytes > limits.maxTotalBytes) {
      throw new CwxError('E.CWX.TOO_LARGE', `entries expand to more than ${limits.maxTotalBytes} bytes`, {
        details: { entry: name, totalBytes, limit: limits.maxTotalBytes },
      });
    }
    entries.push({ path, isDirectory: zipEntry.isDirectory, size, compressedSize, zipEntry });
  }

  if (totalBytes >= limits.ratioMinBytes && totalBytes / Math.max(buffer.length, 1) > limits.maxTotalRatio) {
    throw new CwxError(
      'E.CWX.RATIO_EXCEEDED',
      `archive expands ${Math.round(totalBytes / buffer.length)}× (cap ${limits.maxTotalRatio}×)`,
      { details: { totalBytes, archiveBytes: buffer.length, limit: limits.maxTotalRatio } },
    );
  }

  // A file may not sit where another entry needs a directory ("a" and "a/b"), or extraction would fail half-way.
  const files = entries.filter((e) => !e.isDirectory).map((e) => e.path);
  const fileKeys = new Set(files.map((file) => file.toLowerCase()));
  for (const entry of entries) {
    const parts = entry.path.toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) {
      const key = parts.slice(0, i).join('/');
      const parent = seen.get(key);
      if (parent !== undefined && fileKeys.has(key)) {
        throw new CwxError('E.CWX.DUPLICATE_ENTRY', `file "${parent}" is also the parent of "${entry.path}"`, {
          details: { entry: entry.path, other: parent },
        });
      }
    }
  }
  return { entries, files, totalBytes };
}
