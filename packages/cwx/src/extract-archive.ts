import { mkdir, open } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { CwxError } from './errors.ts';
import type { ScannedArchive, ScannedEntry } from './scan-archive.ts';

/**
 * Inflate one scanned file entry. adm-zip caps inflation at the declared size and checks the CRC; this also
 * insists that the output is exactly the declared size, so the pre-scan's size accounting cannot be lied to.
 */
export function inflateEntry(entry: ScannedEntry): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const fail = (cause: unknown) =>
      reject(
        new CwxError('E.CWX.ENTRY_CORRUPT', `entry "${entry.path}" is corrupt: ${String(cause)}`, {
          details: { entry: entry.path, declaredSize: entry.size },
          cause,
        }),
      );
    try {
      entry.zipEntry.getDataAsync((data, err) => {
        if (err !== undefined && err !== null) return fail(err);
        if (data.length !== entry.size) return fail(`inflated to ${data.length} bytes, header declares ${entry.size}`);
        resolvePromise(data);
      });
    } catch (cause) {
      fail(cause instanceof Error ? cause.message : cause);
    }
  });
}

/**
 * Write every entry of a pre-scanned archive under `targetDir` (which must be a fresh, empty directory). Files are
 * created exclusively with mode 0644 and synced, whatever modes the archive records.
 */
export async function extractArchive(archive: ScannedArchive, targetDir: string): Promise<void> {
  const root = resolve(targetDir);
  const inside = (path: string): string => {
    const target = resolve(root, path);
    // Defence in depth: names were already checked by the pre-scan.
    if (!target.startsWith(root + sep)) {
      throw new CwxError('E.CWX.UNSAFE_ENTRY', `entry "${path}" escapes the target directory`, {
        details: { entry: path },
      });
    }
    return target;
  };
  for (const entry of archive.entries) {
    const target = inside(entry.path);
    if (entry.isDirectory) {
      await mkdir(target, { recursive: true, mode: 0o755 });
      continue;
    }
    const data = await inflateEntry(entry);
    await mkdir(dirname(target), { recursive: true, mode: 0o755 });
    const handle = await open(target, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
