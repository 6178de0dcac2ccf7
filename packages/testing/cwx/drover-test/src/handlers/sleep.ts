import { NodeError, defineNode } from '@drover/sdk';

/**
 * `test.sleep`: wait `ms` milliseconds (default 100), failing as soon as the attempt is aborted (with the abort
 * reason's code, `E.RUNNER.ABORTED` by default).
 */
export const sleep = defineNode<Record<string, unknown>, { slept: number; done: true }>(async (ctx) => {
  const ms = ctx.parameters['ms'] ?? 100;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new NodeError('E.TEST.INVALID_PARAMETERS', 'parameter "ms" must be a non-negative number', {
      details: { parameter: 'ms', value: ms },
    });
  }
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      // Keep the runner's coded reason (E.RUNNER.ABORTED on cancel, E.RUNNER.TIMEOUT on timeout).
      const reasonCode = (ctx.signal.reason as { code?: unknown } | undefined)?.code;
      const code = typeof reasonCode === 'string' ? reasonCode : 'E.RUNNER.ABORTED';
      reject(
        new NodeError(code, `sleep aborted after ${Date.now() - started} ms`, {
          step: 'sleep',
          cause: ctx.signal.reason,
        }),
      );
    };
    const timer = setTimeout(() => {
      ctx.signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  return { slept: Date.now() - started, done: true };
});
