import { spawn } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, lockPathFor, openStore, StoreError } from '../src/index.ts';

const FIXTURE = fileURLToPath(new URL('./fixtures/open-store.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface ChildReport {
  ok: boolean;
  code?: string;
  message?: string;
  pid?: number;
  runId?: string;
}

/** Runs the fixture in a real child process; resolves with its first report line. */
function startChild(dataDir: string, mode: 'once' | 'hold' | 'lock-and-exit') {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir, mode], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const report = new Promise<ChildReport>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as ChildReport));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) without a report`)));
  });
  return { child, report, exited };
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the PGlite data-directory lock', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'drover-lock-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('stops a second process, naming the directory and the holder, until the first closes', async () => {
    const dataDir = path.join(parent, 'shared');
    const store = await openStore({ dataDir });
    let closed = false;
    try {
      expect(JSON.parse(readFileSync(lockPathFor(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });

      const { report, exited } = startChild(dataDir, 'once');
      const refused = await report;
      expect(await exited).toBe(1);
      expect(refused.code).toBe('E.STORE.DATA_DIR_LOCKED');
      expect(refused.message).toContain(dataDir);
      expect(refused.message).toContain(`pid ${process.pid}`);

      // The same process opening the directory twice is refused as well.
      const second = await openStore({ dataDir }).catch((error: unknown) => error);
      expect(second).toBeInstanceOf(StoreError);
      expect(second).toMatchObject({ code: 'E.STORE.DATA_DIR_LOCKED', details: { dataDir, pid: process.pid } });

      await store.close();
      closed = true;
      expect(existsSync(lockPathFor(dataDir))).toBe(false);
      const reopened = await openStore({ dataDir, migrate: false });
      await reopened.close();
    } finally {
      if (!closed) await store.close();
    }
  });

  it('takes over the lock of a killed process, and its committed data survives', async () => {
    const dataDir = path.join(parent, 'crashed');
    const { child, report, exited } = startChild(dataDir, 'hold');
    const held = await report;
    expect(held.ok).toBe(true);
    child.kill('SIGKILL');
    await exited;
    expect(JSON.parse(readFileSync(lockPathFor(dataDir), 'utf8'))).toMatchObject({ pid: held.pid });

    const store = await openStore({ dataDir });
    try {
      expect(JSON.parse(readFileSync(lockPathFor(dataDir), 'utf8'))).toMatchObject({ pid: process.pid });
      const run = await store.db.selectFrom('runs').select(['id', 'workflow']).where('id', '=', held.runId!).executeTakeFirst();
      expect(run).toEqual({ id: held.runId, workflow: { by: 'child' } });
    } finally {
      await store.close();
    }
  });

  it('is released when the holding process exits without closing', async () => {
    const dataDir = path.join(parent, 'exited');
    const { report, exited } = startChild(dataDir, 'lock-and-exit');
    expect((await report).ok).toBe(true);
    expect(await exited).toBe(0);
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
  });

  it('reports a taken-over stale lock and releases only its own', async () => {
    const dataDir = path.join(parent, 'stale');
    const lockPath = lockPathFor(dataDir);
    expect(lockPath).toBe(path.join(parent, 'stale.lock'));
    const pid = await deadPid();
    writeFileSync(lockPath, JSON.stringify({ pid, hostname: hostname(), startedAt: '2020-01-01T00:00:00Z', token: 'old' }));

    const lock = acquireDataDirLock(dataDir);
    expect(lock).toMatchObject({ dataDir, lockPath, tookOverStale: true, staleHolder: { pid, token: 'old' } });
    const mine = readFileSync(lockPath, 'utf8');
    expect(() => acquireDataDirLock(dataDir)).toThrow(expect.objectContaining({ code: 'E.STORE.DATA_DIR_LOCKED' }));
    lock.release();
    expect(existsSync(lockPath)).toBe(false);

    // release() leaves a lock that is no longer ours alone.
    const again = acquireDataDirLock(dataDir);
    expect(again.tookOverStale).toBe(false);
    writeFileSync(lockPath, mine.replace(/"token":"[^"]+"/, '"token":"someone-else"'));
    again.release();
    expect(existsSync(lockPath)).toBe(true);
  });

  it('treats an unreadable lock file as held while fresh and as stale once old', () => {
    const dataDir = path.join(parent, 'garbled');
    const lockPath = lockPathFor(dataDir);
    writeFileSync(lockPath, '');
    expect(() => acquireDataDirLock(dataDir)).toThrow(/another Drover scheduler is using .*garbled; stop it or choose another data directory/);
    utimesSync(lockPath, new Date(0), new Date(0));
    const lock = acquireDataDirLock(dataDir);
    expect(lock).toMatchObject({ tookOverStale: true, staleHolder: undefined });
    lock.release();
  });

  it('never assumes a holder on another host is dead', () => {
    const dataDir = path.join(parent, 'remote');
    const lockPath = lockPathFor(dataDir);
    writeFileSync(lockPath, JSON.stringify({ pid: 1, hostname: `not-${hostname()}`, startedAt: '', token: 't' }));
    expect(() => acquireDataDirLock(dataDir)).toThrow(`pid 1 on host not-${hostname()}`);
    expect(() => acquireDataDirLock(dataDir)).toThrow(`delete ${lockPath}`);
  });
});
