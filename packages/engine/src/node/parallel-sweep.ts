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

/** What one `SweepPool.run` may be given beside the combinations */
export interface SweepRunOptions {
  /** Bars [start, end) of the pool's series (default: all of them) */
  start?: number;
  end?: number;
  /** Keep each run's returns per period of this many bars (`SweepResult.returns`) */
  periodBars?: number;
  /** Stops the run: the workers are terminated at once and `run` rejects with `SweepAbortedError` */
  signal?: AbortSignal;
  /** Called after each batch with the combinations done so far */
  onProgress?: (done: number, total: number) => void;
}

export class SweepAbortedError extends Error {
  constructor() {
    super('sweep aborted');
    this.name = 'SweepAbortedError';
  }
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

  /**
   * Runs the combinations over bars [start, end) on all workers; results in the input order. An abort terminates
   * the workers (a batch in progress cannot be interrupted otherwise): the pool is closed afterwards.
   */
  async run(
    combos: readonly Record<string, unknown>[],
    startOrOptions: number | SweepRunOptions = 0,
    endArg = this.length,
  ): Promise<SweepResult[]> {
    const options: SweepRunOptions =
      typeof startOrOptions === 'number' ? { start: startOrOptions, end: endArg } : startOrOptions;
    const start = options.start ?? 0;
    const end = options.end ?? this.length;
    const { signal, onProgress, periodBars } = options;
    if (this.closed) throw new EngineInputError('sweep pool is closed');
    if (signal?.aborted) throw new SweepAbortedError();
    const results = new Array<SweepResult>(combos.length);
    let next = 0;
    let done = 0;
    const stops: ((error: Error) => void)[] = [];
    const onAbort = () => {
      const error = new SweepAbortedError();
      for (const stop of stops) stop(error);
      void this.close();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const drive = (worker: Worker): Promise<void> =>
      new Promise((resolve, reject) => {
        let from = 0;
        const detach = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        const fail = (error: Error) => {
          detach();
          reject(error);
        };
        stops.push(fail);
        const send = () => {
          if (next >= combos.length) {
            detach();
            resolve();
            return;
          }
          from = next;
          next = Math.min(combos.length, next + this.batchSize);
          const task: SweepTask = {
            combos: combos.slice(from, next),
            start,
            end,
            ...(periodBars === undefined ? {} : { periodBars }),
          };
          worker.postMessage(task);
        };
        const onMessage = (reply: SweepReply) => {
          if (reply.error !== null) {
            fail(new EngineInputError(`sweep worker failed: ${reply.error}`));
            return;
          }
          reply.results.forEach((r, k) => {
            results[from + k] = r;
          });
          done += reply.results.length;
          onProgress?.(done, combos.length);
          send();
        };
        const onError = (error: Error) => fail(error);
        const onExit = (code: number) =>
          fail(
            signal?.aborted ? new SweepAbortedError() : new Error(`sweep worker stopped (exit code ${code})`),
          );
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        send();
      });
    try {
      await Promise.all(this.workers.map(drive));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return results;
  }

  private closed = false;

  /** Stops the workers */
  async close(): Promise<void> {
    this.closed = true;
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
      pool.run(combos, { start: window.start, end: window.end }),
    );
  } finally {
    await pool.close();
  }
}
