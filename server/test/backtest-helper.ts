import { BacktestRunner, type BacktestRunnerDeps } from '../src/plugins/app/backtest/backtest-runner';

/**
 * A real runner whose work never ends on its own: each claimed run waits until its signal aborts (canceled, taken
 * back, or the instance stops). `stopped()` says whether any run has been stopped, so a test can tell a run that is
 * still held from one the runner gave up.
 */
export function runnerWithEndlessWork(deps: Omit<BacktestRunnerDeps, 'concurrency' | 'execute' | 'notify'>): {
  runner: BacktestRunner;
  stopped: () => boolean;
} {
  let stopped = false;
  const runner = new BacktestRunner({
    ...deps,
    concurrency: 1,
    execute: (_row, signal) =>
      new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          stopped = true;
          resolve();
        }),
      ),
    notify: async () => {},
  });
  return { runner, stopped: () => stopped };
}
