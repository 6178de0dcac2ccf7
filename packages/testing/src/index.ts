export { createTestStore, type TestStore } from './test-store.ts';
export { testDialects, type TestDialect } from './test-dialects.ts';
export { startExampleSite, EXAMPLE_PAGE, type ExampleSite } from './example-site.ts';
export { RawWorkerSocket } from './raw-worker-socket.ts';
export { startWorkerProcess, type WorkerProcess, type WorkerProcessOptions } from './worker-process.ts';
export { linearWorkflow, type LinearStep } from './linear-workflow.ts';
export { installBuiltPackages } from './node-packages.ts';
export { repoRoot } from './repo-root.ts';
export { startSchedulerProcess, type SchedulerProcess } from './scheduler-process.ts';
