/** Every store error code, with the one-line meaning that docs/errors.md repeats. */
export const STORE_ERROR_CODES = {
  'E.STORE.DATA_DIR_LOCKED': 'Another live Drover process holds the lock on this PGlite data directory.',
  'E.STORE.MIGRATION_FAILED': 'A schema migration failed; every migration of that attempt was rolled back.',
  'E.STORE.CONNECT_FAILED': 'The database could not be opened or reached (PostgreSQL URL or PGlite data directory).',
  'E.STORE.BAD_OPTIONS': 'The store options are invalid (e.g. an unsupported URL scheme or schema name).',
} as const;

/** A store error code. */
export type StoreErrorCode = keyof typeof STORE_ERROR_CODES;

/** An error opening, locking or migrating the database; `cause` holds the driver error when one is wrapped. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
