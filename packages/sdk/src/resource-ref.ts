import type { ResourceRef } from './execution-context.ts';

/** True when `value` has the shape of a ResourceRef. */
export function isResourceRef(value: unknown): value is ResourceRef {
  if (typeof value !== 'object' || value === null) return false;
  const r = (value as { $resource?: unknown }).$resource;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof (r as ResourceRef['$resource']).workerId === 'string' &&
    typeof (r as ResourceRef['$resource']).id === 'string' &&
    typeof (r as ResourceRef['$resource']).type === 'string'
  );
}
