import type { NodeHandler } from './execution-context.ts';

/** The shape an adapter entrypoint module exports: `export const handlers = defineHandlers({...})`. */
export type HandlerTable = Record<string, NodeHandler<any, any>>;

/** Declare one node handler with typed parameters and results. Identity at runtime; exists for inference. */
export function defineNode<P, R extends Record<string, unknown>>(handler: NodeHandler<P, R>): NodeHandler<P, R> {
  return handler;
}

/** Declare an adapter module's handler table (keys are the manifest's `handler` names). */
export function defineHandlers<T extends HandlerTable>(table: T): T {
  return table;
}
