#!/bin/sh
# Worker container start: install every .cwx built into the image (dist/cwx) into the packages directory, then exec
# the worker. A package already installed with the same sha256 is left as it is; one of the same name@version but
# another sha256 (from an older image) is replaced, since the image is the source of truth for its own packages.
set -eu
cd /app

packages_dir="${DROVER_PACKAGES_DIR:-${DROVER_WORKER_DATA_DIR:-.drover/worker}/packages}"

node --import tsx --input-type=module -e '
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { installCwx, isCwxError } from "@drover/cwx";

const [dir, ...files] = process.argv.slice(1);
for (const file of files) {
  const archive = await readFile(file);
  let pkg;
  try {
    pkg = await installCwx(archive, dir);
  } catch (err) {
    if (!isCwxError(err) || err.code !== "E.CWX.VERSION_CONFLICT") throw err;
    const { name, version } = err.details;
    process.stderr.write(`worker-entrypoint: replacing ${name}@${version} (installed from another build)\n`);
    await rm(join(dir, String(name), String(version)), { recursive: true, force: true });
    pkg = await installCwx(archive, dir);
  }
  process.stdout.write(`worker-entrypoint: ${pkg.name}@${pkg.version} sha256 ${pkg.sha256.slice(0, 16)} in ${pkg.dir}\n`);
}
' "$packages_dir" dist/cwx/*.cwx

exec node --import tsx apps/worker/src/main.ts
