// Node-only helpers (worker threads); the core stays in '@kestrel/engine'

export type { ParallelOptions, SweepRunOptions } from './parallel-sweep';
export { runSweepParallel, SweepAbortedError, SweepPool, walkForwardParallel } from './parallel-sweep';
