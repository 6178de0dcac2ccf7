#!/usr/bin/env node
// Launcher for the `drover` command: runs the TypeScript CLI under tsx (no build step), forwarding signals so
// Ctrl-C or SIGTERM stop the scheduler/worker it started cleanly.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
// Resolved from here, not from the working directory, so `drover` works from any folder.
const tsx = import.meta.resolve('tsx');
const child = spawn(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 1)));
