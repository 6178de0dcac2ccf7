import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const gen = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/gen.ts'), ...args], { cwd: root, encoding: 'utf8' });

describe('pnpm gen:check', () => {
  it('passes on the committed files and fails, naming the file, when one is stale', () => {
    expect(gen('--check').status).toBe(0);
    const file = join(root, 'packages/api/src/generated/openapi.ts');
    const original = readFileSync(file, 'utf8');
    try {
      appendFileSync(file, '\n// hand edit\n');
      const stale = gen('--check');
      expect(stale.status).toBe(1);
      expect(stale.stderr).toContain('stale: packages/api/src/generated/openapi.ts');
    } finally {
      writeFileSync(file, original);
    }
    expect(gen('--check').status).toBe(0);
  });
});
