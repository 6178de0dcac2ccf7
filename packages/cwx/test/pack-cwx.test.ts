import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import AdmZip from 'adm-zip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CwxError, installCwx, listInstalled, packCwx, type PackageManifest } from '../src/index.ts';
import { testManifest } from './zip-builder.ts';

let work: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'cwx-pack-'));
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Write a package source directory: manifest, a built dist/, a resource and files that must not be packed. */
async function writePackage(dir: string, manifest: PackageManifest): Promise<void> {
  const files: Record<string, string> = {
    'manifest.json': JSON.stringify(manifest, null, 2),
    'dist/index.mjs': 'export const handlers = { echo: (ctx) => ({ value: ctx.parameters.value, done: true }) };\n',
    'dist/chunks/util.mjs': 'export const x = 1;\n',
    'assets/readme.txt': 'resource\n',
    'src/index.ts': '// source, not packed\n',
    'package.json': '{}',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

const manifest = testManifest({ resources: [{ path: 'assets', type: 'directory' }] });

describe('packCwx', () => {
  it('packs manifest.json, dist/ and declared resources, sorted, and nothing else', async () => {
    await writePackage(work, manifest);
    const packed = await packCwx(work);
    expect(packed.manifest).toEqual(manifest);
    expect(packed.size).toBe(packed.buffer.length);
    expect(packed.sha256).toBe(createHash('sha256').update(packed.buffer).digest('hex'));
    const names = new AdmZip(packed.buffer).getEntries().map((e) => e.entryName);
    expect(names).toEqual(['assets/readme.txt', 'dist/chunks/util.mjs', 'dist/index.mjs', 'manifest.json']);
  });

  it('is deterministic: same input, same sha256, whatever the file times', async () => {
    await writePackage(work, manifest);
    const first = await packCwx(work);
    await utimes(join(work, 'dist/index.mjs'), new Date('2001-01-01'), new Date('2001-01-01'));
    const second = await packCwx(work);
    expect(second.sha256).toBe(first.sha256);
    expect(second.buffer.equals(first.buffer)).toBe(true);
    // Entry times are pinned to the zip epoch, not the clock or the files' mtimes.
    const times = new AdmZip(second.buffer).getEntries().map((e) => e.header.timeval);
    expect(new Set(times)).toEqual(new Set([(1 << 21) | (1 << 16)]));
  });

  it('round trips: pack → install → listInstalled → import the entrypoint', async () => {
    const src = join(work, 'src-pkg');
    const root = join(work, 'packages');
    await writePackage(src, manifest);
    const packed = await packCwx(src);
    const installed = await installCwx(packed.buffer, root, {
      expectedSha256: packed.sha256,
      expectedSize: packed.size,
    });
    expect(await listInstalled(root)).toEqual([installed]);
    expect(installed.manifest).toEqual(manifest);
    const mod = await import(join(installed.dir, 'dist/index.mjs'));
    expect(mod.handlers.echo({ parameters: { value: 'v' } })).toEqual({ value: 'v', done: true });
  });

  it('fails with E.CWX.ENTRYPOINT_MISSING when dist/ was not built', async () => {
    await writePackage(work, manifest);
    await rm(join(work, 'dist'), { recursive: true });
    await expect(packCwx(work)).rejects.toMatchObject({ code: 'E.CWX.ENTRYPOINT_MISSING' });
  });

  it('refuses to pack a symlink', async () => {
    await writePackage(work, manifest);
    await symlink('/etc/passwd', join(work, 'dist/passwd'));
    const err = await packCwx(work).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CwxError);
    expect(err).toMatchObject({ code: 'E.CWX.UNSAFE_ENTRY', details: { entry: 'dist/passwd' } });
  });

  it('reports a missing or invalid manifest', async () => {
    await expect(packCwx(work)).rejects.toMatchObject({ code: 'E.CWX.MANIFEST_MISSING' });
    await writeFile(join(work, 'manifest.json'), JSON.stringify({ ...manifest, nodes: [] }));
    await expect(packCwx(work)).rejects.toMatchObject({
      code: 'E.CWX.MANIFEST_INVALID',
      details: { pointer: '/nodes' },
    });
  });
});
