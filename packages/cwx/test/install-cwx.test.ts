import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CwxError,
  installCwx,
  listInstalled,
  scanInstalled,
  type InstallCwxOptions,
  type InstalledPackage,
} from '../src/index.ts';
import { buildZip, lieAboutSize, packageEntries, packageZip, testManifest, type ZipEntrySpec } from './zip-builder.ts';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cwx-install-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function installError(buffer: Buffer, options?: InstallCwxOptions): Promise<CwxError> {
  try {
    await installCwx(buffer, root, options);
  } catch (err) {
    expect(err).toBeInstanceOf(CwxError);
    return err as CwxError;
  }
  throw new Error('expected installCwx to fail');
}

/** The root holds exactly these `<name>/<version>` dirs and nothing else (no temp dirs). */
async function expectRootHolds(...versions: string[]): Promise<void> {
  const found: string[] = [];
  for (const name of await readdir(root)) {
    expect(name.startsWith('.tmp-'), `leftover temp dir ${name}`).toBe(false);
    for (const version of await readdir(join(root, name))) found.push(`${name}/${version}`);
  }
  expect(found.sort()).toEqual(versions.sort());
}

describe('installCwx', () => {
  it('installs into <root>/<name>/<version>/ with a .cwx.json record', async () => {
    const zip = packageZip();
    const installed = await installCwx(zip, root, { expectedSha256: sha256(zip), expectedSize: zip.length });
    expect(installed).toMatchObject({ name: 'acme.tools', version: '1.0.0', sha256: sha256(zip), size: zip.length });
    expect(installed.dir).toBe(join(root, 'acme.tools', '1.0.0'));
    const record = JSON.parse(await readFile(join(installed.dir, '.cwx.json'), 'utf8'));
    expect(record).toEqual({ sha256: sha256(zip), size: zip.length, installedAt: installed.installedAt });
    expect(await readFile(join(installed.dir, 'dist/index.mjs'), 'utf8')).toContain('export const handlers');
    await expectRootHolds('acme.tools/1.0.0');
  });

  it('rejects a size mismatch before anything else', async () => {
    const zip = packageZip();
    const err = await installError(zip, { expectedSize: zip.length + 1, expectedSha256: '0'.repeat(64) });
    expect(err.code).toBe('E.CWX.SIZE_MISMATCH');
    expect(err.details).toMatchObject({ size: zip.length, expectedSize: zip.length + 1 });
  });

  it('rejects a digest mismatch before parsing', async () => {
    const garbage = randomBytes(100); // not a zip: a digest check after parsing would report NOT_A_ZIP
    const err = await installError(garbage, { expectedSha256: '0'.repeat(64) });
    expect(err.code).toBe('E.CWX.DIGEST_MISMATCH');
    expect(err.details.sha256).toBe(sha256(garbage));
  });

  it('rejects something that is not a zip', async () => {
    expect((await installError(Buffer.from('hello, not a zip'))).code).toBe('E.CWX.NOT_A_ZIP');
  });

  it('rejects an archive larger than maxArchiveBytes', async () => {
    const zip = packageZip();
    const err = await installError(zip, { limits: { maxArchiveBytes: zip.length - 1 } });
    expect(err.code).toBe('E.CWX.TOO_LARGE');
  });

  const unsafeEntries: Array<[string, ZipEntrySpec, string]> = [
    ['parent traversal', { name: '../evil.js', data: 'x' }, '..'],
    ['nested traversal', { name: 'dist/../../evil.js', data: 'x' }, '..'],
    ['absolute path', { name: '/etc/evil', data: 'x' }, 'absolute'],
    ['drive letter', { name: 'C:/evil.js', data: 'x' }, 'drive letter'],
    ['backslash', { name: 'dist\\evil.js', data: 'x' }, 'backslash'],
    ['control character', { name: 'dist/ev\nil.js', data: 'x' }, 'control'],
    ['symlink', { name: 'dist/link', data: '/etc/passwd', mode: 0o120777 }, 'symbolic link'],
    ['character device', { name: 'dist/tty', data: '', mode: 0o020666 }, 'special file'],
    ['block device', { name: 'dist/sda', data: '', mode: 0o060660 }, 'special file'],
    ['fifo', { name: 'dist/pipe', data: '', mode: 0o010644 }, 'special file'],
  ];
  it.each(unsafeEntries)('rejects an unsafe entry: %s', async (_kind, entry, reason) => {
    const err = await installError(packageZip(undefined, [entry]));
    expect(err.code).toBe('E.CWX.UNSAFE_ENTRY');
    expect(err.details.entry).toBe(entry.name);
    expect(String(err.details.reason)).toContain(reason);
    await expectRootHolds();
  });

  it('refuses an archive that carries its own install record', async () => {
    const err = await installError(packageZip(undefined, [{ name: '.cwx.json', data: '{"sha256":"forged"}' }]));
    expect(err.code).toBe('E.CWX.UNSAFE_ENTRY');
    expect(err.details.reason).toBe('reserved name');
  });

  it('rejects names that collide case-insensitively and files that shadow directories', async () => {
    const caseClash = await installError(packageZip(undefined, [{ name: 'DIST/index.mjs', data: 'x' }]));
    expect(caseClash.code).toBe('E.CWX.DUPLICATE_ENTRY');
    const shadow = await installError(
      packageZip(undefined, [
        { name: 'assets', data: 'file' },
        { name: 'assets/logo.png', data: 'x' },
      ]),
    );
    expect(shadow.code).toBe('E.CWX.DUPLICATE_ENTRY');
  });

  it('caps the entry count', async () => {
    const extra = Array.from({ length: 5 }, (_, i) => ({ name: `dist/f${i}.js`, data: 'x' }));
    const err = await installError(packageZip(undefined, extra), { limits: { maxEntries: 6 } });
    expect(err.code).toBe('E.CWX.TOO_MANY_ENTRIES');
    expect(err.details).toMatchObject({ entries: 7, limit: 6 });
  });

  it('caps the total uncompressed size', async () => {
    const extra = [{ name: 'dist/blob.bin', data: randomBytes(4000) }];
    const err = await installError(packageZip(undefined, extra), { limits: { maxTotalBytes: 3000 } });
    expect(err.code).toBe('E.CWX.TOO_LARGE');
  });

  it('caps the compression ratio of one entry (zip bomb)', async () => {
    const extra = [{ name: 'dist/zeros.bin', data: Buffer.alloc(4 * 1024 * 1024) }];
    const err = await installError(packageZip(undefined, extra));
    expect(err.code).toBe('E.CWX.RATIO_EXCEEDED');
    expect(err.details.entry).toBe('dist/zeros.bin');
  });

  it('caps the compression ratio of the whole archive', async () => {
    const extra = [{ name: 'dist/zeros.bin', data: Buffer.alloc(4 * 1024 * 1024) }];
    const err = await installError(packageZip(undefined, extra), { limits: { maxEntryRatio: 1e9 } });
    expect(err.code).toBe('E.CWX.RATIO_EXCEEDED');
    expect(err.details.entry).toBeUndefined();
    expect(err.details.totalBytes).toBeGreaterThan(4 * 1024 * 1024);
  });

  it('refuses an entry that inflates beyond the size its header declares', async () => {
    const zip = lieAboutSize(
      packageZip(undefined, [{ name: 'dist/data.txt', data: 'a'.repeat(5000) }]),
      'dist/data.txt',
      10,
    );
    const err = await installError(zip);
    expect(err.code).toBe('E.CWX.ENTRY_CORRUPT');
    await expectRootHolds();
  });

  it('requires manifest.json and names the pointer of an invalid one', async () => {
    expect((await installError(buildZip([{ name: 'dist/index.mjs', data: 'x' }]))).code).toBe('E.CWX.MANIFEST_MISSING');
    const bad = { ...testManifest(), version: 'one' };
    const err = await installError(packageZip(bad));
    expect(err.code).toBe('E.CWX.MANIFEST_INVALID');
    expect(err.details.pointer).toBe('/version');
    const notJson = buildZip([
      { name: 'manifest.json', data: '{ nope' },
      { name: 'dist/index.mjs', data: 'x' },
    ]);
    expect((await installError(notJson)).code).toBe('E.CWX.MANIFEST_INVALID');
  });

  it('requires the entrypoint to be in the archive', async () => {
    const entries = packageEntries().filter((e) => e.name !== 'dist/index.mjs');
    const err = await installError(buildZip(entries));
    expect(err.code).toBe('E.CWX.ENTRYPOINT_MISSING');
    expect(err.details.entrypoint).toBe('dist/index.mjs');
  });

  it('keeps versions side by side', async () => {
    await installCwx(packageZip(), root);
    await installCwx(packageZip({ ...testManifest(), version: '1.10.0' }), root);
    await installCwx(packageZip({ ...testManifest(), version: '1.2.0' }), root);
    const listed = await listInstalled(root);
    expect(listed.map((p) => p.version)).toEqual(['1.0.0', '1.2.0', '1.10.0']);
  });

  it('is a no-op when the same version is reinstalled with the same sha256', async () => {
    const zip = packageZip();
    const first = await installCwx(zip, root, { now: () => new Date('2030-01-01T00:00:00Z') });
    const again = await installCwx(zip, root, { now: () => new Date('2031-01-01T00:00:00Z') });
    expect(again).toEqual(first);
    expect(again.installedAt).toBe('2030-01-01T00:00:00.000Z');
    await expectRootHolds('acme.tools/1.0.0');
  });

  it('refuses the same version with a different sha256 and keeps the installed one', async () => {
    const first = await installCwx(packageZip(), root);
    const other = packageZip(undefined, [{ name: 'dist/extra.js', data: 'changed' }]);
    const err = await installError(other);
    expect(err.code).toBe('E.CWX.VERSION_CONFLICT');
    expect(err.details).toMatchObject({ installedSha256: first.sha256, sha256: sha256(other) });
    expect(await listInstalled(root)).toEqual([first]);
    await expectRootHolds('acme.tools/1.0.0');
  });

  it('a failed install of v2 leaves v1 working and no temp dir', async () => {
    const v1 = await installCwx(packageZip(), root);
    const v2 = { ...testManifest(), version: '2.0.0' };
    // Fails during extraction (after the manifest checks passed), i.e. after the temp dir was created.
    const broken = lieAboutSize(
      packageZip(v2, [{ name: 'dist/late.txt', data: 'b'.repeat(5000) }]),
      'dist/late.txt',
      7,
    );
    expect((await installError(broken)).code).toBe('E.CWX.ENTRY_CORRUPT');
    await expectRootHolds('acme.tools/1.0.0');
    const listed = await listInstalled(root);
    expect(listed).toEqual([v1]);
    const mod = await import(join(listed[0]!.dir, listed[0]!.manifest.adapters[0].entrypoint));
    expect(mod.handlers.echo({ parameters: { value: 3 } })).toEqual({ value: 3 });
  });
});

describe('scanInstalled', () => {
  it('skips temp dirs and reports broken version directories as problems', async () => {
    const good: InstalledPackage = await installCwx(packageZip(), root);
    const broken = join(root, 'acme.tools', '9.9.9');
    await installCwx(packageZip({ ...testManifest(), version: '9.9.9' }), root);
    await writeFile(join(broken, '.cwx.json'), 'not json');
    await mkdtempIn(root, '.tmp-');
    const scan = await scanInstalled(root);
    expect(scan.packages).toEqual([good]);
    expect(scan.problems).toHaveLength(1);
    expect(scan.problems[0]!.dir).toBe(broken);
    expect(scan.problems[0]!.error.code).toBe('E.CWX.INSTALL_CORRUPT');
    expect(await listInstalled(root)).toEqual([good]);
  });

  it('treats a missing root as empty', async () => {
    expect(await scanInstalled(join(root, 'nope'))).toEqual({ packages: [], problems: [] });
  });
});

async function mkdtempIn(dir: string, prefix: string): Promise<string> {
  return mkdtemp(join(dir, prefix));
}
