// The one list of every error code in the project, gathered from each package's and app's registry; used to
// generate docs/errors.md and by the test that keeps code, registry and docs in step.
import { PROTOCOL_ERROR_CODES } from '../packages/protocol/src/errors.ts';
import { ENGINE_ERROR_CODES } from '../packages/engine/src/errors.ts';
import { STORE_ERROR_CODES } from '../packages/store/src/errors.ts';
import { CWX_ERROR_CODES } from '../packages/cwx/src/errors.ts';
import { PLAYWRIGHT_ERROR_CODES } from '../packages/node-playwright/src/errors.ts';
import { TEST_PACKAGE_ERROR_CODES } from '../packages/testing/cwx/drover-test/src/errors.ts';
import { SCHEDULER_ERROR_CODES } from '../apps/scheduler/src/errors.ts';
import { WORKER_ERROR_CODES } from '../apps/worker/src/errors.ts';
import { BROWSER_POOL_ERROR_CODES } from '../apps/worker/src/browser-pool.ts';
import { RUN_RESOURCE_ERROR_CODES } from '../apps/worker/src/run-resources.ts';
import { CLI_ERROR_CODES } from '../apps/cli/src/cli-error.ts';

/** One registered code. */
export interface RegisteredCode {
  code: string;
  description: string;
  /** Where it is declared. */
  source: string;
  /** HTTP status when the API answers with it. */
  status?: number;
}

const plain = (source: string, table: Record<string, string>): RegisteredCode[] =>
  Object.entries(table).map(([code, description]) => ({ code, description, source }));

/** Every registry, in the order the docs list them. */
export function errorRegistries(): Array<{ title: string; codes: RegisteredCode[] }> {
  return [
    {
      title: 'Scheduler REST API (apps/scheduler)',
      codes: Object.entries(SCHEDULER_ERROR_CODES).map(([code, v]) => ({ code, description: v.description, status: v.status, source: 'apps/scheduler/src/errors.ts' })),
    },
    { title: 'Workflow definitions (packages/engine)', codes: plain('packages/engine/src/errors.ts', ENGINE_ERROR_CODES) },
    { title: 'Wire protocol (packages/protocol)', codes: plain('packages/protocol/src/errors.ts', PROTOCOL_ERROR_CODES) },
    { title: 'Storage (packages/store)', codes: plain('packages/store/src/errors.ts', STORE_ERROR_CODES) },
    { title: 'Packages, .cwx format (packages/cwx)', codes: plain('packages/cwx/src/errors.ts', CWX_ERROR_CODES) },
    { title: 'Worker runtime (apps/worker)', codes: plain('apps/worker/src/errors.ts', WORKER_ERROR_CODES) },
    { title: 'Browser pool (apps/worker)', codes: plain('apps/worker/src/browser-pool.ts', BROWSER_POOL_ERROR_CODES) },
    { title: 'Run resources (apps/worker)', codes: plain('apps/worker/src/run-resources.ts', RUN_RESOURCE_ERROR_CODES) },
    { title: 'Playwright nodes (packages/node-playwright)', codes: plain('packages/node-playwright/src/errors.ts', PLAYWRIGHT_ERROR_CODES) },
    { title: 'The drover command (apps/cli)', codes: plain('apps/cli/src/cli-error.ts', CLI_ERROR_CODES) },
    { title: 'Test package nodes (drover.test)', codes: plain('packages/testing/cwx/drover-test/src/errors.ts', TEST_PACKAGE_ERROR_CODES) },
  ];
}

/** docs/errors.md as generated from the registries. */
export function errorsMarkdown(): string {
  const lines = [
    '# Error codes',
    '',
    '<!-- DO NOT EDIT. Generated from the error registries by `pnpm gen` (scripts/error-registry.ts). -->',
    '',
    'Every error Drover reports carries one of these stable codes. Over HTTP the body is',
    '`{statusCode, code, error, message, details?}`; over WebSocket codes travel in `error`, `command.error` and',
    '`result.error` payloads (docs/comm-protocol.md). Codes never change meaning; new ones are added here first.',
    '',
  ];
  for (const { title, codes } of errorRegistries()) {
    const withStatus = codes.some((c) => c.status !== undefined);
    lines.push(`## ${title}`, '');
    lines.push(withStatus ? '| code | HTTP | meaning |' : '| code | meaning |', withStatus ? '|---|---|---|' : '|---|---|');
    for (const c of codes) {
      const desc = c.description.replace(/\|/g, '\\|');
      lines.push(withStatus ? `| \`${c.code}\` | ${c.status} | ${desc} |` : `| \`${c.code}\` | ${desc} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
