export { openStore, type Store, type StoreDialect, type StoreOptions } from './open-database.ts';
export { migrateToEmpty, migrateToLatest } from './migrate.ts';
export { migrations } from './migrations/index.ts';
export { acquireDataDirLock, lockPathFor, type DataDirLock, type LockHolder } from './pglite-lock.ts';
export { STORE_ERROR_CODES, StoreError, type StoreErrorCode } from './errors.ts';
export { jsonb } from './jsonb.ts';
export * from './schema.ts';

// Re-exported so apps need no kysely or PGlite dependency of their own.
export { Kysely, sql } from 'kysely';
export type {
  ControlledTransaction,
  Insertable,
  MigrationResult,
  RawBuilder,
  Selectable,
  Transaction,
  Updateable,
} from 'kysely';
export type { PGlite } from '@electric-sql/pglite';
