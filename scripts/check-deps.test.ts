import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findViolations, loadRepository, type Workspace } from './check-deps.ts';

const root = join(import.meta.dirname, '..');

describe('dependency boundaries', () => {
  it('hold for the repository', () => {
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const { files, workspaces } = loadRepository(root);
      expect(files.length).toBeGreaterThan(20);
      expect(findViolations(files, workspaces)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('catch each kind of violation', () => {
    const ws: Workspace[] = [
      { dir: 'packages/engine', name: '@drover/engine', deps: ['@drover/store'] },
      { dir: 'packages/store', name: '@drover/store', deps: ['@drover/engine'] },
      { dir: 'apps/worker', name: '@drover/worker', deps: [] },
    ];
    const problems = findViolations(
      [
        { workspace: 'packages/engine', path: 'packages/engine/src/a.ts', text: "import { x } from '@drover/store';\nimport y from '@drover/worker';" },
        { workspace: 'apps/worker', path: 'apps/worker/src/b.ts', text: "import { z } from '@drover/engine/src/graph.ts';\nimport q from '../../../packages/store/src/index.ts';" },
      ],
      ws,
    );
    expect(problems.join('\n')).toMatch(/engine must not import @drover\/store/);
    expect(problems.join('\n')).toMatch(/imports the app @drover\/worker/);
    expect(problems.join('\n')).toMatch(/deep import @drover\/engine\/src\/graph.ts/);
    expect(problems.join('\n')).toMatch(/without declaring it/);
    expect(problems.join('\n')).toMatch(/relative import .* leaves apps\/worker/);
    expect(problems.join('\n')).toMatch(/dependency cycle/);
  });
});
