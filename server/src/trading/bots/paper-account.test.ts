import { INTERFACE_VERSION, resolveBrokerConfig, type StrategyContext, strategyType } from '@kestrel/engine';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PAPER_NEXT_OPEN, PaperAccount } from './paper-account';

/** Buys at market and rests a limit buy far below on its first bar, then nothing */
const firstBarOrders = strategyType({
  id: 'first-bar-orders',
  name: 'first bar orders',
  description: 'a market buy and a resting limit buy on the first bar',
  interfaceVersion: INTERFACE_VERSION,
  params: z.object({}),
  warmupBars: () => 1,
  create: () => {
    let done = false;
    return {
      onBar(ctx: StrategyContext) {
        if (done) return;
        done = true;
        ctx.broker.submit({ side: 'buy', type: 'market', quantity: 0.01 });
        ctx.broker.submit({ side: 'buy', type: 'limit', price: 40_000, quantity: 0.01 });
      },
    };
  },
});

const bar = (openTime: number, price: number) => ({
  openTime,
  open: price,
  high: price,
  low: price,
  close: price,
  volume: 100,
});

const account = () =>
  new PaperAccount(firstBarOrders, {}, 60_000, resolveBrokerConfig({ broker: { initialBalance: 1_000 } }), {
    limits: { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null },
    origin: 'bot',
  });

describe('a paper bot’s orders between a close and the next bar', () => {
  it('shows a resting order open at once and a market order as filling at the next open, never as sending', () => {
    const a = account();
    a.trade(bar(0, 50_000));
    expect(a.figures().openOrders.map((o) => [o.type, o.status])).toEqual([
      ['MARKET', PAPER_NEXT_OPEN],
      ['LIMIT', 'NEW'],
    ]);
    a.trade(bar(60_000, 50_100));
    const f = a.figures();
    expect(f.positionQty).toBeCloseTo(0.01, 9);
    expect(f.openOrders.map((o) => [o.type, o.status])).toEqual([['LIMIT', 'NEW']]);
  });

  it('with `begin`, the first step’s orders reach the book at the start price at once', () => {
    const a = account();
    a.trade(bar(0, 50_000), 50_200);
    const begun = a.begin(60_000, 50_200, 0);
    expect(begun.log.find((e) => e.kind === 'order_filled')?.data).toMatchObject({ side: 'buy', barTime: 0 });
    const f = a.figures();
    expect(f.positionQty).toBeCloseTo(0.01, 9);
    expect(f.entryPrice).toBeGreaterThanOrEqual(50_200);
    expect(f.markPrice).toBe(50_200);
    // The bar in progress closes: completed from the start price on, the fill not taken twice
    const closed = a.trade({
      openTime: 60_000,
      open: 50_200,
      high: 50_300,
      low: 50_100,
      close: 50_250,
      volume: 100,
    });
    expect(closed.log.filter((e) => e.kind === 'order_filled')).toEqual([]);
    expect(a.figures().positionQty).toBeCloseTo(0.01, 9);
  });
});
