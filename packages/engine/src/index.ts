export type * from './generated/workflow-types.ts';
export { workflowSchema } from './generated/workflow-schema.ts';
export { validateWorkflow, type WorkflowValidation } from './validate-workflow.ts';
export { WorkflowGraph, findCycle } from './graph.ts';
export { bindParameters, getPath, setPath, type NodeOutput } from './port-binding.ts';
export { pinnedWorker } from './resource-pinning.ts';
export { readySuccessors, runOutcome, type NodeState } from './readiness.ts';
export { ENGINE_ERROR_CODES, WorkflowInvalidError, type EngineErrorCode, type WorkflowProblem } from './errors.ts';
