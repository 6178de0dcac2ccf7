import { defineHandlers } from '@drover/sdk';
import { echo } from './handlers/echo.ts';
import { fail } from './handlers/fail.ts';
import { noop } from './handlers/noop.ts';
import { sleep } from './handlers/sleep.ts';

/** The `test` adapter's handlers, keyed by the manifest's `handler` names. */
export const handlers = defineHandlers({ noop, sleep, echo, fail });
