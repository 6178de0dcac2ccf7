import type { ChildProcess } from 'node:child_process';

/** SIGTERM a child and wait for its exit code, escalating to SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, exited: Promise<number | null>, graceMs = 5000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  const code = await exited;
  clearTimeout(t);
  return code;
}
