export type {
  BrowserAccess,
  ExecutionContext,
  LogLevel,
  NodeHandler,
  NodeLogger,
  ResourceRef,
  RunResources,
} from './execution-context.ts';
export { NodeError, isNodeError } from './node-error.ts';
export { defineHandlers, defineNode, type HandlerTable } from './define-node.ts';
export { isResourceRef } from './resource-ref.ts';
