import type { WorkflowNode } from '@drover/engine';
import type { DispatchPayload } from '@drover/protocol';
import type { ClaimedTask } from '../dispatch/claim-tasks.ts';

/** The `cmd.dispatch` payload for a claimed task; `node` (from the run's snapshot) supplies label and timeout. */
export function dispatchPayload(task: ClaimedTask, node: WorkflowNode | undefined, defaultTimeoutMs: number): DispatchPayload {
  return {
    run_id: task.run_id,
    task_id: task.id,
    node_id: task.node_id,
    attempt: task.attempt,
    dispatch_id: task.dispatch_id!,
    node: {
      type: task.node_type,
      package: { name: task.package_name, version: task.package_version },
      ...(node?.label ? { label: node.label.slice(0, 256) } : {}),
    },
    parameters: task.parameters as Record<string, unknown>,
    timeout_ms: node?.timeoutMs ?? defaultTimeoutMs,
  };
}
