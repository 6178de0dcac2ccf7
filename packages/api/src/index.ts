export type { components, paths, operations } from './generated/openapi.ts';
export { DroverClient, ApiRequestError, type ClientOptions, type CreateRunRequest } from './client.ts';
import type { components } from './generated/openapi.ts';

/** The REST API's schema types by name (Run, NodeState, Worker, Error, …). */
export type ApiSchemas = components['schemas'];
