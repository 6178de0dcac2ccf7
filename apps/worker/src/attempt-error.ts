import { isNodeError } from '@drover/sdk';
import type { ErrorInfo } from '@drover/protocol';
import { WorkerError } from './errors.ts';

const CODE = /^E(\.[A-Z][A-Z0-9_]*)+$/;

/** Turn whatever a handler threw into the `error` of a failed result: stable code, message, step, details. */
export function attemptError(err: unknown): ErrorInfo {
  if (isNodeError(err)) {
    const info: ErrorInfo = { code: CODE.test(err.code) ? err.code : 'E.RUNNER.FAILURE', message: clip(err.message) };
    if (err.step) info.step = clip(err.step, 500);
    if (err.details) info.details = jsonSafe(err.details);
    return info;
  }
  if (err instanceof WorkerError) return { code: err.code, message: clip(err.message) };
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'E.RUNNER.FAILURE', message: clip(message || 'handler failed') };
}

function clip(s: string, max = 4000): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function jsonSafe(value: Record<string, unknown>): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  } catch {
    return { note: 'details were not JSON-serialisable' };
  }
}
