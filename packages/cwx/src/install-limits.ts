/**
 * Caps applied to an archive before anything is extracted. They bound the disk, memory and CPU a hostile or broken
 * package can consume; real node packages are a few files and well under a megabyte.
 */
export interface InstallLimits {
  /**
   * Largest accepted archive, in bytes (checked before hashing).
   * @default 134_217_728 (128 MiB)
   */
  maxArchiveBytes: number;
  /**
   * Most entries (files and directories) in the archive.
   * @default 10_000
   */
  maxEntries: number;
  /**
   * Largest total uncompressed size of all entries, in bytes, as declared by the central directory (extraction
   * also checks that each entry inflates to exactly its declared size).
   * @default 268_435_456 (256 MiB)
   */
  maxTotalBytes: number;
  /**
   * Highest uncompressed/compressed ratio of one entry. Minified JavaScript compresses 3–10×; a zip bomb
   * thousands of times.
   * @default 100
   */
  maxEntryRatio: number;
  /**
   * Highest total uncompressed size / archive size ratio.
   * @default 50
   */
  maxTotalRatio: number;
  /**
   * Ratio caps apply only to entries (and archives) whose uncompressed size is at least this many bytes, so that
   * small, very repetitive files do not trip them.
   * @default 65_536 (64 KiB)
   */
  ratioMinBytes: number;
}

/** The defaults documented on {@link InstallLimits}. */
export const DEFAULT_INSTALL_LIMITS: Readonly<InstallLimits> = Object.freeze({
  maxArchiveBytes: 128 * 1024 * 1024,
  maxEntries: 10_000,
  maxTotalBytes: 256 * 1024 * 1024,
  maxEntryRatio: 100,
  maxTotalRatio: 50,
  ratioMinBytes: 64 * 1024,
});

/** Fill unset limits with {@link DEFAULT_INSTALL_LIMITS}. */
export function resolveInstallLimits(limits: Partial<InstallLimits> = {}): Readonly<InstallLimits> {
  const resolved = { ...DEFAULT_INSTALL_LIMITS };
  for (const key of Object.keys(resolved) as Array<keyof InstallLimits>) {
    const value = limits[key];
    if (value !== undefined) resolved[key] = value;
  }
  return Object.freeze(resolved);
}
