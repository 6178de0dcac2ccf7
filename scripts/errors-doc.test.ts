import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorRegistries, errorsMarkdown } from './error-registry.ts';

const root = join(import.meta.dirname, '..');
const CODE = /['"`](E(?:\.[A-Z][A-Z0-9_]*){2,})['"`]/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    if (e === 'node_modules' || e === 'dist' || e === 'generated') continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

describe('error codes', () => {
  const all = errorRegistries().flatMap((r) => r.codes);
  const registered = new Map<string, string>();

  it('are declared once each (or with the same meaning wherever repeated)', () => {
    for (const c of all) {
      const prev = registered.get(c.code);
      if (prev !== undefined) expect(`${c.code}: ${c.description}`).toBe(`${c.code}: ${prev}`);
      registered.set(c.code, c.description);
      expect(c.code).toMatch(/^E(\.[A-Z][A-Z0-9_]*){2,}$/);
      expect(c.description.length).toBeGreaterThan(10);
    }
  });

  it('used anywhere in apps and packages are all registered', () => {
    const used = new Set<string>();
    for (const base of ['apps', 'packages']) {
      for (const f of sources(join(root, base))) for (const m of readFileSync(f, 'utf8').matchAll(CODE)) used.add(m[1]!);
    }
    const missing = [...used].filter((c) => !registered.has(c) && !all.some((r) => r.code === c)).sort();
    expect(missing).toEqual([]);
  });

  it('are all listed in docs/errors.md, which is the generated text', () => {
    const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
    expect(doc).toBe(errorsMarkdown());
    for (const c of all) expect(doc).toContain(`\`${c.code}\``);
  });
});
