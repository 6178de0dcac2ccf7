import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { installCwx, listInstalled } from '@drover/cwx';
import { CliError } from '../cli-error.ts';

/** `drover pkg install <file.cwx>…`: verify and install each file; stops at the first failure. */
export async function pkgInstall(files: string[], packagesDir: string, json: boolean): Promise<number> {
  if (files.length === 0) throw new CliError('pkg install needs at least one .cwx file');
  const done = [];
  for (const file of files) {
    const pkg = await installCwx(await readFile(resolve(file)), resolve(packagesDir));
    done.push({ name: pkg.name, version: pkg.version, sha256: pkg.sha256, dir: pkg.dir });
    if (!json) process.stdout.write(`installed ${pkg.name}@${pkg.version} (sha256 ${pkg.sha256}) in ${pkg.dir}\n`);
  }
  if (json) process.stdout.write(`${JSON.stringify(done, null, 2)}\n`);
  return 0;
}

/** `drover pkg list`. */
export async function pkgList(packagesDir: string, json: boolean): Promise<number> {
  const pkgs = await listInstalled(resolve(packagesDir));
  if (json) {
    process.stdout.write(`${JSON.stringify(pkgs.map((p) => ({ name: p.name, version: p.version, sha256: p.sha256, nodes: p.manifest.nodes.map((n) => n.type) })), null, 2)}\n`);
  } else if (pkgs.length === 0) {
    process.stdout.write(`no packages in ${resolve(packagesDir)}\n`);
  } else {
    for (const p of pkgs) process.stdout.write(`${p.name}@${p.version}  ${p.manifest.nodes.map((n) => n.type).join(', ')}\n`);
  }
  return 0;
}
