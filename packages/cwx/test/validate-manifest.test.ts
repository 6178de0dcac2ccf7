import { describe, expect, it } from 'vitest';
import { CwxError, validateManifest, type PackageManifest } from '../src/index.ts';
import { testManifest } from './zip-builder.ts';

function errorOf(fn: () => unknown): CwxError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CwxError);
    return err as CwxError;
  }
  throw new Error('expected a CwxError');
}

const clone = (m: PackageManifest): Record<string, any> => JSON.parse(JSON.stringify(m));

describe('validateManifest', () => {
  it('accepts a valid manifest and returns it', () => {
    const manifest = testManifest();
    expect(validateManifest(clone(manifest))).toEqual(manifest);
  });

  it('names the JSON pointer of a missing required property', () => {
    const m = clone(testManifest());
    delete m.nodes[0].label;
    const err = errorOf(() => validateManifest(m));
    expect(err.code).toBe('E.CWX.MANIFEST_INVALID');
    expect(err.details.pointer).toBe('/nodes/0/label');
    expect(err.message).toContain('/nodes/0/label');
  });

  it('names the pointer of an unknown property', () => {
    const m = { ...clone(testManifest()), author: 'me' };
    const err = errorOf(() => validateManifest(m));
    expect(err.details.pointer).toBe('/author');
  });

  it('names the pointer of a bad port binding path (a $ref into the workflow schema)', () => {
    const m = clone(testManifest());
    m.nodes[0].ui.outputPorts[0].binding.path = 'outputs.value';
    const err = errorOf(() => validateManifest(m));
    expect(err.details.pointer).toBe('/nodes/0/ui/outputPorts/0/binding/path');
    expect(err.details.keyword).toBe('pattern');
  });

  it('does not coerce types', () => {
    const m = clone(testManifest());
    m.nodes[0].timeoutMs = '1000';
    expect(errorOf(() => validateManifest(m)).details.pointer).toBe('/nodes/0/timeoutMs');
  });

  it('rejects a node whose adapter is not declared', () => {
    const m = clone(testManifest());
    m.nodes[0].adapter = 'other';
    const err = errorOf(() => validateManifest(m));
    expect(err.code).toBe('E.CWX.MANIFEST_INVALID');
    expect(err.details.pointer).toBe('/nodes/0/adapter');
  });

  it('rejects duplicate node types and adapter names', () => {
    const m = clone(testManifest());
    m.nodes.push({ ...m.nodes[0] });
    expect(errorOf(() => validateManifest(m)).details.pointer).toBe('/nodes/1/type');
    const a = clone(testManifest());
    a.adapters.push({ ...a.adapters[0] });
    expect(errorOf(() => validateManifest(a)).details.pointer).toBe('/adapters/1/name');
  });

  it('rejects unsafe resource paths', () => {
    const m = { ...clone(testManifest()), resources: [{ path: 'assets/../../etc', type: 'directory' }] };
    expect(errorOf(() => validateManifest(m)).details.pointer).toBe('/resources/0/path');
  });

  it('checks entrypoints and resources against a file list', () => {
    const m = { ...testManifest(), resources: [{ path: 'assets', type: 'directory' as const }] };
    expect(() => validateManifest(m, { files: ['dist/index.mjs', 'assets/logo.png'] })).not.toThrow();
    expect(errorOf(() => validateManifest(m, { files: ['assets/logo.png'] })).code).toBe('E.CWX.ENTRYPOINT_MISSING');
    expect(errorOf(() => validateManifest(m, { files: ['dist/index.mjs', 'assetsx'] })).code).toBe(
      'E.CWX.RESOURCE_MISSING',
    );
  });
});
