import { isResourceRef } from '@drover/sdk';

/**
 * The worker a node must run on because its parameters hold a live resource of that worker (e.g. a page opened
 * by an upstream node), or undefined. Throws when resources of two different workers meet in one node.
 */
export function pinnedWorker(parameters: unknown, limit = 10_000): string | undefined {
  let found: string | undefined;
  const stack: unknown[] = [parameters];
  let visited = 0;
  while (stack.length > 0 && visited++ < limit) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (isResourceRef(value)) {
      const worker = value.$resource.workerId;
      if (found !== undefined && found !== worker) {
        throw new Error(`parameters hold resources of two workers (${found}, ${worker})`);
      }
      found = worker;
      continue;
    }
    for (const v of Array.isArray(value) ? value : Object.values(value)) stack.push(v);
  }
  return found;
}
