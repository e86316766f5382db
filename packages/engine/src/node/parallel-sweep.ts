import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunSettings } from '../backtest/runner';
import type { BarSeries } from '../bars/bars';
import { EngineInputError } from '../errors';
import {
  expandGrid,
  type Objective,
  type ParamSpace,
  rankResults,
  type SweepResult,
} from '../optimise/sweep';
import { type WalkForwardOptions, type WalkForwardReport, walkForward } from '../optimise/walk-forward';
import { getBuiltInStrategy } from '../strategies/built-in';
import type { SharedBars, SweepJob, SweepReply, SweepTask } from './sweep-protocol';

export interface ParallelOptions {
  /** Worker threads (default: the machine's available parallelism) */
  workers?: number;
  /** Combinations per message: small enough to balance, big enough to amortise messaging */
  batchSize?: number;
}

/** Copies the columns once into shared memory; every worker reads the same bytes */
function shareBars(bars: BarSeries): SharedBars {
  const n = bars.length;
  const share = (a: Float64Array) => {
    const out = new Float64Array(new SharedArrayBuffer(Math.max(1, n) * 8));
    out.set(a.subarray(0, n));
    return out;
  };
  return {
    intervalMs: bars.intervalMs,
    length: n,
    openTime: share(bars.openTime),
    open: share(bars.open),
    high: share(bars.high),
    low: share(bars.low),
    close: share(bars.close),
    volume: share(bars.volume),
  };
}

// Workers run the TypeScript sources like the rest of the workspace. Node 20 does not apply `--import tsx` hooks
// to a worker's entry file, so a tiny CommonJS bootstrap loads the entry through tsx's API instead.
// require.resolve picks the package's `require` build (index.cjs); the worker imports, so it needs the `import` one
// require.resolve picks the package's `require` build (index.cjs); the worker imports, so it needs the `import` one
const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(
  /\.cjs$/,
  '.mjs',
);
const workerEntry = new URL('./sweep-worker.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(workerEntry)}, ${JSON.stringify(workerEntry)}))`;

/**
 * A pool of sweep workers for one strategy and one bar series. Combinations are handed out in batches as workers
 * become free, so slow combinations do not leave a core idle.
 */
export class SweepPool {
  private readonly workers: Worker[];

  constructor(
    strategyId: string,
    bars: BarSeries,
    settings: RunSettings = {},
    options: ParallelOptions = {},
  ) {
    getBuiltInStrategy(strategyId);
    const job: SweepJob = { strategyId, settings, bars: shareBars(bars) };
    const count = Math.max(1, options.workers ?? availableParallelism());
    this.workers = Array.from(
      { length: count },
      () => new Worker(bootstrap, { eval: true, workerData: job }),
    );
    this.batchSize = options.batchSize ?? 8;
    this.length = bars.length;
  }

  private readonly batchSize: number;

  private readonly length: number;

  /** Runs the combinations over bars [start, end) on all workers; results in the input order */
  async run(
    combos: readonly Record<string, unknown>[],
    start = 0,
    end = this.length,
  ): Promise<SweepResult[]> {
    const results = new Array<SweepResult>(combos.length);
    let next = 0;
    const drive = (worker: Worker): Promise<void> =>
      new Promise((resolve, reject) => {
        let from = 0;
        const send = () => {
          if (next >= combos.length) {
            worker.off('message', onMessage);
            worker.off('error', reject);
            resolve();
            return;
          }
          from = next;
          next = Math.min(combos.length, next + this.batchSize);
          const task: SweepTask = { combos: combos.slice(from, next), start, end };
          worker.postMessage(task);
        };
        const onMessage = (reply: SweepReply) => {
          if (reply.error !== null) {
            worker.off('message', onMessage);
            reject(new EngineInputError(`sweep worker failed: ${reply.error}`));
            return;
          }
          reply.results.forEach((r, k) => {
            results[from + k] = r;
          });
          send();
        };
        worker.on('message', onMessage);
        worker.on('error', reject);
        send();
      });
    await Promise.all(this.workers.map(drive));
    return results;
  }

  /** Stops the workers */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/** A parameter sweep of a built-in strategy spread over worker threads, best first */
export async function runSweepParallel(
  strategyId: string,
  base: Record<string, unknown>,
  space: ParamSpace,
  bars: BarSeries,
  settings: RunSettings = {},
  objective: Objective = 'sharpe',
  options: ParallelOptions = {},
): Promise<SweepResult[]> {
  const combos = expandGrid(base, space);
  const pool = new SweepPool(strategyId, bars, settings, options);
  try {
    return rankResults(await pool.run(combos), objective);
  } finally {
    await pool.close();
  }
}

/** Walk-forward analysis whose in-sample optimisations run on worker threads */
export async function walkForwardParallel(
  strategyId: string,
  base: Record<string, unknown>,
  space: ParamSpace,
  bars: BarSeries,
  settings: RunSettings,
  options: WalkForwardOptions,
  parallel: ParallelOptions = {},
): Promise<WalkForwardReport> {
  const type = getBuiltInStrategy(strategyId);
  // One pool for all windows: workers see the whole series and slice views per window
  const pool = new SweepPool(strategyId, bars, settings, parallel);
  try {
    return await walkForward(type, base, space, bars, settings, options, (combos, window) =>
      pool.run(combos, window.start, window.end),
    );
  } finally {
    await pool.close();
  }
}
