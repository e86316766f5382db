import { randomUUID } from 'node:crypto';
import { type BacktestNotice, TRADING_ENVIRONMENTS, type TradingEnvironment } from '@kestrel/contracts';
import {
  BACKTEST_MAX_BARS,
  BACKTEST_MAX_CANDLES,
  BACKTEST_MAX_EQUITY_POINTS,
  BACKTEST_MAX_TRADES,
  type BacktestCandles,
  type BacktestDetail,
  type BacktestRequest,
  type BacktestStatus,
  type BacktestStrategyInfo,
  type BacktestSummary,
} from '@kestrel/contracts/backtest';
import {
  type BarColumns,
  barOpenAtOrAfter,
  barOpenTime,
  builtInStrategies,
  countBars,
  EngineInputError,
  type FundingRates,
  intervalToMs,
  type RunSettings,
  resolveBrokerConfig,
  type StrategyType,
  strategyCatalogue,
} from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { ExchangeAdapter, ExchangeKeys } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import { exchangeCallsAs, userCaller } from '../../core/exchange/weight-budget';
import { type FetchProgress, KlineCache } from '../../core/market-data/kline-cache';
import { type KlineSeriesKey, klineRepository } from '../../core/market-data/kline-repository';
import { LeverageBrackets, type RunBrackets } from '../../core/market-data/leverage-brackets';
import type { LiveEvent, PushTarget } from '../../core/socket/socket-bus';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { BacktestTask } from './backtest-protocol';
import { type BacktestRow, backtestRepository } from './backtest-repository';
import { chartCandles } from './backtest-result';
import { BacktestRunner } from './backtest-runner';
import { BacktestCanceledError, type BacktestWorkers } from './backtest-workers';
import { fundingHistory } from './funding-history';
import type { JobQuota } from './job-quota';
import { Throttle } from './throttle';

/** Progress pushes (and their database writes) at most this often per run; status changes always go out */
export const PROGRESS_PUSH_INTERVAL_MS = 250;
/** Share of the progress bar the kline download takes; the engine run and storing take the rest */
const FETCH_SHARE = 0.9;
/** Rows of GET /backtests */
const LIST_LIMIT = 200;

export const CANCELED_ERROR = 'Canceled by the user';

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

/** What the service keeps per run beside the request: what the worker needs and which bars it read */
export interface StoredSettings {
  run: RunSettings;
  intervalMs: number;
  /** Open times of the bars: [start, end), bar open times of the interval (1M: 1sts of the month) */
  span: { start: number; end: number };
}

export interface BacktestServiceDeps {
  db: Database;
  /** Keyed calls (the leverage brackets), routed by the key's environment */
  exchange: Pick<ExchangeAdapter, 'leverageBrackets'>;
  /**
   * Public market data of one environment (`ExchangeRouter.marketFor`): a run reads the market of the environment
   * its owner was on when it was created (testnet's and mainnet's candles differ)
   */
  market(
    environment: TradingEnvironment,
  ): Pick<ExchangeAdapter, 'klines' | 'symbolInfo' | 'fundingRateHistory'>;
  /** The user's stored exchange keys of an environment (else the current one's), or undefined when they have none */
  keysFor(userId: string, environment?: TradingEnvironment): Promise<ExchangeKeys | undefined>;
  /** The user's current environment */
  environmentOf(userId: string): Promise<TradingEnvironment>;
  /** The name an environment's exchange is known by (simulator, testnet or mainnet): runs and cached candles keep it */
  exchangeEnvOf(environment: TradingEnvironment): string;
  publish(target: PushTarget, event: LiveEvent): Promise<void>;
  workers: BacktestWorkers;
  clock: Clock;
  log: FastifyBaseLogger;
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
 * stores it queued, and runs what `BacktestRunner` claims from the database queue (shared by every instance):
 * klines from the cache (the missing spans from the exchange), the symbol's leverage brackets, the engine in a
 * worker thread, the result stored with the run. Status changes and progress go to the owner's live sockets (on
 * any instance) as `notifications/backtest`.
 */
export class BacktestService {
  /** The kline cache of each environment's exchange and the brackets reader, shared with the optimisation jobs */
  readonly #klines = new Map<TradingEnvironment, KlineCache>();
  readonly brackets: LeverageBrackets;
  private readonly monotonicNow: () => number;
  /** The database queue: claims, leases, wake-ups and cancels across instances */
  readonly runner: BacktestRunner;

  constructor(private readonly deps: BacktestServiceDeps) {
    this.brackets = new LeverageBrackets({
      exchange: deps.exchange,
      keysFor: deps.keysFor,
      clock: deps.clock,
      log: deps.log,
    });
    this.monotonicNow = deps.monotonicNow ?? (() => performance.now());
    this.runner = new BacktestRunner({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      channel: deps.channel,
      concurrency: deps.concurrency,
      // A run's exchange calls (candle pages, funding, brackets) go in the budget's background lane: they use
      // what interactive callers leave and wait for the next minute instead of failing; a cancel ends the wait
      execute: (row, signal) =>
        exchangeCallsAs({ caller: userCaller(row.user_id), lane: 'background', signal }, () =>
          this.execute(row, signal),
        ),
      notify: (row, status, error) => this.notify(row.user_id, row.id, status, row.progress, error),
    });
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
  /** The candles of an environment's exchange, cached under its name */
  klinesOf(environment: TradingEnvironment): KlineCache {
    let cache = this.#klines.get(environment);
    if (!cache) {
      cache = new KlineCache(this.deps.db, klineRepository, this.deps.market(environment));
      this.#klines.set(environment, cache);
    }
    return cache;
  }

  /**
   * The environment whose exchange a stored run names (`exchange_env`); testnet for a name no environment has now
   * (a run of an exchange this server was started with before), whose candles are read from the cache as stored
   */
  environmentOfRun(row: Pick<BacktestRow, 'exchange_env'>): TradingEnvironment {
    return TRADING_ENVIRONMENTS.find((e) => this.deps.exchangeEnvOf(e) === row.exchange_env) ?? 'testnet';
  }

  /** The user's current environment and the name its exchange is stored under */
  async venueOf(userId: string): Promise<{ environment: TradingEnvironment; exchangeEnv: string }> {
    const environment = await this.deps.environmentOf(userId);
    return { environment, exchangeEnv: this.deps.exchangeEnvOf(environment) };
  }

  async resolveRun(
    request: RunRequest,
    checkParams = true,
    environment: TradingEnvironment = 'testnet',
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

  async create(userId: string, request: BacktestRequest): Promise<BacktestSummary> {
    const { environment, exchangeEnv } = await this.venueOf(userId);
    const { type, params, leverage, intervalMs, span, run } = await this.resolveRun(
      request,
      true,
      environment,
    );
    const settings: StoredSettings = { run, intervalMs, span };
    const row = await this.deps.quota.create(userId, (tx) =>
      backtestRepository.insert(tx, {
        id: randomUUID(),
        user_id: userId,
        strategy: type.id,
        strategy_name: type.name,
        symbol: request.symbol,
        interval: request.interval,
        start_time: request.startTime,
        end_time: request.endTime,
        exchange_env: exchangeEnv,
        request: { ...request, params, costs: { ...request.costs, leverage } },
        settings: settings as unknown as Record<string, unknown>,
        status: 'queued',
        created_at: this.deps.clock.now(),
      }),
    );
    await this.notify(row.user_id, row.id, 'queued', 0);
    // The run is stored: should the wake-up fail, the instances' periodic claim still finds it
    await this.runner
      .announce()
      .catch((err: unknown) => this.deps.log.warn({ err, backtestId: row.id }, 'backtest wake-up failed'));
    return toSummary(row);
  }

  async list(userId: string): Promise<BacktestSummary[]> {
    return (await backtestRepository.list(this.deps.db, userId, LIST_LIMIT)).map(toSummary);
  }

  async get(userId: string, id: string): Promise<BacktestDetail> {
    const row = await backtestRepository.findWithResult(this.deps.db, userId, id);
    if (!row) throw notFound();
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
    if (!row) throw notFound();
    const settings = row.settings as unknown as StoredSettings;
    const bars = await this.klinesOf(this.environmentOfRun(row)).read(this.seriesKey(row), settings.span);
    return chartCandles(bars, row.interval as BacktestCandles['interval'], BACKTEST_MAX_CANDLES);
  }

  async cancel(userId: string, id: string): Promise<BacktestSummary> {
    const row = await backtestRepository.find(this.deps.db, userId, id);
    if (!row) throw notFound();
    const canceled = await backtestRepository.cancel(this.deps.db, id, CANCELED_ERROR, this.deps.clock.now());
    if (!canceled) {
      throw new HttpError(
        409,
        'BACKTEST_FINISHED',
        `This backtest has already ${row.status === 'canceled' ? 'been canceled' : row.status}; nothing to cancel`,
      );
    }
    // The row says canceled already (a claim skips it, its runner's writes miss it); this stops the work early
    // (sent even for a run read as queued: an instance may have claimed it between that read and the cancel)
    await this.runner
      .stop(id)
      .catch((err: unknown) => this.deps.log.warn({ err, backtestId: id }, 'backtest stop not sent'));
    await this.notify(userId, id, 'canceled', canceled.progress, CANCELED_ERROR);
    return toSummary(canceled);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (await backtestRepository.delete(this.deps.db, userId, id)) return;
    const row = await backtestRepository.find(this.deps.db, userId, id);
    if (!row) throw notFound();
    throw new HttpError(
      409,
      'BACKTEST_ACTIVE',
      `This backtest is ${row.status}: cancel it before deleting it`,
    );
  }

  /** Starts taking runs from the queue (and taking back the runs of instances that stopped) */
  async start(): Promise<void> {
    await this.runner.start();
  }

  /** Resolves when nothing is being claimed or executed on this instance (queued runs may remain) */
  async idle(): Promise<void> {
    await this.runner.idle();
  }

  /** Stops taking runs; the running ones are stopped and handed back to the queue for another instance */
  async close(): Promise<void> {
    await this.runner.close();
  }

  /**
   * What a run reads from the market before the engine starts: the bars (kline cache, the missing spans from the
   * exchange), the settled funding rates (unless funding is off) and the symbol's leverage brackets. Null when
   * `signal` aborted; `ok: false` with the message the job fails with (exchange refused, no bars in the range)
   */
  async loadRunInputs(
    row: Pick<BacktestRow, 'user_id' | 'exchange_env' | 'symbol' | 'interval'>,
    settings: Pick<StoredSettings, 'run' | 'span'>,
    signal: AbortSignal,
    onProgress: (p: FetchProgress) => void,
  ): Promise<
    | { ok: true; bars: BarColumns; fundingRates: FundingRates | undefined; brackets: RunBrackets }
    | { ok: false; message: string }
    | null
  > {
    const environment = this.environmentOfRun(row);
    let bars: BarColumns;
    try {
      bars = await this.klinesOf(environment).load(this.seriesKey(row), settings.span, {
        signal,
        onProgress,
      });
    } catch (err) {
      if (signal.aborted) return null;
      const reason = exchangeHttpError(err);
      if (reason instanceof HttpError) {
        return {
          ok: false,
          message: `Could not fetch ${row.symbol} ${row.interval} klines from the exchange: ${reason.message}`,
        };
      }
      throw err;
    }
    // Funding at the rates the exchange actually settled (the engine's constant 0.01 % only where it has none)
    let fundingRates: FundingRates | undefined;
    if (settings.run.broker?.fundingRate !== 0) {
      try {
        fundingRates = await fundingHistory(this.deps.market(environment), row.symbol, settings.span, signal);
      } catch (err) {
        if (signal.aborted) return null;
        const reason = exchangeHttpError(err);
        if (reason instanceof HttpError) {
          return {
            ok: false,
            message: `Could not fetch ${row.symbol} funding rates from the exchange: ${reason.message}`,
          };
        }
        throw err;
      }
    }
    // The symbol's own brackets when the owner has keys there (else the default table): liquidation depends on them
    const brackets = await this.brackets.forRun(row.user_id, row.symbol, environment);
    if (signal.aborted) return null;
    if (bars.openTime.length === 0) {
      return {
        ok: false,
        message:
          `The exchange has no ${row.symbol} ${row.interval} bars between ${new Date(settings.span.start).toISOString()} ` +
          `and ${new Date(settings.span.end).toISOString()}`,
      };
    }
    return { ok: true, bars, fundingRates, brackets };
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

  seriesKey(row: Pick<BacktestRow, 'exchange_env' | 'symbol' | 'interval'>) {
    return {
      env: row.exchange_env,
      symbol: row.symbol,
      interval: row.interval,
    } satisfies KlineSeriesKey;
  }

  /** Runs one claimed run; every write is conditional on this instance still holding it */
  private async execute(row: BacktestRow, signal: AbortSignal): Promise<void> {
    const { db, clock } = this.deps;
    const { id } = row;
    const owner = this.runner.owner;
    const userId = row.user_id;
    const settings = row.settings as unknown as StoredSettings;
    const params = (row.request as { params: Record<string, unknown> }).params;
    await this.notify(userId, id, 'running', 0);

    const fail = async (message: string) => {
      const failed = await backtestRepository.fail(db, id, owner, message, clock.now());
      if (failed) await this.notify(userId, id, 'failed', failed.progress, message);
    };
    try {
      const throttle = new Throttle(PROGRESS_PUSH_INTERVAL_MS, this.monotonicNow);
      // Progress writes and pushes go one after the other, so a late one never overtakes the final status
      let pending = Promise.resolve();
      const onProgress = (p: FetchProgress) => {
        if (!throttle.ready()) return;
        const progress = p.missing > 0 ? (FETCH_SHARE * p.fetched) / p.missing : FETCH_SHARE;
        pending = pending.then(() => this.progress(userId, id, progress));
      };
      const inputs = await this.loadRunInputs(row, settings, signal, onProgress);
      if (inputs === null) return;
      if (!inputs.ok) {
        await fail(inputs.message);
        return;
      }
      const { bars, fundingRates, brackets } = inputs;
      await pending;
      await this.progress(userId, id, FETCH_SHARE);
      const task: BacktestTask = {
        strategy: row.strategy,
        params,
        settings: {
          ...settings.run,
          ...(fundingRates ? { fundingRates } : {}),
          ...(brackets.brackets ? { brackets: brackets.brackets } : {}),
        },
        intervalMs: settings.intervalMs,
        ...bars,
        maxEquityPoints: BACKTEST_MAX_EQUITY_POINTS,
        maxTrades: BACKTEST_MAX_TRADES,
      };
      const reply = await this.deps.workers.run(task, signal);
      if (!reply.ok) {
        if (reply.kind === 'internal')
          this.deps.log.error({ backtestId: id, reason: reply.message }, 'backtest failed');
        await fail(reply.kind === 'internal' ? `The backtest failed: ${reply.message}` : reply.message);
        return;
      }
      if (await backtestRepository.complete(db, id, owner, reply.outcome, brackets.source, clock.now())) {
        await this.notify(userId, id, 'completed', 1);
      }
    } catch (err) {
      if (err instanceof BacktestCanceledError || signal.aborted) return;
      this.deps.log.error({ err, backtestId: id }, 'backtest failed');
      await fail('The backtest failed on the server; the error was logged');
    }
  }

  private async progress(userId: string, id: string, progress: number): Promise<void> {
    const value = Math.min(1, Math.max(0, progress));
    try {
      // A run canceled (or taken back) meanwhile gets no late "running" push that would revive it on the page
      if (await backtestRepository.setProgress(this.deps.db, id, this.runner.owner, value)) {
        await this.notify(userId, id, 'running', value);
      }
    } catch (err) {
      this.deps.log.warn({ err, backtestId: id }, 'backtest progress not recorded');
    }
  }

  private async notify(
    userId: string,
    backtestId: string,
    status: BacktestStatus,
    progress: number,
    error?: string,
  ): Promise<void> {
    const data: BacktestNotice = {
      backtestId,
      status,
      progress: Math.min(1, Math.max(0, progress)),
      time: this.deps.clock.now().getTime(),
      ...(error === undefined ? {} : { error }),
    };
    try {
      await this.deps.publish(userId, { kind: 'backtest', data });
    } catch (err) {
      // A lost push only delays the page (it also polls the run); the job itself goes on
      this.deps.log.warn({ err, backtestId }, 'backtest push failed');
    }
  }
}

function toSummary(row: BacktestRow): BacktestSummary {
  return {
    id: row.id,
    strategy: row.strategy,
    strategyName: row.strategy_name,
    symbol: row.symbol,
    interval: row.interval as BacktestSummary['interval'],
    startTime: row.start_time,
    endTime: row.end_time,
    status: row.status,
    progress: row.progress,
    createdAt: row.created_at.getTime(),
    finishedAt: row.finished_at ? row.finished_at.getTime() : null,
    error: row.error,
    metrics: row.metrics,
  };
}

function badRequest(message: string): HttpError {
  return new HttpError(400, 'INVALID_BACKTEST', `Invalid backtest: ${message}`);
}

function notFound(): HttpError {
  return new HttpError(404, 'BACKTEST_NOT_FOUND', 'No such backtest');
}
