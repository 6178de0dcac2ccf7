/** Every workflow-definition problem code, with the one-line meaning that docs/errors.md repeats. */
export const ENGINE_ERROR_CODES = {
  'E.WORKFLOW.INVALID': 'The workflow definition has one or more problems (listed in `details.problems`).',
  'E.WORKFLOW.SCHEMA': 'Part of the definition does not match schema/workflow/workflow.schema.json.',
  'E.WORKFLOW.DUPLICATE_ID': 'Two nodes or edges share an id.',
  'E.WORKFLOW.DUPLICATE_PORT': 'A node declares two ports with the same key on the same side.',
  'E.WORKFLOW.DANGLING_EDGE': 'An edge names a node that is not in the workflow.',
  'E.WORKFLOW.UNKNOWN_PORT': 'An edge names a port its node does not declare (outputs for sources, inputs for targets).',
  'E.WORKFLOW.BAD_BINDING': 'An input port must bind to `parameters.*`.',
  'E.WORKFLOW.CYCLE': 'The edges form a cycle; a workflow must be acyclic.',
  'E.WORKFLOW.RESOURCE_CONFLICT': 'A node receives live resources held by two different workers.',
} as const;

/** A workflow-definition problem code. */
export type EngineErrorCode = keyof typeof ENGINE_ERROR_CODES;

/** One problem in a workflow definition, located by a JSON pointer into the submitted document. */
export interface WorkflowProblem {
  code: EngineErrorCode;
  /** RFC 6901 pointer into the submitted workflow, e.g. `/edges/2/target/port`. */
  pointer: string;
  message: string;
}

/** Thrown for a definition that cannot run; `problems` lists every problem found. */
export class WorkflowInvalidError extends Error {
  override readonly name = 'WorkflowInvalidError';
  readonly code = 'E.WORKFLOW.INVALID';
  constructor(readonly problems: WorkflowProblem[]) {
    super(`workflow is invalid: ${problems.length} problem(s): ${problems.map((p) => `${p.pointer} ${p.message}`).join('; ')}`);
  }
}
