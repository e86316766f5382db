import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../src/lib/database/database';
import { migrate } from '../src/lib/database/migrate';
import { type BacktestRow, backtestRepository } from '../src/trading/backtest/backtest-repository';
import type { NewRunJob } from '../src/trading/backtest/run-job-row';
import { JobRunner, type JobRunnerDeps } from '../src/trading/jobs/job-runner';
import { openTestDatabase, type TestDatabase } from './helper';

/**
 * A real runner whose work never ends on its own: each claimed run waits until its signal aborts (canceled, taken
 * back, or the instance stops). `stopped()` says whether any run has been stopped, so a test can tell a run that is
 * still held from one the runner gave up.
 */
export function runnerWithEndlessWork(
  deps: Omit<JobRunnerDeps<BacktestRow>, 'concurrency' | 'execute' | 'notify' | 'queue' | 'label'>,
): {
  runner: JobRunner<BacktestRow>;
  stopped: () => boolean;
} {
  let stopped = false;
  const runner = new JobRunner<BacktestRow>({
    ...deps,
    queue: backtestRepository,
    label: 'backtest',
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

/** A bare user row (no sign-up, no session), for tests that drive the backtest queue without the HTTP app */
export async function insertUser(db: Database, createdAt: Date): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO users (id, email, email_normalized, password_hash, created_at) VALUES ($1, $2, $2, 'x', $3)`,
    [id, `${id}@example.test`, createdAt],
  );
  return id;
}

/** A queued EMA-crossover run of one minute, as the backtests table takes it */
export const queuedBacktestRow = (userId: string, strategyName: string, createdAt: Date): NewRunJob => ({
  id: randomUUID(),
  user_id: userId,
  strategy: 'ema-cross',
  strategy_name: strategyName,
  symbol: 'BTCUSDT',
  interval: '1m',
  start_time: 0,
  end_time: 60_000,
  exchange_env: 'simulator',
  request: {},
  settings: {},
  status: 'queued',
  created_at: createdAt,
});

/** A queued EMA-crossover run of one minute, straight into the table (no wake-up sent); returns its id */
export async function insertQueuedBacktest(
  db: Database,
  userId: string,
  strategyName: string,
  createdAt: Date,
): Promise<string> {
  const row = await backtestRepository.insert(db, queuedBacktestRow(userId, strategyName, createdAt));
  return row.id;
}

/**
 * A migrated PGlite database with one user (created at `createdAt`) for the enclosing suite: opened in its
 * `beforeAll`, cleaned up in its `afterAll`; read the handle in tests
 */
export function useJobDatabase(createdAt: Date): TestDatabase & { userId: string } {
  const handle = {} as TestDatabase & { userId: string };
  beforeAll(async () => {
    const tdb = await openTestDatabase('pglite');
    await migrate(tdb.db);
    Object.assign(handle, tdb, { userId: await insertUser(tdb.db, createdAt) });
  });
  afterAll(async () => {
    await handle.cleanup?.();
  });
  return handle;
}
