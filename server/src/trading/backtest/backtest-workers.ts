import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BacktestReply, BacktestTask } from './backtest-protocol';

// The server runs its TypeScript sources through tsx; Node 20 does not apply tsx's hooks to a worker's entry file,
// so a tiny bootstrap loads the entry through tsx's API (as @kestrel/engine/node's sweep pool does).
// require.resolve picks the package's `require` build (index.cjs); the worker imports, so it needs the `import` one
const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(
  /\.cjs$/,
  '.mjs',
);
const workerEntry = new URL('./backtest-worker.ts', import.meta.url).href;
const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => m.tsImport(${JSON.stringify(workerEntry)}, ${JSON.stringify(workerEntry)}))`;

export class BacktestCanceledError extends Error {
  constructor() {
    super('canceled');
    this.name = 'BacktestCanceledError';
  }
}

/**
 * Worker threads that run backtests off the event loop, at most `size` at once. Workers start lazily and are
 * reused (a start costs a second or two of TypeScript loading); a canceled run terminates its worker.
 */
export class BacktestWorkers {
  private readonly idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(readonly size: number) {}

  /** Runs one task; rejects with BacktestCanceledError when `signal` aborts (the worker is stopped at once) */
  run(task: BacktestTask, signal?: AbortSignal): Promise<BacktestReply> {
    if (this.closed) return Promise.reject(new Error('backtest workers are closed'));
    if (signal?.aborted) return Promise.reject(new BacktestCanceledError());
    if (this.busy.size >= this.size) return Promise.reject(new Error('all backtest workers are busy'));
    const worker = this.idle.pop() ?? new Worker(bootstrap, { eval: true });
    this.busy.add(worker);
    return new Promise<BacktestReply>((resolve, reject) => {
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        this.busy.delete(worker);
      };
      const onMessage = (reply: BacktestReply) => {
        cleanup();
        if (!this.closed) this.idle.push(worker);
        else void worker.terminate();
        resolve(reply);
      };
      const onError = (error: Error) => {
        cleanup();
        void worker.terminate();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`backtest worker stopped (exit code ${code})`));
      };
      const onAbort = () => {
        cleanup();
        void worker.terminate();
        reject(new BacktestCanceledError());
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      const columns = [task.openTime, task.open, task.high, task.low, task.close, task.volume];
      worker.postMessage(
        task,
        columns.map((c) => c.buffer as ArrayBuffer),
      );
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }
}
