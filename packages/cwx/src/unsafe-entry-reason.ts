/** Longest entry name accepted, in UTF-8 bytes; deeper trees than this are not real packages. */
export const MAX_ENTRY_NAME_BYTES = 512;

/**
 * Why a relative path taken from a package (a zip entry name or a manifest path) is unsafe to join onto a
 * directory, or `undefined` when it is a plain forward-slash relative path. A trailing `/` (directory entry) is
 * allowed; everything else must be canonical so that one name maps to exactly one file.
 */
export function unsafeEntryReason(name: string): string | undefined {
  if (name === '' || name === '/') return 'empty name';
  if (Buffer.byteLength(name, 'utf8') > MAX_ENTRY_NAME_BYTES) return `name longer than ${MAX_ENTRY_NAME_BYTES} bytes`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control character in name';
  if (name.includes('\\')) return 'backslash in name';
  if (name.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'drive letter';
  if (name.includes(':')) return 'colon in name (alternate data stream or drive)';
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  for (const segment of segments) {
    if (segment === '..') return 'parent directory segment `..`';
    if (segment === '.') return 'current directory segment `.`';
    if (segment === '') return 'empty path segment';
  }
  return undefined;
}
