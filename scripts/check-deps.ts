// Dependency boundaries (ARCHITECTURE §1): apps → packages only; engine/protocol/cwx/sdk never touch the store;
// the worker never imports the store; no deep imports; every @drover import declared; no package cycles.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One source file to check: its workspace (e.g. `apps/worker`) and its text. */
export interface SourceFile {
  workspace: string;
  path: string;
  text: string;
}

/** A workspace's name and declared @drover dependencies. */
export interface Workspace {
  dir: string;
  name: string;
  deps: string[];
}

const FORBIDDEN: Record<string, string[]> = {
  'packages/engine': ['@drover/store'],
  'packages/protocol': ['@drover/store'],
  'packages/cwx': ['@drover/store'],
  'packages/sdk': ['@drover/store'],
  'apps/worker': ['@drover/store'],
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every violation of the boundaries in `files`, as human-readable lines. */
export function findViolations(files: SourceFile[], workspaces: Workspace[]): string[] {
  const problems: string[] = [];
  const byDir = new Map(workspaces.map((w) => [w.dir, w]));
  const byName = new Map(workspaces.map((w) => [w.name, w]));
  for (const f of files) {
    const ws = byDir.get(f.workspace);
    for (const m of f.text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2]!;
      if (spec.startsWith('@drover/')) {
        const name = spec.split('/').slice(0, 2).join('/');
        if (spec !== name) problems.push(`${f.path}: deep import ${spec} (import ${name} only)`);
        const target = byName.get(name);
        if (target?.dir.startsWith('apps/')) problems.push(`${f.path}: imports the app ${name}; apps are not libraries`);
        if (FORBIDDEN[f.workspace]?.includes(name)) problems.push(`${f.path}: ${f.workspace} must not import ${name}`);
        if (ws && name !== ws.name && !ws.deps.includes(name)) problems.push(`${f.path}: imports ${name} without declaring it in ${f.workspace}/package.json`);
      } else if (spec.startsWith('.')) {
        const to = relative('.', resolve(dirname(f.path), spec));
        const owner = [...byDir.keys()].find((d) => to === d || to.startsWith(`${d}/`));
        if (owner !== f.workspace) problems.push(`${f.path}: relative import ${spec} leaves ${f.workspace}`);
      }
    }
  }
  // Cycles between workspaces, from declared dependencies.
  const state = new Map<string, 1 | 2>();
  const visit = (w: Workspace, path: string[]): void => {
    if (state.get(w.name) === 2) return;
    if (state.get(w.name) === 1) {
      problems.push(`dependency cycle: ${[...path.slice(path.indexOf(w.name)), w.name].join(' → ')}`);
      return;
    }
    state.set(w.name, 1);
    for (const d of w.deps) {
      const t = byName.get(d);
      if (t) visit(t, [...path, w.name]);
    }
    state.set(w.name, 2);
  };
  for (const w of workspaces) visit(w, []);
  return problems;
}

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') continue;
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
}

/** Read the repository's workspaces and their `src/` files. */
export function loadRepository(root: string): { files: SourceFile[]; workspaces: Workspace[] } {
  const workspaces: Workspace[] = [];
  const files: SourceFile[] = [];
  for (const group of ['apps', 'packages']) {
    for (const entry of readdirSync(join(root, group))) {
      const dir = `${group}/${entry}`;
      const pkgFile = join(root, dir, 'package.json');
      if (!existsSync(pkgFile)) continue;
      const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { name: string; dependencies?: Record<string, string> };
      workspaces.push({ dir, name: pkg.name, deps: Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@drover/')) });
      const src = join(root, dir, 'src');
      if (!existsSync(src)) continue;
      const paths: string[] = [];
      walk(src, paths);
      for (const p of paths) files.push({ workspace: dir, path: relative(root, p), text: readFileSync(p, 'utf8') });
    }
  }
  return { files, workspaces };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  process.chdir(root);
  const { files, workspaces } = loadRepository(root);
  const problems = findViolations(files, workspaces);
  for (const p of problems) process.stderr.write(`${p}\n`);
  process.stdout.write(`check-deps: ${files.length} files in ${workspaces.length} workspaces, ${problems.length} violation(s)\n`);
  process.exit(problems.length > 0 ? 1 : 0);
}
