// Codegen: schema/** and docs/api/v1/openapi.yaml → committed TypeScript under packages/*/src/generated/.
// `pnpm gen` writes the files; `pnpm gen:check` fails (exit 1) when any committed file is stale.
import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileFromFile } from 'json-schema-to-typescript';
import openapiTS, { astToString } from 'openapi-typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const banner = (source: string) =>
  `// DO NOT EDIT. Generated from ${source} by \`pnpm gen\` (scripts/gen.ts).\n` +
  `// \`pnpm gen:check\` (part of the test command) fails when this file is stale.\n`;

const jsttOptions = {
  bannerComment: '',
  additionalProperties: false,
  strictIndexSignatures: false,
  unknownAny: true,
  maxItems: -1,
  format: true,
  style: { singleQuote: true, printWidth: 120 },
} as const;

/** Compile several schema files into one module, keeping each shared declaration once. */
async function compileSchemas(files: string[], cwd: string): Promise<string> {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const file of files) {
    const ts = await compileFromFile(file, { ...jsttOptions, cwd });
    // Split into top-level declarations (each starts at column 0 with `export` or a doc comment).
    const blocks = ts.split(/\n(?=(?:\/\*\*|export ))/);
    let pendingDoc = '';
    for (const raw of blocks) {
      const block = raw.trim();
      if (block === '') continue;
      if (block.startsWith('/**') && !/\*\/\s*\nexport /.test(block)) {
        pendingDoc = block + '\n';
        continue;
      }
      const full = pendingDoc + block;
      pendingDoc = '';
      const name = /export (?:interface|type) (\w+)/.exec(block)?.[1];
      if (!name) throw new Error(`gen: unexpected output in ${file}: ${block.slice(0, 80)}`);
      const prev = seen.get(name);
      if (prev !== undefined) {
        if (prev !== full) throw new Error(`gen: ${name} is declared differently by two schemas (last: ${file})`);
        continue;
      }
      seen.set(name, full);
      out.push(full);
    }
  }
  return out.join('\n\n') + '\n';
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Emit a module that embeds schema objects, so validators compile without reading files at run time. */
function embedSchemas(entries: Array<[string, string]>): string {
  return (
    entries
      .map(([name, file]) => `export const ${name} = ${JSON.stringify(readJson(file), null, 2)} as const;`)
      .join('\n\n') + '\n'
  );
}

const wsDir = join(root, 'schema/ws');
const wsMessageFiles = readdirSync(wsDir)
  .filter((f) => f.endsWith('.schema.json') && !['envelope.schema.json', 'common.schema.json'].includes(f))
  .sort();
const messageTypes = wsMessageFiles.map((f) => f.replace(/\.schema\.json$/, ''));
const payloadTitle = (file: string) => (readJson(join(wsDir, file)) as { title: string }).title;
const camel = (t: string) => t.replace(/[.-](\w)/g, (_, c: string) => c.toUpperCase());

async function generate(): Promise<Map<string, string>> {
  const files = new Map<string, string>();

  // ── WebSocket protocol ────────────────────────────────────────────────────────────────────────────────────
  const envelope = readJson(join(wsDir, 'envelope.schema.json')) as { properties: { type: { enum: string[] } } };
  const enumTypes = [...envelope.properties.type.enum].sort();
  if (JSON.stringify(enumTypes) !== JSON.stringify([...messageTypes].sort())) {
    throw new Error(`gen: envelope type enum ${enumTypes.join(',')} ≠ message schemas ${messageTypes.join(',')}`);
  }
  const wsTypes = await compileSchemas(
    ['envelope.schema.json', 'common.schema.json', ...wsMessageFiles].map((f) => join(wsDir, f)),
    wsDir,
  );
  const payloadMap =
    `/** Payload type of each message type. */\nexport interface PayloadMap {\n` +
    messageTypes.map((t, i) => `  '${t}': ${payloadTitle(wsMessageFiles[i]!)};`).join('\n') +
    `\n}\n`;
  files.set('packages/protocol/src/generated/ws-types.ts', banner('schema/ws/*.schema.json') + '\n' + wsTypes + '\n' + payloadMap);
  files.set(
    'packages/protocol/src/generated/ws-schemas.ts',
    banner('schema/ws/*.schema.json') +
      '\n' +
      embedSchemas([
        ['envelopeSchema', join(wsDir, 'envelope.schema.json')],
        ['commonSchema', join(wsDir, 'common.schema.json')],
        ...wsMessageFiles.map((f, i): [string, string] => [`${camel(messageTypes[i]!)}Schema`, join(wsDir, f)]),
      ]) +
      `\n/** Payload schema of each message type. */\nexport const payloadSchemas = {\n` +
      messageTypes.map((t) => `  '${t}': ${camel(t)}Schema,`).join('\n') +
      `\n} as const;\n`,
  );

  // ── Workflow definition ───────────────────────────────────────────────────────────────────────────────────
  const wfFile = join(root, 'schema/workflow/workflow.schema.json');
  const wfTypes = await compileSchemas([wfFile], dirname(wfFile));
  files.set('packages/engine/src/generated/workflow-types.ts', banner('schema/workflow/workflow.schema.json') + '\n' + wfTypes);
  files.set(
    'packages/engine/src/generated/workflow-schema.ts',
    banner('schema/workflow/workflow.schema.json') + '\n' + embedSchemas([['workflowSchema', wfFile]]),
  );

  // ── .cwx manifest ─────────────────────────────────────────────────────────────────────────────────────────
  const mfFile = join(root, 'schema/cwx/manifest.schema.json');
  const mfTypes = await compileSchemas([mfFile], dirname(mfFile));
  files.set('packages/cwx/src/generated/manifest-types.ts', banner('schema/cwx/manifest.schema.json') + '\n' + mfTypes);
  files.set(
    'packages/cwx/src/generated/manifest-schema.ts',
    banner('schema/cwx/manifest.schema.json, schema/workflow/workflow.schema.json') +
      '\n' +
      embedSchemas([
        ['manifestSchema', mfFile],
        ['workflowSchema', wfFile],
      ]),
  );

  // ── REST API ──────────────────────────────────────────────────────────────────────────────────────────────
  const apiFile = join(root, 'docs/api/v1/openapi.yaml');
  if (existsSync(apiFile)) {
    const ast = await openapiTS(new URL(`file://${apiFile}`), { exportType: true, alphabetize: true });
    files.set('packages/api/src/generated/openapi.ts', banner('docs/api/v1/openapi.yaml') + '\n' + astToString(ast));
  }
  // ── Error codes ──────────────────────────────────────────────────────────────────────────────────────────
  const { errorsMarkdown } = await import('./error-registry.ts');
  files.set('docs/errors.md', errorsMarkdown());
  return files;
}

const files = await generate();
let stale = 0;
for (const [rel, content] of files) {
  const abs = join(root, rel);
  const current = existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  if (current === content) continue;
  if (check) {
    stale++;
    process.stderr.write(`stale: ${relative(root, abs)} (run \`pnpm gen\` and commit the result)\n`);
  } else {
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    process.stdout.write(`wrote ${rel}\n`);
  }
}
if (check && stale > 0) process.exit(1);
if (check) process.stdout.write(`gen:check: ${files.size} generated files are up to date\n`);
