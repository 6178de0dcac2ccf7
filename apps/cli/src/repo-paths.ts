import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Entry points of the other programs, started as child processes (apps never import each other). */
export const paths = {
  root,
  scheduler: join(root, 'apps/scheduler/src/main.ts'),
  worker: join(root, 'apps/worker/src/main.ts'),
  buildPackages: join(root, 'scripts/build-packages.ts'),
  cwxDir: join(root, 'dist/cwx'),
};
