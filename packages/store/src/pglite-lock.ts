import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { StoreError } from './errors.ts';

/** Who holds a data-directory lock, as written in the lock file. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO-8601 time the lock was taken. */
  startedAt: string;
  /** Random per acquisition, so release() never deletes a lock another process took over. */
  token: string;
}

/** An exclusive lock on a PGlite data directory, held until release() or process exit. */
export interface DataDirLock {
  /** The data directory, absolute. */
  readonly dataDir: string;
  /** The lock file: `<parent>/<basename>.lock`, next to the data directory. */
  readonly lockPath: string;
  /** True when a lock left by a dead process was taken over. */
  readonly tookOverStale: boolean;
  /** The dead holder of a taken-over lock, when its lock file was readable. */
  readonly staleHolder: LockHolder | undefined;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** A lock file this young with unreadable content is taken to be mid-write, not abandoned. */
const UNREADABLE_GRACE_MS = 10_000;
const MAX_ATTEMPTS = 5;

/** The lock file for a data directory; kept outside it so PGlite's initdb sees an empty directory. */
export function lockPathFor(dataDir: string): string {
  const dir = path.resolve(dataDir);
  return path.join(path.dirname(dir), `${path.basename(dir)}.lock`);
}

/**
 * Takes the exclusive lock on a PGlite data directory. PGlite itself does not lock its directory and two
 * processes on one directory corrupt it. A lock left by a dead process on this host is taken over.
 *
 * @throws StoreError `E.STORE.DATA_DIR_LOCKED` when a live process (or one on another host) holds it.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = path.resolve(dataDir);
  const lockPath = lockPathFor(dir);
  const me: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), token: randomUUID() };
  let tookOverStale = false;
  let staleHolder: LockHolder | undefined;
  try {
    mkdirSync(path.dirname(lockPath), { recursive: true });
  } catch (cause) {
    throw cannotCreate(dir, lockPath, cause);
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (tryCreate(dir, lockPath, me)) return holdLock(dir, lockPath, me, tookOverStale, staleHolder);
    const found = readLockFile(lockPath);
    if (found === undefined) continue; // released between our create and our read: try again
    if (isHeld(found)) throw lockedError(dir, lockPath, found.holder);
    // Stale: delete it only if it is still the file we judged, so a fresh lock is never removed.
    if (readLockFile(lockPath)?.raw === found.raw) removeQuietly(lockPath);
    tookOverStale = true;
    staleHolder = found.holder;
  }
  throw lockedError(dir, lockPath, readLockFile(lockPath)?.holder);
}

function tryCreate(dir: string, lockPath: string, me: LockHolder): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw cannotCreate(dir, lockPath, cause);
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function holdLock(
  dir: string,
  lockPath: string,
  me: LockHolder,
  tookOverStale: boolean,
  staleHolder: LockHolder | undefined,
): DataDirLock {
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.removeListener('exit', release);
    if (readLockFile(lockPath)?.holder?.token === me.token) removeQuietly(lockPath);
  };
  // Best effort for a process that exits without closing the store; signals and crashes leave a stale
  // lock, which the next open takes over.
  process.once('exit', release);
  return { dataDir: dir, lockPath, tookOverStale, staleHolder, release };
}

interface LockFile {
  raw: string;
  /** Undefined when the content is not a lock record (a crash mid-write or a foreign file). */
  holder: LockHolder | undefined;
  mtimeMs: number;
}

function readLockFile(lockPath: string): LockFile | undefined {
  try {
    const raw = readFileSync(lockPath, 'utf8');
    const { mtimeMs } = statSync(lockPath);
    return { raw, holder: parseHolder(raw), mtimeMs };
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw cause;
  }
}

function parseHolder(raw: string): LockHolder | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockHolder>;
    if (Number.isInteger(value.pid) && typeof value.hostname === 'string') {
      return { pid: value.pid!, hostname: value.hostname, startedAt: String(value.startedAt ?? ''), token: String(value.token ?? '') };
    }
  } catch {
    // not JSON: fall through
  }
  return undefined;
}

function isHeld({ holder, mtimeMs }: LockFile): boolean {
  if (holder === undefined) return Date.now() - mtimeMs < UNREADABLE_GRACE_MS;
  // A pid on another host cannot be checked; assume it is alive (the directory may be on shared storage).
  if (holder.hostname !== hostname()) return true;
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

function lockedError(dir: string, lockPath: string, holder: LockHolder | undefined): StoreError {
  const who = holder === undefined
    ? 'another Drover scheduler'
    : holder.hostname === hostname()
      ? `another Drover scheduler (pid ${holder.pid})`
      : `another Drover scheduler (pid ${holder.pid} on host ${holder.hostname})`;
  const hint = holder !== undefined && holder.hostname !== hostname() ? ` (if that host is gone, delete ${lockPath})` : '';
  return new StoreError(
    'E.STORE.DATA_DIR_LOCKED',
    `${who} is using ${dir}; stop it or choose another data directory${hint}`,
    { dataDir: dir, lockPath, pid: holder?.pid ?? null, hostname: holder?.hostname ?? null },
  );
}

function cannotCreate(dir: string, lockPath: string, cause: unknown): StoreError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new StoreError('E.STORE.CONNECT_FAILED', `cannot create the lock file for ${dir}: ${reason}`, { dataDir: dir, lockPath }, { cause });
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw cause;
  }
}
