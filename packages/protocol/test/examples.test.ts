import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FrameParser, payloadSchemas } from '../src/index.ts';

const dir = join(import.meta.dirname, '../../../schema/ws/examples');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));

describe('schema/ws/examples', () => {
  const parser = new FrameParser();

  it.each(files)('%s is a valid frame', (file) => {
    const result = parser.parse(readFileSync(join(dir, file)));
    if (!result.ok) throw result.error;
    expect(file.startsWith(result.frame.type)).toBe(true);
  });

  it('has an example for every message type', () => {
    const covered = new Set(files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).type));
    expect([...covered].sort()).toEqual(Object.keys(payloadSchemas).sort());
  });
});
