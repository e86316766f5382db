import { describe, expect, it } from 'vitest';
import { BarSeries } from '../bars/bars';
import { type BrokerSettingsInput, brokerConfig } from './config';
import type { OrderRequest } from './orders';
import { SimBroker } from './sim-broker';

const T0 = Date.UTC(2025, 0, 1, 1, 0); // 01:00 UTC, far from a funding time

type Ohlc = readonly [number, number, number, number];

/**
 * Drives a broker over crafted bars; `plan[i]` orders are submitted as bar i closes (they act from bar i + 1)
 */
function run(
  bars: readonly Ohlc[],
  plan: Record<number, OrderRequest[]>,
  settings: BrokerSettingsInput = {},
  start = T0,
): SimBroker {
  const series = new BarSeries(60_000, bars.length);
  bars.forEach(([o, h, l, c], i) => {
    series.append(start + i * 60_000, o, h, l, c, 1);
  });
  const broker = new SimBroker(
    brokerConfig({ initialBalance: 10_000, leverage: 10, slippageBps: 0, minNotional: 5, ...settings }),
    series,
  );
  for (let i = 0; i < series.length; i++) {
    broker.processBar(i);
    for (const req of plan[i] ?? []) broker.submit(req);
  }
  return broker;
}

const flat = (p: number): Ohlc => [p, p, p, p];

describe('SimBroker accounting (hand-computed)', () => {
  it('charges the taker fee on a market entry and the maker fee on a limit exit', () => {
    const b = run([flat(100), flat(100), [100, 111, 99, 105]], {
      0: [{ side: 'buy', type: 'market', quantity: 1 }],
      1: [{ side: 'sell', type: 'limit', price: 110, quantity: 1, reduceOnly: true }],
    });
    // entry fee 100 × 0.0005 = 0.05, exit fee 110 × 0.0002 = 0.022, pnl +10
    expect(b.fills.map((f) => [f.side, f.price, f.liquidity])).toEqual([
      ['buy', 100, 'taker'],
      ['sell', 110, 'maker'],
    ]);
    expect(b.feesPaid).toBeCloseTo(0.072, 12);
    expect(b.walletBalance).toBeCloseTo(10_009.928, 9);
    expect(b.positionQty).toBe(0);
    expect(b.trades).toHaveLength(1);
    expect(b.trades[0]?.netPnl).toBeCloseTo(9.928, 9);
  });

  it('applies adverse slippage to market fills', () => {
    const b = run(
      [flat(100), flat(100), flat(100)],
      { 0: [{ side: 'buy', type: 'market', quantity: 1 }] },
      { slippageBps: 10 },
    );
    // 100 × 1.001 = 100.1
    expect(b.fills[0]?.price).toBe(100.1);
  });

  it('adds market impact in proportion to order size over bar volume', () => {
    // bars have volume 1; selling 0.5 with impact 0.02 moves 1 %, plus 1 bp: 100 × (1 − 0.0101) = 98.99
    const b = run(
      [flat(100), flat(100), flat(100)],
      { 0: [{ side: 'sell', type: 'market', quantity: 0.5 }] },
      {
        slippageBps: 1,
        slippageImpact: 0.02,
        tickSize: 0.01,
      },
    );
    expect(b.fills[0]?.price).toBe(98.99);
  });

  it('realizes a partial close and keeps the rest at the same entry', () => {
    const b = run(
      [flat(100), flat(100), flat(120), flat(90), flat(90)],
      {
        0: [{ side: 'buy', type: 'market', quantity: 2 }],
        1: [{ side: 'sell', type: 'market', quantity: 0.5 }],
        2: [{ side: 'sell', type: 'market', quantity: 1.5 }],
      },
      { marginMode: 'isolated' },
    );
    const [open, part, rest] = b.fills;
    expect(open?.fee).toBeCloseTo(0.1, 12);
    expect(part?.realizedPnl).toBeCloseTo(10, 12); // 0.5 × (120 − 100)
    expect(part?.positionAfter).toBe(1.5);
    expect(rest?.realizedPnl).toBeCloseTo(-15, 12); // 1.5 × (90 − 100)
    // 10000 − 0.1 + 10 − 0.03 − 15 − 0.0675
    expect(b.walletBalance).toBeCloseTo(9_994.8025, 9);
    const trade = b.trades[0];
    expect(trade?.maxQuantity).toBe(2);
    expect(trade?.exitPrice).toBeCloseTo(97.5, 12); // (0.5 × 120 + 1.5 × 90) / 2
    // Opened at bar 1's open, closed at bar 3's (each order fills at the open after the bar that sent it)
    expect(trade?.entryTime).toBe(T0 + 60_000);
    expect(trade?.exitTime).toBe(T0 + 3 * 60_000);
    expect(b.fills.map((f) => f.time)).toEqual([T0 + 60_000, T0 + 2 * 60_000, T0 + 3 * 60_000]);
    expect(b.trades).toHaveLength(1);
  });

  it('releases isolated margin pro rata on a partial close, leaving the liquidation price unchanged', () => {
    const series: Ohlc[] = [flat(100), flat(100), flat(100), flat(100)];
    const before = run(
      series.slice(0, 2),
      { 0: [{ side: 'buy', type: 'market', quantity: 2 }] },
      { marginMode: 'isolated' },
    );
    expect(before.isolatedWallet).toBeCloseTo(20, 12); // 2 × 100 / 10
    // (20 − 200) / (2 × 0.004 − 2)
    expect(before.liquidationPrice).toBeCloseTo(180 / 1.992, 9);
    const after = run(
      series,
      {
        0: [{ side: 'buy', type: 'market', quantity: 2 }],
        1: [{ side: 'sell', type: 'market', quantity: 0.5 }],
      },
      { marginMode: 'isolated' },
    );
    expect(after.isolatedWallet).toBeCloseTo(15, 12);
    expect(after.liquidationPrice).toBeCloseTo(180 / 1.992, 9);
  });

  it('settles funding at 08:00 UTC: the long pays, the short receives', () => {
    const start = Date.UTC(2025, 0, 1, 7, 57);
    const bars: Ohlc[] = [flat(100), flat(100), flat(100), flat(105), flat(105)];
    const long = run(bars, { 0: [{ side: 'buy', type: 'market', quantity: 1 }] }, {}, start);
    // 1 × 105 × 0.0001 at the 08:00 bar's open
    expect(long.fundingPaid).toBeCloseTo(0.0105, 12);
    expect(long.walletBalance).toBeCloseTo(10_000 - 0.05 - 0.0105, 9);
    const short = run(bars, { 0: [{ side: 'sell', type: 'market', quantity: 1 }] }, {}, start);
    expect(short.fundingPaid).toBeCloseTo(-0.0105, 12);
  });

  it('reads historical funding rates and pays nothing when flat', () => {
    const start = Date.UTC(2025, 0, 1, 7, 58);
    const series = new BarSeries(60_000, 4);
    [100, 100, 100, 100].forEach((p, i) => {
      series.append(start + i * 60_000, p, p, p, p, 1);
    });
    const cfg = brokerConfig(
      { initialBalance: 10_000, slippageBps: 0, minNotional: 5 },
      { fundingRates: { time: [Date.UTC(2025, 0, 1, 0), Date.UTC(2025, 0, 1, 8)], rate: [0.0001, -0.0003] } },
    );
    const broker = new SimBroker(cfg, series);
    broker.processBar(0);
    broker.submit({ side: 'buy', type: 'market', quantity: 2 });
    for (let i = 1; i < 4; i++) broker.processBar(i);
    // 2 × 100 × −0.0003: the long receives 0.06
    expect(broker.fundingPaid).toBeCloseTo(-0.06, 12);
    expect(run([flat(100), flat(100)], {}, {}, start).fundingPaid).toBe(0);
  });

  it('liquidates an isolated long at Binance’s price and takes the whole isolated margin', () => {
    const b = run(
      [flat(10_000), flat(10_000), [10_000, 10_000, 9_000, 9_100], flat(9_100)],
      {
        0: [{ side: 'buy', type: 'market', quantity: 1 }],
      },
      { marginMode: 'isolated' },
    );
    const liq = b.fills[1];
    // (1000 − 10000) / (0.004 − 1) = 9036.1446
    expect(liq?.liquidity).toBe('liquidation');
    expect(liq?.price).toBeCloseTo(9_036.144578, 5);
    // entry fee 5, isolated margin 1000 lost in full
    expect(b.walletBalance).toBeCloseTo(8_995, 9);
    expect(b.liquidations).toBe(1);
    expect(b.trades[0]?.liquidated).toBe(true);
    expect(b.positionQty).toBe(0);
  });

  it('liquidates a cross long when its margin balance falls to the maintenance margin', () => {
    const b = run(
      [flat(10_000), flat(10_000), [10_000, 10_000, 9_000, 9_100]],
      {
        0: [{ side: 'buy', type: 'market', quantity: 1 }],
      },
      { initialBalance: 1_005 },
    );
    // wallet after the 5 fee is 1000: (1000 − 10000) / (0.004 − 1) = 9036.1446; what is left equals the maintenance
    // margin (≈ 36.14), below the 1.25 % clearance fee, so all of it goes
    expect(b.fills[1]?.price).toBeCloseTo(9_000 / 0.996, 6);
    expect(b.liquidationFees).toBeCloseTo((9_000 / 0.996) * 0.004, 6);
    expect(b.walletBalance).toBeCloseTo(0, 6);
  });

  it('liquidates an isolated short when price rises to Binance’s price', () => {
    const b = run(
      [flat(10_000), flat(10_000), [10_000, 11_000, 10_000, 10_900]],
      {
        0: [{ side: 'sell', type: 'market', quantity: 1 }],
      },
      { marginMode: 'isolated' },
    );
    // (1000 + 0 + 10000) / (0.004 + 1) = 10956.1753
    expect(b.fills[1]?.side).toBe('buy');
    expect(b.fills[1]?.price).toBeCloseTo(11_000 / 1.004, 6);
    expect(b.walletBalance).toBeCloseTo(10_000 - 5 - 1_000, 9);
  });

  it('cancels open orders when it liquidates', () => {
    const b = run(
      [flat(10_000), flat(10_000), flat(10_000), [10_000, 10_000, 9_000, 9_100]],
      {
        0: [{ side: 'buy', type: 'market', quantity: 1 }],
        1: [{ side: 'sell', type: 'limit', price: 12_000, quantity: 1, reduceOnly: true }],
      },
      { marginMode: 'isolated' },
    );
    expect(b.openOrders).toHaveLength(0);
    expect(b.closedOrders.find((o) => o.type === 'limit')?.reason).toBe('canceled by liquidation');
  });
});

describe('SimBroker orders', () => {
  it('keeps a submitted order in flight until the next bar, then opens it', () => {
    const series = new BarSeries(60_000, 2);
    series.append(T0, 100, 100, 100, 100, 1);
    series.append(T0 + 60_000, 100, 100, 100, 100, 1);
    const b = new SimBroker(brokerConfig({ minNotional: 5 }), series);
    b.processBar(0);
    const order = b.submit({ side: 'buy', type: 'limit', price: 90, quantity: 1 });
    expect(order.status).toBe('in-flight');
    expect(b.inFlightOrders).toHaveLength(1);
    b.processBar(1);
    expect(order.status).toBe('open');
    expect(b.cancel(order.id)).toBe(true);
    expect(order.status).toBe('canceled');
    expect(b.cancel(order.id)).toBe(false);
  });

  it('fires a stop-loss at its trigger and a gap-through stop at the worse open', () => {
    const b = run([flat(100), flat(100), [100, 101, 94, 96], flat(96)], {
      0: [{ side: 'buy', type: 'market', quantity: 1 }],
      1: [{ side: 'sell', type: 'stop-market', triggerPrice: 95, closePosition: true }],
    });
    expect(b.fills[1]?.price).toBe(95);
    const gap = run([flat(100), flat(100), [90, 91, 89, 90]], {
      0: [
        { side: 'buy', type: 'market', quantity: 1 },
        { side: 'sell', type: 'stop-market', triggerPrice: 95, closePosition: true },
      ],
    });
    expect(gap.fills[1]?.price).toBe(90);
  });

  it('takes profit before stopping out when the bar closes down (open → high → low → close)', () => {
    const b = run([flat(100), flat(100), [100, 106, 94, 95]], {
      0: [{ side: 'buy', type: 'market', quantity: 1 }],
      1: [
        { side: 'sell', type: 'stop-market', triggerPrice: 95, closePosition: true },
        { side: 'sell', type: 'take-profit-market', triggerPrice: 105, closePosition: true },
      ],
    });
    expect(b.fills.map((f) => f.price)).toEqual([100, 105]);
    // The stop then has nothing to close and expires
    expect(b.closedOrders.find((o) => o.type === 'stop-market')?.status).toBe('expired');
  });

  it('trails a stop 2 % under the highest price since activation', () => {
    const b = run([flat(100), flat(100), [100, 110, 100, 110], [110, 120, 110, 120], [120, 120, 110, 111]], {
      0: [{ side: 'buy', type: 'market', quantity: 1 }],
      1: [{ side: 'sell', type: 'trailing-stop-market', callbackRate: 0.02, quantity: 1, reduceOnly: true }],
    });
    // Peak 120 → fires at 117.6
    expect(b.fills[1]?.price).toBeCloseTo(117.6, 9);
  });

  it('trails a buy stop above the lowest price for a short', () => {
    const b = run([flat(100), flat(100), [100, 100, 90, 90], [90, 90, 80, 80], [80, 83, 80, 83]], {
      0: [{ side: 'sell', type: 'market', quantity: 1 }],
      1: [{ side: 'buy', type: 'trailing-stop-market', callbackRate: 0.03, quantity: 1, reduceOnly: true }],
    });
    // Trough 80 → fires at 82.4
    expect(b.fills[1]?.price).toBeCloseTo(82.4, 9);
    expect(b.positionQty).toBe(0);
  });

  it('rejects what the exchange would reject, with the reason', () => {
    const b = run([flat(100), flat(100), flat(100)], {
      0: [
        { side: 'buy', type: 'market', quantity: 0.0004 },
        { side: 'buy', type: 'limit', price: 1, quantity: 1 },
        { side: 'buy', type: 'stop-market', triggerPrice: 99, quantity: 1 },
        { side: 'buy', type: 'market', quantity: 1_000 },
        { side: 'sell', type: 'market', quantity: 1, reduceOnly: true },
      ],
    });
    expect(b.closedOrders.map((o) => o.reason)).toEqual([
      'quantity is below the step size',
      'notional must be no smaller than 5 (-4164)',
      'order would immediately trigger (-2021)',
      'margin is insufficient (-2019)',
      'reduce-only order would not reduce the position (-2022)',
    ]);
    expect(b.walletBalance).toBe(10_000);
  });

  it('fails fast on NaN and on a bad trailing callback', () => {
    const b = run([flat(100)], {});
    expect(() => b.submit({ side: 'buy', type: 'market', quantity: Number.NaN })).toThrow(
      /order quantity must be a finite/,
    );
    expect(() => b.submit({ side: 'buy', type: 'limit', quantity: 1 })).toThrow(/limit order price/);
    expect(() =>
      b.submit({ side: 'sell', type: 'trailing-stop-market', quantity: 1, callbackRate: 0.5 }),
    ).toThrow(/callbackRate/);
  });

  it('flips a position in one fill and opens a new round trip', () => {
    const b = run([flat(100), flat(100), flat(110), flat(110)], {
      0: [{ side: 'buy', type: 'market', quantity: 1 }],
      1: [{ side: 'sell', type: 'market', quantity: 3 }],
    });
    expect(b.positionQty).toBe(-2);
    expect(b.entryPrice).toBe(110);
    expect(b.trades).toHaveLength(1);
    expect(b.trades[0]?.side).toBe('long');
    expect(b.trades[0]?.realizedPnl).toBeCloseTo(10, 12);
  });
});
