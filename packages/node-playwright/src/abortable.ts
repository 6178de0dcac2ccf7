import { NodeError } from '@drover/sdk';
import { ABORTED_CODE } from './errors.ts';

/**
 * The error for an aborted step. The runner aborts with a coded reason (`E.RUNNER.ABORTED` on cancel,
 * `E.RUNNER.TIMEOUT` on timeout); that code is kept, anything else becomes `E.RUNNER.ABORTED`.
 */
function abortedError(signal: AbortSignal, step: string): NodeError {
  const reason: unknown = signal.reason;
  const reasonCode = (reason as { code?: unknown } | null | undefined)?.code;
  const code = typeof reasonCode === 'string' && /^E\.[A-Z]/.test(reasonCode) ? reasonCode : ABORTED_CODE;
  const why = reason instanceof Error ? reason.message : String(reason ?? 'aborted');
  return new NodeError(code, `${step} was aborted: ${why}`, { step, cause: reason });
}

/** Throw `E.RUNNER.ABORTED` (or the abort reason's code) when the attempt has been cancelled or has timed out. */
export function throwIfAborted(signal: AbortSignal, step: string): void {
  if (signal.aborted) throw abortedError(signal, step);
}

/**
 * Await `work`, but reject with `E.RUNNER.ABORTED` (or the abort reason's code) as soon as `signal` fires. The abandoned Playwright call keeps
 * running until its own timeout or until the run's context is closed; its eventual rejection is swallowed.
 */
export async function abortable<T>(signal: AbortSignal, step: string, work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  throwIfAborted(signal, step);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortedError(signal, step));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
