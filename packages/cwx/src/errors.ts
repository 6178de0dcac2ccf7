/**
 * Every error code of the .cwx format, with a one-line description. The single registry: `docs/errors.md` is kept
 * in step with it by a test.
 */
export const CWX_ERROR_CODES = {
  'E.CWX.NOT_A_ZIP': 'The package is not a readable zip archive.',
  'E.CWX.SIZE_MISMATCH': 'The package has a different byte size than expected.',
  'E.CWX.DIGEST_MISMATCH': 'The package sha256 differs from the expected digest.',
  'E.CWX.TOO_LARGE': 'The archive, or the total uncompressed size of its entries, exceeds the configured cap.',
  'E.CWX.TOO_MANY_ENTRIES': 'The archive has more entries than the configured cap.',
  'E.CWX.RATIO_EXCEEDED': 'An entry, or the whole archive, expands beyond the allowed compression ratio.',
  'E.CWX.UNSAFE_ENTRY':
    'An entry name or type is unsafe: `..`, absolute path, drive letter, backslash, control character, symlink or device.',
  'E.CWX.DUPLICATE_ENTRY':
    'Two entries resolve to the same path (also case-insensitively), or a file shadows a directory.',
  'E.CWX.UNSUPPORTED_ENTRY': 'An entry is encrypted or uses a compression method other than stored or deflate.',
  'E.CWX.ENTRY_CORRUPT': 'An entry fails its CRC check or inflates to a size other than the one its header declares.',
  'E.CWX.MANIFEST_MISSING': 'The package has no `manifest.json` at its root.',
  'E.CWX.MANIFEST_INVALID': '`manifest.json` is not valid JSON, breaks the manifest schema or is inconsistent.',
  'E.CWX.ENTRYPOINT_MISSING': 'An adapter entrypoint named by the manifest is not in the package.',
  'E.CWX.RESOURCE_MISSING': 'A resource declared by the manifest is not in the package.',
  'E.CWX.VERSION_CONFLICT': 'The same name and version is already installed with a different sha256.',
  'E.CWX.INSTALL_CORRUPT': 'An installed package directory is incomplete or does not match its recorded metadata.',
  'E.CWX.IO_FAILED': 'Reading or writing package files failed.',
} as const satisfies Readonly<Record<`E.CWX.${string}`, string>>;

/** A stable `.cwx` error code. */
export type CwxErrorCode = keyof typeof CWX_ERROR_CODES;

/** The one error class of this package: a stable code, details for operators and the wrapped cause. */
export class CwxError extends Error {
  override readonly name = 'CwxError';
  /** Extra data for operators (the offending entry, pointer, limit…). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    /** Stable code from {@link CWX_ERROR_CODES}. */
    readonly code: CwxErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = Object.freeze({ ...options.details });
  }
}

/** True for a CwxError (matched by name and code so a second copy of this package is recognised too). */
export function isCwxError(err: unknown): err is CwxError {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { name?: unknown }).name === 'CwxError' &&
    typeof (err as { code?: unknown }).code === 'string'
  );
}
