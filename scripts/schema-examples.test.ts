import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateWorkflow } from '@drover/engine';
import { validateManifest } from '@drover/cwx';

const root = join(import.meta.dirname, '..');
const examples = (dir: string) => readdirSync(join(root, dir)).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(root, dir, f), 'utf8'))] as const);

describe('schema examples', () => {
  it.each(examples('schema/workflow/examples'))('workflow example %s is valid', (_f, doc) => {
    const r = validateWorkflow(doc);
    expect(r.ok ? [] : r.problems).toEqual([]);
  });
  it.each(examples('schema/cwx/examples'))('manifest example %s is valid', (_f, doc) => {
    expect(validateManifest(doc).name).toBe(doc.name);
  });
  it.each([['packages/node-playwright/manifest.json'], ['packages/testing/cwx/drover-test/manifest.json']])('package manifest %s is valid', (file) => {
    const doc = JSON.parse(readFileSync(join(root, file), 'utf8'));
    expect(validateManifest(doc).version).toBe(doc.version);
  });
});
