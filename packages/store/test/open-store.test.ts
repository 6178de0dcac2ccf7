import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockPathFor, openStore, sql, StoreError, type StoreOptions } from '../src/index.ts';

async function openError(options: StoreOptions): Promise<StoreError> {
  const error = await openStore(options).then(
    async (store) => {
      await store.close();
      throw new Error('openStore unexpectedly succeeded');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

describe('openStore', () => {
  it.each<[string, StoreOptions, RegExp]>([
    ['a non-postgres URL', { url: 'mysql://localhost/db' }, /postgres:\/\//],
    ['a malformed URL', { url: 'not a url' }, /not a valid URL/],
    ['both url and dataDir', { url: 'postgres://localhost/db', dataDir: '/tmp/x' }, /not both/],
    ['an unsupported dataDir scheme', { dataDir: 'idb://drover' }, /directory path or 'memory:\/\/'/],
    ['a schema name that is not a plain identifier', { url: 'postgres://localhost/db', searchPath: 'a; drop table runs' }, /plain schema name/],
    ['a zero pool size', { url: 'postgres://localhost/db', maxConnections: 0 }, /positive integer/],
  ])('rejects %s with E.STORE.BAD_OPTIONS', async (_, options, message) => {
    const error = await openError(options);
    expect(error.code).toBe('E.STORE.BAD_OPTIONS');
    expect(error.message).toMatch(message);
  });

  it('reports an unreachable server as E.STORE.CONNECT_FAILED without its password', async () => {
    const error = await openError({ url: 'postgres://drover:s3cret@127.0.0.1:1/drover' });
    expect(error.code).toBe('E.STORE.CONNECT_FAILED');
    expect(error.message).toContain('127.0.0.1:1');
    expect(error.message).not.toContain('s3cret');
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('reports a data directory that cannot be opened as E.STORE.CONNECT_FAILED and frees its lock', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'drover-open-'));
    try {
      const dataDir = path.join(parent, 'data');
      await writeFile(dataDir, 'not a directory');
      const error = await openError({ dataDir });
      expect(error.code).toBe('E.STORE.CONNECT_FAILED');
      expect(error.message).toContain(dataDir);
      expect(error.message).toContain('ErrnoError');
      expect(existsSync(lockPathFor(dataDir))).toBe(false);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('puts the tables in the searchPath schema on PGlite', async () => {
    const store = await openStore({ dataDir: 'memory://', searchPath: 'drover' });
    try {
      const { rows } = await sql<{ schema: string }>`select table_schema as schema from information_schema.tables where table_name = 'runs'`.execute(store.db);
      expect(rows).toEqual([{ schema: 'drover' }]);
      await store.db.insertInto('runs').values({ workflow_id: crypto.randomUUID(), workflow: {}, status: 'queued' }).execute();
    } finally {
      await store.close();
    }
  });
});
