import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../common/format';
import { adlQuantiles, adlRanking } from '../matching/adl';
import type { Account } from '../matching/types';
import { arr, Client, flatReplay, type Harness, minute, obj, startSim } from './harness';

let h: Harness;
afterEach(() => h?.close());

describe('ADL ranking', () => {
  it('is PnL% × effective leverage in profit, PnL% ÷ effective leverage in loss', () => {
    // 600 profit on 660 margin (90.9 %), 6600 notional on 10 600 margin balance (0.6226×): 0.566
    expect(
      adlRanking({ key: 'a', unrealizedPnl: 600, positionMargin: 660, notional: 6600, marginBalance: 10600 }),
    ).toBeCloseTo((600 / 660) * (6600 / 10600), 12);
    expect(
      adlRanking({ key: 'b', unrealizedPnl: -60, positionMargin: 33, notional: 660, marginBalance: 10000 }),
    ).toBeCloseTo(-60 / 33 / (660 / 10000), 12);
  });

  it('puts profitable positions in fifths (4 first to go) and the others at 0', () => {
    const c = (key: string, unrealizedPnl: number) => ({
      key,
      unrealizedPnl,
      positionMargin: 100,
      notional: 1000,
      marginBalance: 1000,
    });
    const q = adlQuantiles([c('loss', -5), c('p1', 1), c('p2', 2), c('p3', 3), c('p4', 4), c('p5', 5)]);
    expect(Object.fromEntries(q)).toEqual({ loss: 0, p1: 0, p2: 1, p3: 2, p4: 3, p5: 4 });
    expect(Object.fromEntries(adlQuantiles([c('alone', 1)]))).toEqual({ alone: 4 });
  });
});

describe('GET /fapi/v1/adlQuantile and positionRisk adl', () => {
  it('ranks each side against every account, refreshed every 30 s', async () => {
    h = await startSim({
      feeds: [
        flatReplay('BTCUSDT', [
          { fromMinute: -1000, price: 60000 },
          { fromMinute: 5, price: 66000 },
        ]),
      ],
      constantPremium: 0,
    });
    const ex = h.sim.exchange;
    const open = (account: Account, side: 'BUY' | 'SELL', qty: string, positionSide?: 'LONG' | 'SHORT') =>
      ex.placeOrder(account, {
        symbol: 'BTCUSDT',
        side,
        type: 'MARKET',
        quantity: new Decimal(qty),
        positionSide,
      });
    const a = ex.createAccount({ balances: { USDT: '10000' } });
    ex.setLeverage(a, 'BTCUSDT', 10);
    open(a, 'BUY', '0.1');
    const b = ex.createAccount({ balances: { USDT: '1000' } });
    open(b, 'BUY', '0.1');
    const c = ex.createAccount({ balances: { USDT: '10000' } });
    open(c, 'SELL', '0.1');
    const hedge = ex.createAccount({ balances: { USDT: '10000' }, dualSidePosition: true });
    open(hedge, 'BUY', '0.010', 'LONG');
    open(hedge, 'SELL', '0.010', 'SHORT');

    const quantile = async (account: Account) =>
      obj(arr((await new Client(h.url, account, h.clock).signed('GET', '/fapi/v1/adlQuantile')).json)[0]);
    // At the entry price nobody is in profit
    expect(await quantile(a)).toEqual({ symbol: 'BTCUSDT', adlQuantile: { LONG: 0, SHORT: 0, BOTH: 0 } });

    // Price +10 %: longs rank B (20×, small wallet) > A (10×) > the hedge account's long; the short is in loss
    h.until(minute(5) + 10_000);
    expect((await quantile(b)).adlQuantile).toEqual({ LONG: 0, SHORT: 0, BOTH: 4 });
    expect((await quantile(a)).adlQuantile).toEqual({ LONG: 0, SHORT: 0, BOTH: 3 });
    expect((await quantile(c)).adlQuantile).toEqual({ LONG: 0, SHORT: 0, BOTH: 0 });
    // Cross margin in hedge mode: HEDGE as a sign, one value for both open sides
    expect(await quantile(hedge)).toEqual({
      symbol: 'BTCUSDT',
      adlQuantile: { LONG: 1, SHORT: 1, HEDGE: 0 },
    });
    const [risk] = arr((await new Client(h.url, b, h.clock).signed('GET', '/fapi/v3/positionRisk')).json).map(
      obj,
    );
    expect(risk?.adl).toBe(4);
  });
});
