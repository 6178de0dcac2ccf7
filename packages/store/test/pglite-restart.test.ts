import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonb, openStore } from '../src/index.ts';

describe('a PGlite store on disk', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'drover-restart-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('keeps its data across close and reopen', async () => {
    const dataDir = path.join(parent, 'nested', 'data'); // created on first open
    const first = await openStore({ dataDir });
    const written = await first.db
      .insertInto('runs')
      .values({ workflow_id: crypto.randomUUID(), workflow: { nodes: [{ id: 'n1' }] }, inputs: { url: 'https://example.test' }, status: 'succeeded', finished_at: new Date('2024-05-01T10:00:00.5Z') })
      .returningAll()
      .executeTakeFirstOrThrow();
    await first.db.insertInto('workers').values({ id: 'w1', status: 'offline', packages: jsonb([{ name: 'pw', version: '1.0.0' }]) }).execute();
    await first.close();
    await first.close(); // idempotent

    const second = await openStore({ dataDir });
    try {
      const read = await second.db.selectFrom('runs').selectAll().where('id', '=', written.id).executeTakeFirstOrThrow();
      expect(read).toEqual(written);
      const worker = await second.db.selectFrom('workers').select('packages').where('id', '=', 'w1').executeTakeFirstOrThrow();
      expect(worker.packages).toEqual([{ name: 'pw', version: '1.0.0' }]);
    } finally {
      await second.close();
    }
  });
});
