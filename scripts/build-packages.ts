// Builds the repository's node packages: esbuild bundle → dist/index.mjs, then packCwx → dist/cwx/<name>-<version>.cwx.
// Run with `pnpm build:packages`; tests call buildNodePackages() directly.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
// Relative import: the workspace root does not depend on @drover/cwx (scripts are not a workspace package).
import { packCwx } from '@drover/cwx';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Node package source directories, each with a `manifest.json` and `src/index.ts`. */
export const NODE_PACKAGE_DIRS: readonly string[] = [
  join(repoRoot, 'packages/node-playwright'),
  join(repoRoot, 'packages/testing/cwx/drover-test'),
];

/** Where the built `.cwx` files go. */
export const CWX_OUT_DIR = join(repoRoot, 'dist/cwx');

/** One built package. */
export interface BuiltNodePackage {
  name: string;
  version: string;
  /** Absolute path of the `.cwx` file. */
  file: string;
  sha256: string;
  size: number;
}

/**
 * Resolve `@drover/sdk` to its source for every package, so packages outside the pnpm workspace (the test
 * package) bundle the same SDK as workspace ones.
 */
const workspaceSdk: Plugin = {
  name: 'drover-workspace-sdk',
  setup(b) {
    b.onResolve({ filter: /^@drover\/sdk$/ }, () => ({ path: join(repoRoot, 'packages/sdk/src/index.ts') }));
  },
};

/** Replace `file` only when its content changed; write-then-rename so a concurrent reader never sees half a file. */
async function writeIfChanged(file: string, content: Uint8Array, scratchDir: string): Promise<void> {
  const current = await readFile(file).catch(() => undefined);
  if (current !== undefined && Buffer.compare(current, content) === 0) return;
  await mkdir(dirname(file), { recursive: true });
  const scratch = join(scratchDir, `.${relative(scratchDir, file).replace(/[\\/]/g, '_')}.${process.pid}.tmp`);
  await writeFile(scratch, content);
  await rename(scratch, file);
}

/** Bundle one package's `src/index.ts` into `dist/index.mjs` (SDK inlined, Playwright never bundled). */
async function bundle(dir: string): Promise<void> {
  const result = await build({
    entryPoints: [join(dir, 'src/index.ts')],
    outfile: join(dir, 'dist/index.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Handlers only use Playwright objects handed to them by the worker; a runtime import would be a bug.
    external: ['playwright-core', 'playwright'],
    plugins: [workspaceSdk],
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  for (const out of result.outputFiles) await writeIfChanged(out.path, out.contents, dir);
}

/** Build every node package into `dist/cwx/<name>-<version>.cwx` and describe the results. */
export async function buildNodePackages(): Promise<BuiltNodePackage[]> {
  await mkdir(CWX_OUT_DIR, { recursive: true });
  const built: BuiltNodePackage[] = [];
  for (const dir of NODE_PACKAGE_DIRS) {
    await bundle(dir);
    const packed = await packCwx(dir);
    const file = join(CWX_OUT_DIR, `${packed.manifest.name}-${packed.manifest.version}.cwx`);
    await writeIfChanged(file, packed.buffer, CWX_OUT_DIR);
    built.push({
      name: packed.manifest.name,
      version: packed.manifest.version,
      file,
      sha256: packed.sha256,
      size: packed.size,
    });
  }
  return built;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  for (const pkg of await buildNodePackages()) {
    process.stdout.write(`${pkg.name}@${pkg.version}  ${pkg.sha256}  ${pkg.size} B  ${relative(repoRoot, pkg.file)}\n`);
  }
  process.stdout.write(`built in ${Date.now() - started} ms\n`);
}
