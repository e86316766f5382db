import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveBrokerConfig, runBacktest } from '../../backtest/runner';
import type { BarSeries } from '../../bars/bars';
import { generateBars } from '../../bars/bars';
import { SimBroker } from '../../broker/sim-broker';
import { EngineInputError, StrategyError } from '../../errors';
import { strategyType } from '../../strategy/registry';
import { INTERFACE_VERSION, type TradeSignal } from '../../strategy/strategy';
import { StrategyDriver } from '../../strategy/strategy-driver';
import { bars, frictionless } from '../../strategy/test-bars';
import { builtInStrategies } from '../built-in';
import { emaCrossStrategy } from '../ema-cross/strategy';
import { webhookSignalStrategy } from './strategy';

const FLAT: [number, number, number, number] = [100, 100, 100, 100];

/**
 * A live bot's loop on the simulated broker: bars close one by one (fills answered inside them, as a paper bot's
 * are) and signals arrive between them, at the last close unless told otherwise
 */
class Bot {
  readonly broker: SimBroker;
  readonly driver: StrategyDriver;
  private i = -1;

  constructor(
    params: Record<string, unknown>,
    private readonly series: BarSeries = bars(Array.from({ length: 12 }, () => FLAT)),
    type = webhookSignalStrategy,
  ) {
    this.broker = new SimBroker(resolveBrokerConfig(frictionless), series);
    this.driver = new StrategyDriver(type, params, series, this.broker);
    this.driver.reactInsideBars(this.broker);
  }

  /** The next bar: its orders and triggers, then its close handed to the strategy */
  bar(): this {
    this.i++;
    this.broker.processBar(this.i);
    this.broker.unseenFills = 0;
    this.driver.onBarClosed(this.i, this.broker.newFills);
    return this;
  }

  signal(signal: TradeSignal, price = this.series.close[this.i] as number): boolean {
    return this.driver.onSignal(signal, price, this.i);
  }

  /** Fills after the first `from`, as [tag, side, quantity, positionAfter] */
  fills(from = 0): [string, string, number, number][] {
    return this.broker.fills.slice(from).map((f) => [f.tag, f.side, f.quantity, f.positionAfter]);
  }

  get working(): [string, string, string, number][] {
    return [...this.broker.inFlightOrders, ...this.broker.openOrders].map((o) => [
      o.tag,
      o.side,
      o.type,
      o.closePosition ? o.triggerPrice : o.quantity,
    ]);
  }
}

// 10,000 USDT × 0.5 at 3× leverage at 100: 150 base units either way
const SIZED = 150;

describe('webhook signals', () => {
  it('opens a long sized from the budget on a buy, at the next open, at its own leverage', () => {
    const bot = new Bot({}).bar();
    expect(bot.signal({ action: 'buy' })).toBe(true);
    expect(bot.working).toEqual([['entry', 'buy', 'market', SIZED]]);
    bot.bar();
    expect(bot.broker.leverage).toBe(3);
    expect(bot.fills()).toEqual([['entry', 'buy', SIZED, SIZED]]);
    expect(bot.broker.fills[0]?.price).toBe(100);
  });

  it('does nothing on a second buy without a quantity, filled or still on its way', () => {
    const bot = new Bot({}).bar();
    bot.signal({ action: 'buy' });
    // The alert fires again before the entry filled: the order out stands, no second one joins it
    bot.signal({ action: 'buy' });
    expect(bot.working).toEqual([['entry', 'buy', 'market', SIZED]]);
    bot.bar();
    bot.signal({ action: 'buy' });
    expect(bot.working).toEqual([]);
    bot.bar();
    expect(bot.broker.positionQty).toBe(SIZED);
    expect(bot.broker.fills).toHaveLength(1);
  });

  it('reverses on a sell when it takes both sides: the long closed, a short opened', () => {
    const bot = new Bot({}).bar();
    bot.signal({ action: 'buy' });
    bot.bar().signal({ action: 'sell' });
    bot.bar();
    expect(bot.fills()).toEqual([
      ['entry', 'buy', SIZED, SIZED],
      ['exit', 'sell', SIZED, 0],
      ['entry', 'sell', SIZED, -SIZED],
    ]);
    // And back: a buy closes the short and opens a long
    bot.signal({ action: 'buy' });
    bot.bar();
    expect(bot.fills(3)).toEqual([
      ['exit', 'buy', SIZED, 0],
      ['entry', 'buy', SIZED, SIZED],
    ]);
  });

  it('flattens on a close, and a close while flat still cancels a resting entry', () => {
    const bot = new Bot({}).bar();
    bot.signal({ action: 'sell' });
    bot.bar().signal({ action: 'close' });
    expect(bot.working).toEqual([['exit', 'buy', 'market', SIZED]]);
    bot.bar();
    expect(bot.fills()).toEqual([
      ['entry', 'sell', SIZED, -SIZED],
      ['exit', 'buy', SIZED, 0],
    ]);
    bot.signal({ action: 'buy', price: 90 });
    expect(bot.working).toEqual([['entry', 'buy', 'limit', SIZED]]);
    bot.bar().signal({ action: 'close' });
    expect(bot.working).toEqual([]);
    expect(bot.broker.positionQty).toBe(0);
  });

  it('only closes on a sell when it goes long only, and only closes on a buy when it goes short only', () => {
    const long = new Bot({ side: 'long' }).bar();
    long.signal({ action: 'buy' });
    long.bar().signal({ action: 'sell' });
    long.bar();
    expect(long.fills()).toEqual([
      ['entry', 'buy', SIZED, SIZED],
      ['exit', 'sell', SIZED, 0],
    ]);
    long.signal({ action: 'sell' });
    expect(long.working).toEqual([]);

    const short = new Bot({ side: 'short' }).bar();
    short.signal({ action: 'buy' });
    expect(short.working).toEqual([]);
    short.signal({ action: 'sell' });
    short.bar().signal({ action: 'buy' });
    short.bar();
    expect(short.fills()).toEqual([
      ['entry', 'sell', SIZED, -SIZED],
      ['exit', 'buy', SIZED, 0],
    ]);
  });

  it('takes the quantity a signal names (rounded to the lot), at its limit price, and adds it to a position', () => {
    const bot = new Bot({}, bars([FLAT, FLAT, [100, 100, 98, 99], FLAT, FLAT])).bar();
    bot.signal({ action: 'buy', quantity: 0.12345 });
    bot.bar();
    expect(bot.fills()).toEqual([['entry', 'buy', 0.123, 0.123]]);
    // Already long: a named quantity adds, here resting at 98.5 until bar 2 falls to it
    bot.signal({ action: 'buy', quantity: 2, price: 98.54 });
    expect(bot.broker.inFlightOrders.map((o) => [o.type, o.price, o.quantity])).toEqual([['limit', 98.5, 2]]);
    bot.bar();
    expect(bot.fills(1)).toEqual([['entry', 'buy', 2, 2.123]]);
    expect(bot.broker.fills[1]?.price).toBe(98.5);
    // A quantity under one lot sends nothing (a live bot would stop on it)
    bot.signal({ action: 'buy', quantity: 0.0004 });
    expect(bot.working).toEqual([]);
  });

  it('places stop-loss and take-profit at the entry fill, again from the average entry when it adds', () => {
    const rows: [number, number, number, number][] = [FLAT, FLAT, FLAT, FLAT, [100, 100, 96, 97], FLAT];
    const bot = new Bot({ stopLossPct: 0.02, takeProfitPct: 0.05 }, bars(rows)).bar();
    bot.signal({ action: 'buy', quantity: 1 });
    bot.bar();
    expect(bot.working).toEqual([
      ['sl', 'sell', 'stop-market', 98],
      ['tp', 'sell', 'take-profit-market', 105],
    ]);
    // Bar 2 closes at 100 and the added 1 fills at bar 3's open (100): the average stays 100, the exits are
    // placed anew, the earlier ones canceled (never two stops on one position)
    bot.bar().signal({ action: 'buy', quantity: 1 });
    bot.bar();
    expect(bot.broker.positionQty).toBe(2);
    expect(bot.working).toEqual([
      ['sl', 'sell', 'stop-market', 98],
      ['tp', 'sell', 'take-profit-market', 105],
    ]);
    // Bar 4 falls to 96: stopped at 98, the take-profit left over canceled with it
    bot.bar();
    expect(bot.fills(2)).toEqual([['sl', 'sell', 2, 0]]);
    expect(bot.broker.fills[2]?.price).toBe(98);
    expect(bot.working).toEqual([]);
  });

  it('keeps a reversal’s entry when its close fills, and places the short’s exits at the entry', () => {
    const bot = new Bot({ stopLossPct: 0.1 }).bar();
    bot.signal({ action: 'buy' });
    bot.bar().signal({ action: 'sell' });
    bot.bar();
    expect(bot.broker.positionQty).toBe(-SIZED);
    expect(bot.working).toEqual([['sl', 'buy', 'stop-market', 110]]);
  });

  it('never trades in a backtest, and is listed as a strategy that takes signals', () => {
    const walk = generateBars({ seed: 7, count: 500, startTime: 0, volatility: 0.002 });
    const r = runBacktest(webhookSignalStrategy, {}, walk, frictionless);
    expect(r.fills).toEqual([]);
    expect(r.metrics.finalEquity).toBe(10_000);
    expect(builtInStrategies.get('webhook-signal')).toBe(webhookSignalStrategy);
    expect(
      [...builtInStrategies.values()].filter((type) => type.takesSignals).map((type) => type.id),
    ).toEqual(['webhook-signal']);
    expect(webhookSignalStrategy.parseParams({})).toEqual({
      side: 'both',
      positionFraction: 0.5,
      leverage: 3,
      stopLossPct: 0,
      takeProfitPct: 0,
    });
    expect(() => webhookSignalStrategy.parseParams({ leverage: 200 })).toThrow(
      /webhook-signal params: leverage/,
    );
  });

  it('plans its entry for the checks before a bot starts: the short one for short only, the long one else', () => {
    const market = { price: 100, budget: 1_000, leverage: 3 };
    const side = (params: Record<string, unknown>) =>
      webhookSignalStrategy.plannedOrders(params, market).map((o) => [o.side, o.quantity]);
    expect(side({})).toEqual([['buy', 15]]);
    expect(side({ side: 'short' })).toEqual([['sell', 15]]);
    expect(webhookSignalStrategy.positionSide({ side: 'long' })).toBe('long');
    expect(webhookSignalStrategy.positionSide({})).toBe('both');
  });
});

describe('StrategyDriver.onSignal', () => {
  it('returns false and calls nothing for a strategy without onSignal', () => {
    const bot = new Bot({ fast: 2, slow: 3 }, undefined, emaCrossStrategy).bar();
    expect(bot.signal({ action: 'buy' })).toBe(false);
    expect(bot.working).toEqual([]);
    expect(emaCrossStrategy.takesSignals).toBe(false);
  });

  it('refuses a malformed signal before the strategy sees it, naming the field', () => {
    const bot = new Bot({}).bar();
    expect(() => bot.signal({ action: 'buy', quantity: -1 })).toThrow(EngineInputError);
    expect(() => bot.signal({ action: 'buy', price: Number.NaN })).toThrow(/signal price/);
    expect(() => bot.signal({ action: 'hold' } as unknown as TradeSignal)).toThrow(/signal action/);
    expect(() => bot.signal({ action: 'buy' }, 0)).toThrow(/last price/);
    expect(bot.working).toEqual([]);
  });

  it('hands the strategy the last price and the newest closed bar, and names onSignal when it throws', () => {
    const seen: [number, number][] = [];
    const probe = strategyType({
      id: 'signal-probe',
      name: 'signal probe',
      description: 'records what a signal sees, throws on a close',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({}),
      warmupBars: () => 1,
      create: () => ({
        onBar() {},
        onSignal(signal: TradeSignal, ctx) {
          if (signal.action === 'close') throw new Error('no close here');
          seen.push([ctx.price, ctx.index]);
        },
      }),
    });
    const bot = new Bot({}, undefined, probe).bar().bar();
    expect(bot.signal({ action: 'buy' }, 101.5)).toBe(true);
    expect(seen).toEqual([[101.5, 1]]);
    const error = (() => {
      try {
        bot.signal({ action: 'close' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(StrategyError);
    expect(error).toMatchObject({ strategyId: 'signal-probe', hook: 'onSignal', barIndex: 1 });
  });
});
