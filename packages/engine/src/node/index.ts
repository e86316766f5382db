// Node-only helpers (worker threads); the core stays in '@kestrel/engine'

export type { AgentWorkerOptions } from './agent-train';
export { AgentWorkerAbortedError, agentEvidenceInWorker, trainAgentInWorker } from './agent-train';
export type { ParallelOptions, SweepRunOptions } from './parallel-sweep';
export { runSweepParallel, SweepAbortedError, SweepPool, walkForwardParallel } from './parallel-sweep';
