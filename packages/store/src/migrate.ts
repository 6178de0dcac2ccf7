import { Migrator, NO_MIGRATIONS, sql, type Kysely, type MigrationResult } from 'kysely';
import { StoreError } from './errors.ts';
import { migrations } from './migrations/index.ts';

/**
 * Kysely's migrator introspects every schema of the database before it starts. A schema dropped by someone else
 * at that moment (other test files, other tenants' schemas) makes that read fail with 3F000 although nothing of
 * ours is wrong: such a failure, before any migration ran, is retried.
 */
const INTROSPECTION_RACE = '3F000';
const MAX_TRIES = 5;

function isIntrospectionRace(outcome: { error?: unknown; results?: MigrationResult[] }): boolean {
  const code = (outcome.error as { code?: unknown } | undefined)?.code;
  return code === INTROSPECTION_RACE && (outcome.results ?? []).every((r) => r.status === 'NotExecuted');
}

/** Applies every pending migration in one transaction; returns what ran (empty when already up to date). */
export async function migrateToLatest(db: Kysely<any>): Promise<readonly MigrationResult[]> {
  const migrator = await createMigrator(db);
  let outcome = await migrator.migrateToLatest();
  for (let tries = 1; tries < MAX_TRIES && isIntrospectionRace(outcome); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 25 * tries));
    outcome = await migrator.migrateToLatest();
  }
  return check(outcome, 'latest');
}

/** Reverts every migration (drops the whole schema's tables); for tests and `drover` maintenance commands. */
export async function migrateToEmpty(db: Kysely<any>): Promise<readonly MigrationResult[]> {
  const migrator = await createMigrator(db);
  return check(await migrator.migrateTo(NO_MIGRATIONS), 'empty');
}

async function createMigrator(db: Kysely<any>): Promise<Migrator> {
  // Name the schema explicitly: without it kysely treats a `kysely_migration` table in ANY schema of the
  // database (e.g. another test's) as ours and then fails to find it on the search_path.
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) {
    throw new StoreError('E.STORE.MIGRATION_FAILED', 'cannot migrate: no schema on the search_path exists');
  }
  return new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    migrationTableSchema: schema,
  });
}

function check(
  outcome: { error?: unknown; results?: MigrationResult[] },
  target: string,
): readonly MigrationResult[] {
  const results = outcome.results ?? [];
  if (outcome.error === undefined) return results;
  const failed = results.find((result) => result.status === 'Error')?.migrationName;
  const cause = outcome.error;
  const reason = cause instanceof Error ? cause.message : String(cause);
  throw new StoreError(
    'E.STORE.MIGRATION_FAILED',
    failed ? `migration ${failed} failed: ${reason}` : `migrating to ${target} failed: ${reason}`,
    { migration: failed ?? null, target },
    { cause },
  );
}
