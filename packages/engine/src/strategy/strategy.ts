import type { z } from 'zod';
import type { EquityCurve } from '../backtest/equity-curve';
import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import type { Fill } from '../broker/orders';
import type { SimBroker } from '../broker/sim-broker';
import type { LevelProfit, PlanMarket, PlannedOrder, RoundTripAt } from './order-plan';

/** The positions a strategy takes (see `StrategyDefinition.positionSide`) */
export type PositionSide = 'long' | 'short' | 'both';

/** Bumped when the strategy contract changes shape; the runner refuses other versions */
export const INTERFACE_VERSION = 1 as const;

/**
 * What a strategy sees when a bar closes. Prices are read by age (`close(0)` is the bar that just closed,
 * `close(1)` the one before), so there is no way to ask for a bar that has not happened yet.
 */
export interface StrategyContext {
  /** Index of the bar that just closed (0 for the first) */
  readonly index: number;
  /** Open time (ms) of the bar that just closed */
  readonly time: number;
  /**
   * The latest price known at this step: the close of the bar that just closed in `onBar`, the fill's price in
   * `onFill`, the exchange's last price when a bot starts (its first step is the last bar closed before the start,
   * whose close may be a bar old). What a strategy places orders around; signals read the bars
   */
  readonly price: number;
  readonly intervalMs: number;
  open(ago?: number): number;
  high(ago?: number): number;
  low(ago?: number): number;
  close(ago?: number): number;
  volume(ago?: number): number;
  readonly broker: OrderPort;
  /**
   * Asks for `onPrice` when the price reaches `low` or falls below it, or reaches `high` or rises above it (use
   * −Infinity / Infinity for a side not watched). One band at a time: a new call replaces it, and it is cleared
   * when it wakes the strategy, so `onPrice` arms it again if it still wants prices. In backtests and paper runs the
   * wake happens at the band's edge on the bar's price path (like a stop), live at the first price beyond it
   */
  watchPrice(low: number, high: number): void;
}

/** An outside trade signal (a charting tool's alert through the bot's webhook) as the strategy receives it */
export interface TradeSignal {
  readonly action: 'buy' | 'sell' | 'close';
  /** Base-asset quantity asked for; absent: the strategy sizes it */
  readonly quantity?: number;
  /** A limit price asked for; absent: at market */
  readonly price?: number;
}

/** Batch columns shared by the runs of one sweep over the same bars, keyed by what they depend on */
export type PrepareCache = Map<string, unknown>;

/** What a fused backtest loop runs: every bar of `bars` up to `length` against `broker`, equity into `curve` */
export interface FusedRun {
  readonly broker: SimBroker;
  readonly curve: EquityCurve;
  readonly bars: BarSeries;
  readonly length: number;
}

/**
 * A running strategy: pure reactions to closed bars and fills, no clock or randomness of its own. This is all a
 * strategy author writes; it trades the same live, on paper and in backtests. Backtest speed hooks are a separate,
 * optional interface (`BacktestFastPath`).
 */
export interface Strategy {
  /** Called once per closed bar, after that bar's fills were delivered */
  onBar(ctx: StrategyContext): void;
  /**
   * Called for every fill the moment it is known (optional; default: ignore): in backtests and paper runs at the
   * fill's point of the bar's price path, live when the exchange reports it. Orders it submits go out at once (a
   * grid's counter-order, a take-profit or stop at the entry), not at the bar's close. `ctx` reads the newest
   * closed bar: the bar the fill happened in has not closed yet.
   */
  onFill?(fill: Fill, ctx: StrategyContext): void;
  /**
   * Called when the price leaves the band set with `ctx.watchPrice` (optional): a break-out stop, a trailing exit
   * kept by the strategy. `ctx.price` is the price that woke it (the band's edge on a simulated path); `ctx` reads
   * the newest closed bar. Orders it submits go out at once, as `onFill`'s do
   */
  onPrice?(ctx: StrategyContext): void;
  /**
   * Called when an outside signal arrives for the bot (optional; live only: a backtest or a paper run has no
   * webhook, so it never calls this). `ctx.price` is the market's last price then; `ctx` reads the newest closed
   * bar. Orders it submits go out at once, as `onFill`'s do
   */
  onSignal?(signal: TradeSignal, ctx: StrategyContext): void;
}

/**
 * Backtest-only speed hooks a strategy may add to `Strategy` (every one optional). The live path never calls them
 * and must trade identically without them: the live-vs-backtest test of each built-in strategy holds them to that.
 * The runner finds them with `hasBacktestFastPath`.
 */
export interface BacktestFastPath {
  /**
   * Called once with the whole series before the first bar, to compute indicator columns in batch. Values at bar i
   * may use bars ≤ i only. `cache` lives as long as the bars do not change (one sweep): store columns that other
   * parameter sets reuse.
   */
  prepare?(bars: BarSeries, cache: PrepareCache): void;
  /**
   * After onBar at bar i, the next bar index whose onBar can change anything, unless a fill comes first (fills
   * always wake the strategy). Default i + 1. Lets the loop skip quiet bars.
   */
  idleUntil?(index: number): number;
  /**
   * False when onFill ignores every fill this run can produce (say, no stop-loss or take-profit to place). A
   * backtest that keeps no history then builds no fill objects; a bar with a fill still wakes the strategy.
   * Default true.
   */
  needsFills?(): boolean;
  /**
   * History-free runs only: runs the whole backtest loop itself and returns true, or returns false to take the
   * generic loop. It must do per bar exactly what the generic loop does (`broker.processBar(i)`, the strategy's
   * reaction, the equity record) so results are the same double for double; a fused loop can then compute its
   * indicators in the same pass instead of a separate one.
   */
  runFused?(run: FusedRun): boolean;
}

/** What `StrategyDefinition.create` returns: a strategy, with backtest speed hooks or without */
export type StrategyInstance = Strategy | (Strategy & BacktestFastPath);

/** True when the strategy brings at least one backtest speed hook */
export function hasBacktestFastPath(strategy: Strategy): strategy is Strategy & BacktestFastPath {
  const s = strategy as Strategy & BacktestFastPath;
  return (
    typeof s.prepare === 'function' ||
    typeof s.idleUntil === 'function' ||
    typeof s.needsFills === 'function' ||
    typeof s.runFused === 'function'
  );
}

/**
 * A strategy type. `params` is a zod object whose fields all have defaults and bounds: the server validates with
 * it, the form renders from its JSON schema, the optimiser reads ranges from it.
 */
export interface StrategyDefinition<S extends z.ZodObject> {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly interfaceVersion: typeof INTERFACE_VERSION;
  readonly params: S;
  /** Bars to replay before the strategy's signals mean anything (live start-up, walk-forward windows) */
  warmupBars(params: z.output<S>): number;
  /**
   * Which positions the strategy takes with `params`: only long, only short, or both (the default). A live bot on
   * a Binance account in hedge mode holds one side, so it can run only a one-sided strategy there
   */
  positionSide?(params: z.output<S>): PositionSide;
  /**
   * The orders `params` imply at `market` (its grid, its base and safety orders, its entry), as it would send them:
   * checked against the symbol's filters and the budget before a bot is saved or started (`checkOrderPlan`).
   * Without it nothing is checked ahead
   */
  plannedOrders?(params: z.output<S>, market: PlanMarket): PlannedOrder[];
  /**
   * What one round trip between neighbouring levels earns after fees (a grid's buy and the sell a level above):
   * shown before a bot is saved. Without it the strategy has no fixed round trip
   */
  levelProfit?(params: z.output<S>, at: RoundTripAt): LevelProfit;
  /**
   * True: the strategy trades on outside signals only (`Strategy.onSignal`), its bars alone never trade. The server
   * offers such a bot a signal webhook and refuses paper mode for it (a paper run has no alert to follow). Default
   * false
   */
  readonly takesSignals?: boolean;
  create(params: z.output<S>): StrategyInstance;
}
