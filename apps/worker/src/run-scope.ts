import type { Logger } from 'pino';
import type { BrowserAccess, RunResources } from '@drover/sdk';
import type { BrowserPool } from './browser-pool.ts';
import type { RunResourceTable } from './run-resources.ts';
import type { RunScope } from './runner.ts';
import { WorkerError } from './errors.ts';

/** The worker's RunScope: per-run browser contexts from the pool and per-run resource tables. */
export function createRunScope(resources: RunResourceTable, browsers: BrowserPool | undefined, log: Logger): RunScope {
  const noBrowser: BrowserAccess = {
    context: () => Promise.reject(new WorkerError('E.WORKER.NO_BROWSER', 'this worker has no browser (no Playwright package loaded)')),
    newPage: () => Promise.reject(new WorkerError('E.WORKER.NO_BROWSER', 'this worker has no browser (no Playwright package loaded)')),
  };
  return {
    browser: (runId) => browsers?.forRun(runId) ?? noBrowser,
    resources: (runId): RunResources => resources.forRun(runId),
    async release(runId) {
      await resources.releaseRun(runId);
      await browsers?.releaseRun(runId);
      log.debug({ runId }, 'released run scope');
    },
  };
}
