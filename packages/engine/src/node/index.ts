// Node-only helpers (worker threads); the core stays in '@kestrel/engine'

export type { ParallelOptions } from './parallel-sweep';
export { runSweepParallel, SweepPool, walkForwardParallel } from './parallel-sweep';
