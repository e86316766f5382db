import type { BacktestStatus, BacktestSummary } from '@kestrel/contracts/backtest';

/**
 * What a backtests and an optimisations row both hold (bigints as numbers, jsonb parsed): the run they test (one
 * strategy over one symbol's bars of a range, on one exchange) and its place in the job queue
 */
export interface RunJobRow {
  id: string;
  user_id: string;
  strategy: string;
  strategy_name: string;
  symbol: string;
  interval: string;
  start_time: number;
  end_time: number;
  exchange_env: string;
  request: Record<string, unknown>;
  settings: Record<string, unknown>;
  status: BacktestStatus;
  progress: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The instance that holds (or last held) the job */
  lease_owner: string | null;
  /** Times the job was claimed */
  attempts: number;
}

/** The columns a new run job is inserted with first, in order: `runJobValues` gives their values */
export const RUN_JOB_INSERT_COLUMNS =
  'id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env';

export const runJobValues = (
  row: Pick<
    RunJobRow,
    | 'id'
    | 'user_id'
    | 'strategy'
    | 'strategy_name'
    | 'symbol'
    | 'interval'
    | 'start_time'
    | 'end_time'
    | 'exchange_env'
  >,
): unknown[] => [
  row.id,
  row.user_id,
  row.strategy,
  row.strategy_name,
  row.symbol,
  row.interval,
  row.start_time,
  row.end_time,
  row.exchange_env,
];

/** A run job's numbers as numbers: node-postgres returns bigint as a string, PGlite as a number or bigint */
export const runJobNumbers = (r: Record<string, unknown>) => ({
  start_time: Number(r.start_time),
  end_time: Number(r.end_time),
  progress: Number(r.progress),
  attempts: Number(r.attempts),
});

/** The contracts' `jobSubjectFields` of a row: what the job runs on */
export const jobSubject = (row: RunJobRow) => ({
  id: row.id,
  strategy: row.strategy,
  strategyName: row.strategy_name,
  symbol: row.symbol,
  interval: row.interval as BacktestSummary['interval'],
  startTime: row.start_time,
  endTime: row.end_time,
});

/** The contracts' `jobProgressFields` of a row: where the job is */
export const jobProgress = (row: RunJobRow) => ({
  status: row.status,
  progress: row.progress,
  createdAt: row.created_at.getTime(),
  finishedAt: row.finished_at ? row.finished_at.getTime() : null,
  error: row.error,
});
