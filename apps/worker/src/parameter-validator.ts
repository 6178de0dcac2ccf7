import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import type { FormatsPlugin } from 'ajv-formats';
import { WorkerError } from './errors.ts';

const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;

/** Checks a node's parameters against its manifest `schema.parameters`, filling in defaults. */
export type ParameterCheck = (parameters: Record<string, unknown>) => void;

function describe(err: ErrorObject | undefined): string {
  if (!err) return 'parameters are invalid';
  const at = `parameters${err.instancePath.replace(/\//g, '.')}`;
  if (err.keyword === 'additionalProperties') return `${at} has an unknown parameter "${String((err.params as { additionalProperty?: string }).additionalProperty)}"`;
  if (err.keyword === 'required') return `${at} is missing "${String((err.params as { missingProperty?: string }).missingProperty)}"`;
  return `${at} ${err.message ?? 'is invalid'}`;
}

/**
 * Compiles the parameter schemas of installed packages once, at load time. Package schemas are authored by third
 * parties, so Ajv runs non-strict (unknown keywords such as UI hints are ignored) but never coerces types.
 */
export class ParameterValidators {
  private readonly ajv: Ajv2020;

  constructor() {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, useDefaults: true, $data: false, validateSchema: true });
    addFormats(this.ajv);
  }

  /** A check for `schema`, or undefined when the node declares none. Throws for a schema Ajv cannot compile. */
  compile(schema: Record<string, unknown> | undefined): ParameterCheck | undefined {
    if (!schema || Object.keys(schema).length === 0) return undefined;
    const validate = this.ajv.compile(schema);
    return (parameters) => {
      if (!validate(parameters)) throw new WorkerError('E.RUNNER.INVALID_PARAMETERS', describe(validate.errors?.[0]));
    };
  }
}
