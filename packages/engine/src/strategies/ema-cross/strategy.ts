import type { BarSeries } from '../../bars/bars';
import type { OrderPort } from '../../broker/order-port';
import type { Fill } from '../../broker/orders';
import type { SimBroker } from '../../broker/sim-broker';
import { Ema } from '../../indicators/average/ema/ema';
import { strategyType } from '../../strategy/registry';
import {
  type BacktestFastPath,
  type FusedRun,
  INTERFACE_VERSION,
  type PrepareCache,
  type Strategy,
  type StrategyContext,
} from '../../strategy/strategy';
import { entryPlan, qtyForEquityFraction } from '../shared/position-sizing';
import { emaCrossLoop } from './fused-loop';
import { type EmaCrossParams, EmaCrossParamsSchema } from './params';
import { emaCrossSeeds } from './seeds';

/**
 * Bars where the EMAs cross and the direction (+1 up, −1 down). Typed arrays: element loads from them compile to
 * plain memory reads (a frozen JS array's went through a generic keyed-load stub on every bar the strategy saw).
 * Never written after prepare: other runs of a sweep read the same arrays.
 */
interface Crossings {
  at: Int32Array;
  dirs: Int8Array;
}

/**
 * Goes long when the fast EMA crosses above the slow one and short when it crosses below (or only exits, for a
 * one-sided setting); optional stop-loss and take-profit are placed once the entry fills.
 */
class EmaCross implements Strategy, BacktestFastPath {
  private readonly fast: Ema;
  private readonly slow: Ema;
  private prevDiff = Number.NaN;
  private started = false;
  // Backtest mode: the crossing bars (and +1 up / −1 down) found by one fused pass in prepare()
  private crossAt: Int32Array | null = null;
  private crossDir: Int8Array = new Int8Array(0);
  private crossPtr = 0;
  /** Set while the fused loop runs: orders go to this broker's queue instead of becoming order objects */
  private fusedBroker: SimBroker | null = null;

  constructor(private readonly p: EmaCrossParams) {
    this.fast = new Ema(p.fast);
    this.slow = new Ema(p.slow);
  }

  onBar(ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (!this.started) {
      this.started = true;
      if (broker.leverage !== this.p.leverage) broker.setLeverage(this.p.leverage);
    }
    let up: boolean;
    let down: boolean;
    if (this.crossAt !== null) {
      const at = this.crossAt;
      let p = this.crossPtr;
      while (p < at.length && (at[p] as number) < ctx.index) p++;
      this.crossPtr = p;
      if (p === at.length || at[p] !== ctx.index) return;
      const dir = this.crossDir[p] as number;
      this.crossPtr = p + 1;
      up = dir > 0;
      down = dir < 0;
    } else {
      const c = ctx.close(0);
      this.fast.add(c);
      this.slow.add(c);
      const diff = this.fast.value - this.slow.value;
      const prev = this.prevDiff;
      this.prevDiff = diff;
      // NaN until both EMAs are stable: every comparison is false then
      up = prev <= 0 && diff > 0;
      down = prev >= 0 && diff < 0;
    }
    if (!up && !down) return;
    this.act(broker, ctx.price, up, down);
  }

  /** A crossing at a bar that closed at `c`: reverse, enter or exit (the same call from onBar and the fused loop) */
  private act(broker: OrderPort, c: number, up: boolean, down: boolean): void {
    const pos = broker.positionQty;
    const side = this.p.side;
    const wantLong = up && side !== 'short';
    const wantShort = down && side !== 'long';
    if (pos === 0 && !wantLong && !wantShort) return;
    broker.cancelAll();
    const entry = wantLong || wantShort ? qtyForEquityFraction(broker, c, this.p.positionFraction) : 0;
    if (up && pos < 0) this.market(broker, 'buy', -pos + entry, 'exit+entry');
    else if (down && pos > 0) this.market(broker, 'sell', pos + entry, 'exit+entry');
    else if (pos === 0 && entry > 0) this.market(broker, wantLong ? 'buy' : 'sell', entry, 'entry');
  }

  /** A market order: submitted as usual, or queued as plain numbers inside the fused loop */
  private market(broker: OrderPort, side: 'buy' | 'sell', quantity: number, tag: string): void {
    if (this.fusedBroker !== null) this.fusedBroker.queueMarket(side, quantity, tag);
    else broker.submit({ side, type: 'market', quantity, tag });
  }

  /**
   * One pass computing both EMAs with exactly the streaming arithmetic (SMA seed, then (x − ema)·k + ema) and
   * recording where they cross; the value at bar i only uses closes up to i.
   */
  prepare(bars: BarSeries, cache: PrepareCache): void {
    const key = `ema-cross:${this.p.fast}:${this.p.slow}`;
    let crossings = cache.get(key) as Crossings | undefined;
    if (crossings === undefined) {
      const at: number[] = [];
      const dirs: number[] = [];
      findCrossings(bars.close, bars.length, this.p.fast, this.p.slow, at, dirs);
      crossings = { at: Int32Array.from(at), dirs: Int8Array.from(dirs) };
      cache.set(key, crossings);
    }
    this.crossAt = crossings.at;
    this.crossDir = crossings.dirs;
  }

  /** The next crossing bar: nothing else makes this strategy act */
  idleUntil(index: number): number {
    const at = this.crossAt;
    if (at === null) return index + 1;
    let p = this.crossPtr;
    while (p < at.length && (at[p] as number) <= index) p++;
    return p < at.length ? (at[p] as number) : Number.POSITIVE_INFINITY;
  }

  /**
   * Without stop-loss and take-profit the strategy only sends market orders at crossings, so a history-free
   * backtest can run as one fused loop: the EMAs, the broker's bar and the equity curve in a single pass.
   */
  runFused(run: FusedRun): boolean {
    if (this.needsFills()) return false;
    const { fast, slow, leverage } = this.p;
    this.fusedBroker = run.broker;
    emaCrossLoop(run.broker, run.curve, run.bars, run.length, fast, slow, leverage, (c, up, down) =>
      this.act(run.broker, c, up, down),
    );
    return true;
  }

  /** Fills only matter for placing or clearing the stop-loss and take-profit */
  needsFills(): boolean {
    return this.p.stopLossPct > 0 || this.p.takeProfitPct > 0;
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    const { stopLossPct, takeProfitPct } = this.p;
    const pos = fill.positionAfter;
    const broker = ctx.broker;
    if (fill.tag === 'sl' || fill.tag === 'tp') {
      // One of the pair closed the position: drop the other
      if (pos === 0) broker.cancelAll();
      return;
    }
    if (pos === 0 || (stopLossPct === 0 && takeProfitPct === 0)) return;
    const long = pos > 0;
    const exitSide = long ? 'sell' : 'buy';
    const entry = broker.entryPrice;
    if (stopLossPct > 0) {
      const trigger = broker.roundPrice(entry * (long ? 1 - stopLossPct : 1 + stopLossPct));
      broker.submit({
        side: exitSide,
        type: 'stop-market',
        triggerPrice: trigger,
        closePosition: true,
        tag: 'sl',
      });
    }
    if (takeProfitPct > 0) {
      const trigger = broker.roundPrice(entry * (long ? 1 + takeProfitPct : 1 - takeProfitPct));
      broker.submit({
        side: exitSide,
        type: 'take-profit-market',
        triggerPrice: trigger,
        closePosition: true,
        tag: 'tp',
      });
    }
  }
}

/**
 * One pass computing both EMAs with exactly the streaming arithmetic (SMA seed, then (x − ema)·k + ema) and
 * recording the bars where they cross; the value at bar i uses closes up to i only. A leaf function so V8 keeps its
 * optimised code across runs.
 */
function findCrossings(
  close: Float64Array,
  n: number,
  fp: number,
  sp: number,
  at: number[],
  dirs: number[],
): void {
  if (n < sp) return;
  const kf = 2 / (fp + 1);
  const ks = 2 / (sp + 1);
  const seeds = emaCrossSeeds(close, fp, sp);
  let fe = seeds.fast;
  let se = seeds.slow;
  let prev = fe - se;
  for (let i = sp; i < n; i++) {
    const v = close[i] as number;
    fe = (v - fe) * kf + fe;
    se = (v - se) * ks + se;
    const diff = fe - se;
    if ((prev <= 0 && diff > 0) || (prev >= 0 && diff < 0)) {
      at.push(i);
      dirs.push(diff > 0 ? 1 : -1);
    }
    prev = diff;
  }
}

export const emaCrossStrategy = strategyType({
  id: 'ema-cross',
  name: 'EMA crossover',
  description: 'Trades fast/slow EMA crossings, with optional stop-loss and take-profit',
  interfaceVersion: INTERFACE_VERSION,
  params: EmaCrossParamsSchema,
  warmupBars: (p) => p.slow + 1,
  positionSide: (p) => p.side,
  plannedOrders: (p, market) => entryPlan(p.side, p.positionFraction, market),
  create: (p) => new EmaCross(p),
});
