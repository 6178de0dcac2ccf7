import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FrameParser, jsonDepth } from '../src/index.ts';

const example = JSON.parse(readFileSync(join(import.meta.dirname, '../../../schema/ws/examples/heartbeat.json'), 'utf8'));

function code(parser: FrameParser, data: string | Buffer): string {
  const r = parser.parse(data);
  return r.ok ? 'ok' : r.error.code;
}

describe('FrameParser', () => {
  const parser = new FrameParser({ maxBytes: 4096, maxDepth: 8 });

  it('accepts a valid frame', () => {
    expect(code(parser, JSON.stringify(example))).toBe('ok');
    expect(code(parser, Buffer.from(JSON.stringify(example)))).toBe('ok');
  });

  it('refuses each kind of bad frame with its own code', () => {
    expect(code(parser, '{"type":')).toBe('E.WS.BAD_JSON');
    expect(code(parser, JSON.stringify({ ...example, payload: { ...example.payload, pad: 'x'.repeat(5000) } }))).toBe('E.WS.FRAME_TOO_LARGE');
    expect(code(parser, '[[[[[[[[[[[[1]]]]]]]]]]]]')).toBe('E.WS.TOO_DEEP');
    expect(code(parser, JSON.stringify({ ...example, type: 'bogus' }))).toBe('E.WS.UNKNOWN_TYPE');
    expect(code(parser, JSON.stringify({ ...example, extra: 1 }))).toBe('E.WS.ENVELOPE_INVALID');
    expect(code(parser, JSON.stringify({ ...example, id: 'not-a-uuid' }))).toBe('E.WS.ENVELOPE_INVALID');
    expect(code(parser, JSON.stringify({ ...example, payload: { state: 'idle' } }))).toBe('E.WS.PAYLOAD_INVALID');
    expect(code(parser, JSON.stringify({ ...example, payload: { state: 'idle', running: '1' } }))).toBe('E.WS.PAYLOAD_INVALID');
    expect(code(parser, '"just a string"')).toBe('E.WS.ENVELOPE_INVALID');
  });

  it('names the offending pointer and the refused frame id', () => {
    const r = parser.parse(JSON.stringify({ ...example, payload: { state: 'sleeping', running: 0 } }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.details.pointer).toBe('/payload/state');
    expect(r.error.details.for).toBe(example.id);
  });

  it('counts depth outside strings only', () => {
    expect(jsonDepth('{"a":"[[[[[[[["}', 8)).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[["}', 8)).toBe(1);
    expect(jsonDepth('[[{"a":[]}]]', 8)).toBe(4);
  });
});
