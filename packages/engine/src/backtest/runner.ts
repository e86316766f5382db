import { BarSeries, type KlineRow } from '../bars/bars';
import {
  type BrokerConfig,
  type BrokerSettingsInput,
  brokerConfig,
  type FundingRates,
} from '../broker/config';
import type { Fill, OrderView, Trade } from '../broker/orders';
import { SimBroker } from '../broker/sim-broker';
import { EngineInputError } from '../errors';
import type { LeverageBracket } from '../futures/brackets';
import type { StrategyType } from '../strategy/registry';
import type { PrepareCache } from '../strategy/strategy';
import { StrategyDriver } from '../strategy/strategy-driver';
import { EquityCurve } from './equity-curve';
import { computeMetrics, type Metrics } from './metrics';

/** Account settings plus optional exchange data (leverage brackets, historical funding rates) */
export interface RunSettings {
  broker?: BrokerSettingsInput;
  brackets?: readonly LeverageBracket[];
  fundingRates?: FundingRates;
}

/**
 * Runs one strategy over a bar series against the simulated broker, one closed bar at a time; the backtest loop
 * and the live (paper) session both drive this, so a strategy trades identically in both.
 */
export class StrategyRunner {
  readonly broker: SimBroker;
  private readonly driver: StrategyDriver;

  constructor(
    type: StrategyType,
    params: unknown,
    readonly series: BarSeries,
    readonly config: BrokerConfig,
    retainHistory = true,
  ) {
    this.broker = new SimBroker(config, series, retainHistory);
    this.driver = new StrategyDriver(type, params, series, this.broker);
    this.driver.reactInsideBars(this.broker);
  }

  /**
   * Processes bar i (fills, each answered by the strategy as it happens, and funding), then the closed bar;
   * `path`: prices the bar is known to have passed through, in order (see `SimBroker.processBarAlong`)
   */
  step(i: number, path?: ArrayLike<number>): void {
    if (path === undefined) this.broker.processBar(i);
    else this.broker.processBarAlong(i, path);
    this.react(i);
  }

  /** Hands bar i's fills and then the closed bar itself to the strategy */
  react(i: number): void {
    this.broker.unseenFills = 0;
    this.driver.onBarClosed(i, this.broker.newFills);
  }

  /** Backtest mode: batch precompute over the whole series */
  prepare(cache: PrepareCache = new Map()): void {
    this.driver.strategy.prepare(this.series, cache);
  }

  idleUntil(i: number): number {
    return this.driver.strategy.idleUntil(i);
  }

  /** History-free backtest: the strategy's own fused loop over every bar, if it has one (false: it has none) */
  runFused(curve: EquityCurve, length: number): boolean {
    if (this.broker.retainHistory) return false;
    return this.driver.strategy.runFused({ broker: this.broker, curve, bars: this.series, length });
  }

  /** Backtest mode: fill objects are only built for the history or for a strategy that reads them */
  skipFillObjectsUnlessNeeded(): void {
    if (!this.broker.retainHistory && !this.driver.strategy.needsFills()) this.broker.buildFills = false;
  }
}

export interface BacktestOptions {
  /** Reusable equity buffer (sweeps pass one per worker to avoid allocating per run) */
  equityBuffer?: Float64Array;
  /** Keep fills, trades and orders in the result (default true; sweeps turn it off) */
  keepDetails?: boolean;
  /** Batch columns shared across runs over the same, unchanged bars (a sweep passes one per bar series) */
  prepareCache?: PrepareCache;
  /**
   * Recorded prices inside bars (trades, a paper bot's live path), per bar index: such a bar is traded along its
   * prices in order, then its extremes and close; the other bars take the usual open → low/high → close path.
   * No fused loop then: they know only the usual path
   */
  paths?: ReadonlyMap<number, ArrayLike<number>>;
}

export interface BacktestResult {
  metrics: Metrics;
  /** Equity after each bar's close; a view into the buffer when one was passed */
  equity: Float64Array;
  trades: readonly Trade[];
  fills: readonly Fill[];
  /** Executions of the run (liquidations included): `fills.length` with details kept, still counted without */
  fillCount: number;
  orders: readonly OrderView[];
  /** Orders the exchange's rules rejected, and the first one's reason ('' if none): counted without details too */
  rejectedOrders: number;
  firstRejection: string;
}

/** Resolves run settings into a broker configuration (throws naming the bad field) */
export function resolveBrokerConfig(settings: RunSettings = {}): BrokerConfig {
  return brokerConfig(settings.broker, { brackets: settings.brackets, fundingRates: settings.fundingRates });
}

/** Backtests `type` with `params` over `bars` */
export function runBacktest(
  type: StrategyType,
  params: unknown,
  bars: BarSeries,
  settings: RunSettings = {},
  options: BacktestOptions = {},
): BacktestResult {
  const config = resolveBrokerConfig(settings);
  const n = bars.length;
  const equity =
    options.equityBuffer && options.equityBuffer.length >= n ? options.equityBuffer : new Float64Array(n);
  const keep = options.keepDetails !== false;
  const runner = new StrategyRunner(type, params, bars, config, keep);
  const broker = runner.broker;
  const close = bars.close;
  const curve = new EquityCurve(equity, config.initialBalance);
  runner.skipFillObjectsUnlessNeeded();
  const paths = options.paths !== undefined && options.paths.size > 0 ? options.paths : undefined;
  if (paths !== undefined || !runner.runFused(curve, n)) {
    runner.prepare(options.prepareCache);
    drive(runner, broker, curve, close, n, paths);
  }
  return {
    metrics: computeMetrics({
      equity,
      length: n,
      intervalMs: bars.intervalMs,
      initialBalance: config.initialBalance,
      maxDrawdown: curve.maxDrawdown,
      trades: {
        count: broker.tradeCount,
        wins: broker.winningTrades,
        grossProfit: broker.grossProfit,
        grossLoss: broker.grossLoss,
      },
      barsInPosition: broker.barsInPosition,
      feesPaid: broker.feesPaid,
      fundingPaid: broker.fundingPaid,
      liquidations: broker.liquidations,
    }),
    equity: equity.subarray(0, n),
    trades: keep ? broker.trades : [],
    fills: keep ? broker.fills : [],
    fillCount: broker.fillCount,
    orders: keep
      ? [...broker.closedOrders, ...broker.openOrders, ...broker.inFlightOrders].sort((a, b) => a.id - b.id)
      : [],
    rejectedOrders: broker.rejectedOrders,
    firstRejection: broker.firstRejection,
  };
}

/**
 * The backtest loop. The strategy sees every bar it asked for and every bar with a fill; the broker sees every bar
 * (along its recorded path, when `paths` has one: a bar whose range reaches nothing has no point that does, so
 * quiet bars are skipped all the same).
 * A leaf function with nothing after its loop: runBacktest is called once per run and would otherwise be entered
 * through on-stack replacement each time, its code after the loop deoptimising run after run in a sweep.
 */
function drive(
  runner: StrategyRunner,
  broker: SimBroker,
  curve: EquityCurve,
  close: Float64Array,
  n: number,
  paths: ReadonlyMap<number, ArrayLike<number>> | undefined,
): void {
  let wake = 0;
  let i = 0;
  while (i < n) {
    const path = paths?.get(i);
    if (path === undefined) broker.processBar(i);
    else broker.processBarAlong(i, path);
    if (i >= wake || broker.unseenFills > 0) {
      runner.react(i);
      wake = runner.idleUntil(i);
    }
    curve.record(i, broker.walletBalance + broker.positionQty * ((close[i] as number) - broker.entryPrice));
    i++;
    // Bars where neither the strategy nor the account can change anything run in the broker's tight loop
    if (i < wake) i = broker.skipQuiet(i, Math.min(wake, n), curve);
  }
}

/** What one closed bar produced in a live session */
export interface LiveStep {
  fills: readonly Fill[];
  /** Orders the strategy submitted on this bar (in flight: to be sent to the exchange) */
  submitted: readonly OrderView[];
}

/**
 * Live (bar by bar) mode: feed each kline as it closes; the strategy runs against the simulated account
 * (paper trading). A bot runtime trading on the exchange (not built yet) is to use `StrategyDriver` with its own
 * OrderPort: the same per-bar calls as here.
 */
export class LiveSession {
  readonly series: BarSeries;
  private readonly runner: StrategyRunner;
  private seenFills = 0;

  constructor(type: StrategyType, params: unknown, intervalMs: number, settings: RunSettings = {}) {
    this.series = new BarSeries(intervalMs, 16);
    this.runner = new StrategyRunner(type, params, this.series, resolveBrokerConfig(settings));
  }

  get broker(): SimBroker {
    return this.runner.broker;
  }

  /** Appends a closed kline (exchange format) and runs the strategy on it */
  onClosedKline(row: KlineRow): LiveStep {
    if (!Array.isArray(row) || row.length < 6)
      throw new EngineInputError('kline must be an array of at least 6 fields');
    this.series.append(
      row[0],
      Number(row[1]),
      Number(row[2]),
      Number(row[3]),
      Number(row[4]),
      Number(row[5]),
    );
    this.runner.step(this.series.length - 1);
    const fills = this.broker.fills.slice(this.seenFills);
    this.seenFills = this.broker.fills.length;
    // Last bar's in-flight orders were accepted during this step, so what is in flight now is new
    return { fills, submitted: [...this.broker.inFlightOrders] };
  }
}
