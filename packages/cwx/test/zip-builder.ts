// Builds real zip archives for the .cwx tests, including hostile ones adm-zip would normally sanitise.
import AdmZip from 'adm-zip';
import type { PackageManifest } from '../src/index.ts';

/** One entry of a test archive. `name` is written verbatim (no sanitising), `mode` is the full Unix st_mode. */
export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  mode?: number;
}

/** Zip the entries in the given order, with names and modes exactly as specified. */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const zip = new AdmZip();
  entries.forEach((spec, i) => {
    // Add under a harmless placeholder name, then overwrite the raw name: addFile would normalise `../x`.
    const entry = zip.addFile(
      spec.name.endsWith('/') ? `placeholder-${i}/` : `placeholder-${i}`,
      Buffer.from(spec.data ?? ''),
    );
    entry.entryName = spec.name;
    if (spec.mode !== undefined) entry.attr = (spec.mode << 16) >>> 0;
  });
  return zip.toBuffer();
}

/** A valid manifest with one `node` adapter at `dist/index.mjs` and one node type. */
export function testManifest(overrides: Partial<PackageManifest> = {}): PackageManifest {
  return {
    name: 'acme.tools',
    version: '1.0.0',
    schemaVersion: '1.0.0',
    adapters: [{ name: 'tools', runtime: 'node', entrypoint: 'dist/index.mjs' }],
    nodes: [
      {
        type: 'acme.echo',
        adapter: 'tools',
        handler: 'echo',
        label: 'Echo',
        schema: { parameters: { type: 'object' }, results: { type: 'object' } },
        ui: {
          inputPorts: [{ key: 'value', binding: { path: 'parameters.value' } }],
          outputPorts: [{ key: 'value', binding: { path: 'results.value' } }],
        },
      },
    ],
    ...overrides,
  };
}

/** Entries of a minimal valid package, plus any extra entries. */
export function packageEntries(manifest: PackageManifest = testManifest(), extra: ZipEntrySpec[] = []): ZipEntrySpec[] {
  return [
    { name: 'manifest.json', data: JSON.stringify(manifest) },
    { name: 'dist/index.mjs', data: `export const handlers = { echo: (ctx) => ({ value: ctx.parameters.value }) };\n` },
    ...extra,
  ];
}

/** A minimal valid package archive. */
export function packageZip(manifest?: PackageManifest, extra?: ZipEntrySpec[]): Buffer {
  return buildZip(packageEntries(manifest, extra));
}

/** Overwrite the uncompressed size the central directory declares for the entry named `name`. */
export function lieAboutSize(zip: Buffer, name: string, declaredSize: number): Buffer {
  const out = Buffer.from(zip);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]); // central directory file header
  for (let at = out.indexOf(signature); at !== -1; at = out.indexOf(signature, at + 4)) {
    const nameLength = out.readUInt16LE(at + 28);
    if (out.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      out.writeUInt32LE(declaredSize, at + 24);
      return out;
    }
  }
  throw new Error(`no central directory entry named ${name}`);
}
