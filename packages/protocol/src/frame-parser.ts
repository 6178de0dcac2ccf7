import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import type { FormatsPlugin } from 'ajv-formats';
import { commonSchema, envelopeSchema, payloadSchemas } from './generated/ws-schemas.ts';
import type { MessageType } from './generated/ws-types.ts';
import type { Frame } from './frame.ts';
import { ProtocolError } from './errors.ts';

// ajv-formats is CommonJS whose default export is awkward under NodeNext; require() gives the plugin itself.
const addFormats = createRequire(import.meta.url)('ajv-formats') as FormatsPlugin;

/** Limits applied to every inbound frame before and during parsing. */
export interface FrameLimits {
  /** Largest frame in bytes. @default 1048576 */
  maxBytes?: number;
  /** Deepest object/array nesting. @default 32 */
  maxDepth?: number;
}

/** Outcome of parsing one inbound frame. */
export type ParseResult = { ok: true; frame: Frame } | { ok: false; error: ProtocolError };

/** Build a strict Ajv instance (2020-12, no coercion, no $data, stop at the first error). */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: false, coerceTypes: false, $data: false, useDefaults: false });
  addFormats(ajv, ['uuid', 'date-time', 'uri']);
  return ajv;
}

function describe(err: ErrorObject | undefined): { pointer: string; message: string } {
  if (!err) return { pointer: '', message: 'invalid' };
  const extra =
    err.keyword === 'additionalProperties'
      ? ` (${String((err.params as { additionalProperty?: string }).additionalProperty)})`
      : err.keyword === 'enum'
        ? ` (${((err.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')})`
        : '';
  return { pointer: err.instancePath, message: `${err.instancePath || '/'} ${err.message ?? 'is invalid'}${extra}` };
}

/** Nesting depth of JSON text, counted without parsing (strings are skipped), stopping once `cap` is passed. */
export function jsonDepth(text: string, cap: number): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > cap) return max;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/**
 * Validates inbound frames: size, depth, JSON, envelope, then the payload schema of the frame's type. Compiled
 * once; one instance per process is enough.
 */
export class FrameParser {
  private readonly envelope: ValidateFunction;
  private readonly payloads: Map<string, ValidateFunction>;
  private readonly maxBytes: number;
  private readonly maxDepth: number;

  constructor(limits: FrameLimits = {}) {
    this.maxBytes = limits.maxBytes ?? 1_048_576;
    this.maxDepth = limits.maxDepth ?? 32;
    const ajv = createAjv();
    ajv.addSchema(commonSchema);
    this.envelope = ajv.compile(envelopeSchema);
    this.payloads = new Map(Object.entries(payloadSchemas).map(([type, schema]) => [type, ajv.compile(schema)]));
  }

  /** Parse and validate raw frame data (text or bytes). Never throws. */
  parse(data: string | Buffer | ArrayBuffer | Buffer[]): ParseResult {
    const buf = typeof data === 'string' ? null : Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    const bytes = buf ? buf.length : Buffer.byteLength(data as string);
    if (bytes > this.maxBytes) {
      return fail('E.WS.FRAME_TOO_LARGE', `frame is ${bytes} bytes; the limit is ${this.maxBytes}`);
    }
    const text = buf ? buf.toString('utf8') : (data as string);
    if (jsonDepth(text, this.maxDepth) > this.maxDepth) {
      return fail('E.WS.TOO_DEEP', `frame nests deeper than ${this.maxDepth} levels`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return fail('E.WS.BAD_JSON', `frame is not JSON: ${(err as Error).message}`);
    }
    const id = typeof (value as { id?: unknown })?.id === 'string' ? ((value as { id: string }).id.slice(0, 36)) : undefined;
    const type = (value as { type?: unknown })?.type;
    if (typeof value === 'object' && value !== null && typeof type === 'string' && !this.payloads.has(type)) {
      return fail('E.WS.UNKNOWN_TYPE', `unknown message type ${JSON.stringify(type.slice(0, 64))}`, { for: id, pointer: '/type' });
    }
    if (!this.envelope(value)) {
      const d = describe(this.envelope.errors?.[0]);
      return fail('E.WS.ENVELOPE_INVALID', `envelope invalid: ${d.message}`, { for: id, pointer: d.pointer });
    }
    const frame = value as Frame;
    const validate = this.payloads.get(frame.type)!;
    if (!validate(frame.payload)) {
      const d = describe(validate.errors?.[0]);
      return fail('E.WS.PAYLOAD_INVALID', `${frame.type} payload invalid: ${d.message}`, {
        for: frame.id,
        pointer: `/payload${d.pointer}`,
      });
    }
    return { ok: true, frame };
  }

  /** Validate an outbound payload (used by tests and debug builds); throws ProtocolError. */
  assertPayload(type: MessageType, payload: unknown): void {
    const validate = this.payloads.get(type);
    if (!validate) throw new ProtocolError('E.WS.UNKNOWN_TYPE', `unknown message type ${type}`);
    if (!validate(payload)) {
      const d = describe(validate.errors?.[0]);
      throw new ProtocolError('E.WS.PAYLOAD_INVALID', `${type} payload invalid: ${d.message}`, { pointer: d.pointer });
    }
  }
}

function fail(code: ProtocolError['code'], message: string, details: { pointer?: string; for?: string | undefined } = {}): ParseResult {
  const clean: { pointer?: string; for?: string } = {};
  if (details.pointer !== undefined) clean.pointer = details.pointer;
  if (details.for !== undefined) clean.for = details.for;
  return { ok: false, error: new ProtocolError(code, message, clean) };
}
