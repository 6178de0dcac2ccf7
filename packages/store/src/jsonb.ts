import type { JsonbText } from './schema.ts';

/**
 * Serialises a value for a jsonb column as JSON text. Required for array columns: node-postgres would send a
 * JS array as a Postgres array literal (`{1,2}`), which jsonb rejects or — for `[]` — reads as `{}`.
 */
export function jsonb<T>(value: T): JsonbText<T> {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('jsonb(): value has no JSON representation');
  return text as JsonbText<T>;
}
