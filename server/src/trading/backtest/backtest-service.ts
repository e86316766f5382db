import type { TradingEnvironment } from '@kestrel/contracts';
import {
  BACKTEST_MAX_BARS,
  BACKTEST_MAX_CANDLES,
  type BacktestCandles,
  type BacktestDetail,
  type BacktestRequest,
  type BacktestStrategyInfo,
  type BacktestSummary,
} from '@kestrel/contracts/backtest';
import {
  barOpenAtOrAfter,
  barOpenTime,
  builtInStrategies,
  countBars,
  EngineInputError,
  intervalToMs,
  type RunSettings,
  resolveBrokerConfig,
  type StrategyType,
  strategyCatalogue,
} from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import type { FetchProgress } from '../../core/market-data/kline-cache';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import { HttpError } from '../../lib/http-error';
import type { JobQuota } from '../jobs/job-quota';
import { JobService, UserJobService } from '../jobs/job-service';
import {
  BacktestInputs,
  type BacktestInputsDeps,
  type RunInputs,
  type StoredSettings,
} from './backtest-inputs';
import { backtestJob, backtestNotFound } from './backtest-job';
import { type BacktestRow, backtestRepository } from './backtest-repository';
import { chartCandles } from './backtest-result';
import type { BacktestWorkers } from './backtest-workers';
import { jobProgress, jobSubject, queuedRunJob } from './run-job-row';

/** Rows of GET /backtests */
const LIST_LIMIT = 200;

/** The parts of a backtest request that define a run (an optimisation request has them too) */
export type RunRequest = Pick<
  BacktestRequest,
  'strategy' | 'params' | 'symbol' | 'interval' | 'startTime' | 'endTime' | 'costs'
>;

/** A checked run request, resolved into what the engine needs */
export interface ResolvedRun {
  type: StrategyType;
  /** Parsed with defaults (raw when the caller checks them itself), the account's leverage applied */
  params: Record<string, unknown>;
  leverage: number;
  intervalMs: number;
  /** Open times [start, end) of the closed bars asked for */
  span: { start: number; end: number };
  /** Bars in the span */
  bars: number;
  run: RunSettings;
}

/** The run inputs' parts (`BacktestInputsDeps`: database, exchange, markets, keys, clock, log) and the job's own */
export interface BacktestServiceDeps extends BacktestInputsDeps {
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  workers: BacktestWorkers;
  /** Runs at most this many at once on this instance (the rest wait queued, for this or another instance) */
  concurrency: number;
  /** NOTIFY channel of the job queue, shared by the instances on the database schema */
  channel: string;
  /** The per-user cap on created and waiting jobs, shared with optimisations */
  quota: JobQuota;
  /** Monotonic milliseconds for throttling progress pushes */
  monotonicNow?: () => number;
}

/**
 * Backtest jobs: validates a request (strategy, its parameters through the engine, interval, range, symbol),
 * stores it queued, and runs what its `JobService` (trading/jobs) claims from the database queue (shared by every instance):
 * klines from the cache (the missing spans from the exchange), the symbol's leverage brackets, the engine in a
 * worker thread, the result stored with the run. Status changes and progress go to the owner's live sockets (on
 * any instance) as `notifications/backtest`.
 */
export class BacktestService extends UserJobService<BacktestRow, BacktestSummary> {
  /** The kline cache of each environment's exchange and the brackets reader, shared with the optimisation jobs */
  readonly inputs: BacktestInputs;

  constructor(private readonly deps: BacktestServiceDeps) {
    const inputs = new BacktestInputs(deps);
    const jobs = new JobService({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      kind: backtestJob({
        db: deps.db,
        inputs,
        workers: deps.workers,
        clock: deps.clock,
        log: deps.log,
      }),
      publish: deps.publish,
      channel: deps.channel,
      concurrency: deps.concurrency,
      quota: deps.quota,
      ...(deps.monotonicNow ? { monotonicNow: deps.monotonicNow } : {}),
    });
    super(jobs, toSummary);
    this.inputs = inputs;
  }

  /** The built-in strategies with their parameter schemas and defaults */
  strategies(): BacktestStrategyInfo[] {
    return strategyCatalogue();
  }

  /**
   * Checks what a run of `request` needs and resolves it: the strategy, its parameters (through the engine's
   * schema unless `checkParams` is false: an optimisation checks each combination), the bar span (≤
   * BACKTEST_MAX_BARS), the symbol's listing and rules, the broker settings. A 400 names the field.
   */

  /**
   * The account's environment (its owner's current one, resolved by the request) and the name its exchange is
   * stored under: a run reads that market for good
   */
  venueOf(account: TradingAccount): { environment: TradingEnvironment; exchangeEnv: string } {
    const { environment } = account;
    return { environment, exchangeEnv: this.deps.exchangeEnvOf(environment) };
  }

  /** `environment`: the exchange whose symbol rules the run takes (its owner's, or a bot's for its drift report) */
  async resolveRun(
    request: RunRequest,
    checkParams: boolean,
    environment: TradingEnvironment,
  ): Promise<ResolvedRun> {
    const type = builtInStrategies.get(request.strategy);
    if (!type) {
      throw badRequest(
        `strategy: unknown strategy "${request.strategy}"; known: ${[...builtInStrategies.keys()].join(', ')}`,
      );
    }
    // The account's leverage, when given, is the run's: it replaces the strategy's own leverage parameter
    const hasLeverage = 'leverage' in type.paramsSchema.shape;
    const rawParams =
      request.costs.leverage !== undefined && hasLeverage
        ? { ...request.params, leverage: request.costs.leverage }
        : request.params;
    let params: Record<string, unknown> = rawParams;
    try {
      if (checkParams) params = type.parseParams(rawParams);
    } catch (err) {
      if (err instanceof EngineInputError) throw badRequest(`params: ${err.message}`);
      throw err;
    }
    const leverage =
      request.costs.leverage ?? (typeof params.leverage === 'number' ? params.leverage : undefined) ?? 1;

    const intervalMs = intervalToMs(request.interval);
    const span = this.barSpan(request.startTime, request.endTime, request.interval);
    const bars = countBars(request.interval, span.start, span.end);
    if (bars > BACKTEST_MAX_BARS) {
      throw badRequest(
        `endTime: the range holds ${bars} ${request.interval} bars; a backtest takes at most ${BACKTEST_MAX_BARS} ` +
          '(one year of 1m bars): shorten the range or use a longer interval',
      );
    }

    let symbolInfo: Awaited<ReturnType<ExchangeAdapter['symbolInfo']>>;
    try {
      symbolInfo = await this.deps.market(environment).symbolInfo(request.symbol);
    } catch (err) {
      throw exchangeHttpError(err);
    }
    if (!symbolInfo) throw badRequest(`symbol: ${request.symbol} is not listed on the exchange`);

    const run: RunSettings = {
      broker: {
        initialBalance: request.costs.initialBalance,
        leverage,
        marginMode: request.costs.marginMode,
        makerFee: request.costs.makerFeeRate,
        takerFee: request.costs.takerFeeRate,
        slippageBps: request.costs.slippageBps,
        ...(request.costs.funding ? {} : { fundingRate: 0 }),
        tickSize: Number(symbolInfo.tickSize),
        stepSize: Number(symbolInfo.stepSize),
        minNotional: Number(symbolInfo.minNotional),
      },
    };
    try {
      resolveBrokerConfig(run);
    } catch (err) {
      // Our own mapping or the exchange's symbol rules; the message names the field
      throw badRequest(`costs: ${(err as Error).message}`);
    }

    return { type, params, leverage, intervalMs, span, bars, run };
  }

  async create(account: TradingAccount, request: BacktestRequest): Promise<BacktestSummary> {
    const { userId } = account;
    const { environment, exchangeEnv } = this.venueOf(account);
    const { type, params, leverage, intervalMs, span, run } = await this.resolveRun(
      request,
      true,
      environment,
    );
    const settings: StoredSettings = { run, intervalMs, span };
    const row = await this.jobs.create(userId, (tx) =>
      backtestRepository.insert(tx, {
        ...queuedRunJob(userId, type, request, exchangeEnv, this.deps.clock.now()),
        request: { ...request, params, costs: { ...request.costs, leverage } },
        settings: settings as unknown as Record<string, unknown>,
      }),
    );
    return toSummary(row);
  }

  async list(userId: string): Promise<BacktestSummary[]> {
    return (await backtestRepository.list(this.deps.db, userId, LIST_LIMIT)).map(toSummary);
  }

  async get(userId: string, id: string): Promise<BacktestDetail> {
    const row = await backtestRepository.findWithResult(this.deps.db, userId, id);
    if (!row) throw backtestNotFound();
    return {
      ...toSummary(row),
      request: row.request as BacktestDetail['request'],
      equity: row.result?.equity ?? [],
      trades: row.result?.trades ?? [],
      markers: row.result?.markers ?? [],
      bracketsSource: row.brackets_source,
    };
  }

  /** The run's bars from the kline cache, aggregated for the chart */
  async candles(userId: string, id: string): Promise<BacktestCandles> {
    const row = await backtestRepository.find(this.deps.db, userId, id);
    if (!row) throw backtestNotFound();
    const settings = row.settings as unknown as StoredSettings;
    const bars = await this.inputs
      .klinesOf(this.inputs.environmentOfRun(row))
      .read(this.inputs.seriesKey(row), settings.span);
    return chartCandles(bars, row.interval as BacktestCandles['interval'], BACKTEST_MAX_CANDLES);
  }

  /** What a run reads from the market before the engine starts (`BacktestInputs.loadRunInputs`) */
  loadRunInputs(
    row: Pick<BacktestRow, 'user_id' | 'exchange_env' | 'symbol' | 'interval'>,
    settings: Pick<StoredSettings, 'run' | 'span'>,
    signal: AbortSignal,
    onProgress: (p: FetchProgress) => void,
  ): Promise<RunInputs> {
    return this.inputs.loadRunInputs(row, settings, signal, onProgress);
  }

  /** Open times [start, end) of the closed bars the range asks for, or a 400 when there are none */
  private barSpan(startTime: number, endTime: number, interval: string): { start: number; end: number } {
    const start = barOpenAtOrAfter(interval, startTime);
    // The bar open now is not closed: the last closed one ends where it opens
    const lastClosedEnd = barOpenTime(interval, this.deps.clock.now().getTime());
    const end = Math.min(barOpenAtOrAfter(interval, endTime), lastClosedEnd);
    if (start >= lastClosedEnd)
      throw badRequest('startTime: the range starts after the last closed bar (now)');
    if (start >= end) throw badRequest('endTime: the range holds no whole bar of this interval');
    return { start, end };
  }
}

function toSummary(row: BacktestRow): BacktestSummary {
  return { ...jobSubject(row), ...jobProgress(row), metrics: row.metrics };
}

function badRequest(message: string): HttpError {
  return new HttpError(400, 'INVALID_BACKTEST', `Invalid backtest: ${message}`);
}
