import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../../schema/ws');
const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json'));

/** Free-form objects by design: node parameters/results, error details, feedback data. */
const OPEN = new Set(['/properties/parameters', '/properties/results', '/properties/data', '/$defs/errorInfo/properties/details', '/properties/payload']);

function walk(node: unknown, pointer: string, visit: (n: Record<string, unknown>, p: string) => void): void {
  if (typeof node !== 'object' || node === null) return;
  if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${pointer}/${i}`, visit));
  visit(node as Record<string, unknown>, pointer);
  for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${k}`, visit);
}

describe('schema/ws contract rules', () => {
  it.each(files)('%s: closed objects, bounded strings, 2020-12', (file) => {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`https://drover.dev/schema/ws/${file}`);
    const problems: string[] = [];
    walk(schema, '', (n, p) => {
      if (n.type === 'object' && n.additionalProperties !== false && !OPEN.has(p) && !(typeof n.additionalProperties === 'object')) {
        problems.push(`${p}: object is not closed`);
      }
      if (n.type === 'string' && n.maxLength === undefined && n.enum === undefined && n.const === undefined) {
        problems.push(`${p}: string without maxLength`);
      }
    });
    expect(problems).toEqual([]);
  });
});
