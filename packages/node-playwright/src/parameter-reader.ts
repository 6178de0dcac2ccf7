import { playwrightError } from './errors.ts';

/** Longest timeout a Playwright step accepts, in ms (matches the manifest schemas). */
export const MAX_TIMEOUT_MS = 600_000;

function invalid(name: string, expected: string, value: unknown): Error {
  return playwrightError('E.PW.INVALID_PARAMETERS', `parameter "${name}" must be ${expected}`, {
    details: { parameter: name, value },
  });
}

/**
 * Typed reads of a node's resolved parameters with the manifest's defaults. The scheduler validates against the
 * manifest schema too; these checks keep the handlers safe when it did not (e.g. a value bound from a port).
 */
export class ParameterReader {
  constructor(private readonly params: Record<string, unknown>) {}

  /** A non-empty string that must be present. */
  requiredString(name: string): string {
    const value = this.params[name];
    if (typeof value !== 'string' || value === '') throw invalid(name, 'a non-empty string', value);
    return value;
  }

  /** A non-empty string, or undefined when absent. */
  optionalString(name: string): string | undefined {
    const value = this.params[name];
    return value === undefined || value === null ? undefined : this.requiredString(name);
  }

  /** A string that must be present (may be empty); numbers and booleans are converted. */
  requiredText(name: string): string {
    const value = this.params[name];
    if (value === undefined || value === null) throw invalid(name, 'present', value);
    return this.text(name, '');
  }

  /** A string (numbers and booleans are converted, since bound values are often scalars), or `fallback`. */
  text(name: string, fallback: string): string {
    const value = this.params[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw invalid(name, 'a string', value);
  }

  /** A boolean, or `fallback`. */
  flag(name: string, fallback: boolean): boolean {
    const value = this.params[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') throw invalid(name, 'a boolean', value);
    return value;
  }

  /** One of `allowed`, or `fallback`. */
  choice<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.params[name];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      throw invalid(name, `one of ${allowed.join(', ')}`, value);
    }
    return value as T;
  }

  /** `timeoutMs`: a positive integer of at most {@link MAX_TIMEOUT_MS}, or `fallback`. */
  timeoutMs(fallback: number): number {
    const value = this.params['timeoutMs'];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
      throw invalid('timeoutMs', `an integer between 1 and ${MAX_TIMEOUT_MS}`, value);
    }
    return value;
  }
}
