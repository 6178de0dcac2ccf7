/** A database engine the store's tests run against. */
export type TestDialect = 'pglite' | 'postgres';

/**
 * The engines to run database tests on: always PGlite, plus PostgreSQL when `DATABASE_URL` is set.
 * Use as `describe.each(testDialects())('store on %s', (dialect) => …)`.
 */
export function testDialects(): TestDialect[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}
