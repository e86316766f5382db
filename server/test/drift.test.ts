import { type Bot, DriftReportResponseSchema } from '@kestrel/contracts/bots';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp } from './helper';
import { paperGridBot, useSimBots } from './sim-bots';

/**
 * GET /api/v1/agents/{id}/drift on PGlite and the Binance simulator: a paper grid bot trades a few closed 1m bars,
 * then its fills are compared with a backtest of the same strategy on the same klines. A paper bot runs the
 * engine's broker on those very bars, so the two must agree trade for trade: any drift here is a bug
 */
describe('drift report', () => {
  const { t, nextBar, eventually } = useSimBots({
    deps: { liveStreamLingerMs: 200 },
    price: '50000',
    wait: { tries: 200, everyMs: 20 },
  });
  let token: string;
  let other: string;

  const grid = paperGridBot('Grid for drift');

  beforeAll(async () => {
    token = (await signUp(t)).access_token;
    other = (await signUp(t)).access_token;
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object, as = token) =>
    t.request({ method, url, headers: bearer(as), ...(payload ? { payload } : {}) });

  const status = async (id: string) => (await call('GET', `/api/v1/agents/${id}/status`)).json().data;
  it('a bot that never ran has nothing to compare (409); another user’s bot is a 404', async () => {
    const created = await call('POST', '/api/v1/agents/', { ...grid, name: 'Never ran' });
    expect(created.statusCode, created.body).toBe(201);
    const bot: Bot = created.json().data;
    const never = await call('GET', `/api/v1/agents/${bot.id}/drift`);
    expect(never.statusCode).toBe(409);
    expect(never.json().detail).toBe('Never ran has not run yet: start it, then compare it');
    expect((await call('GET', `/api/v1/agents/${bot.id}/drift`, undefined, other)).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/agents/${bot.id}/drift` })).statusCode).toBe(401);
  });

  it('a paper bot’s trades match the backtest’s on the same klines: times, prices, PnL and fees equal', async () => {
    // The market settles at 50,000 for a whole bar first: the bar the bot acts on and the bar it starts in both
    // trade at the price it starts at, as the backtest (which knows bars, not the price of a start) sees them
    await nextBar(() => true);
    await nextBar(() => true);
    const bot: Bot = (await call('POST', '/api/v1/agents/', grid)).json().data;
    const started = await call('POST', `/api/v1/agents/${bot.id}/start`);
    expect(started.statusCode).toBe(200);
    const startedAt: number = started.json().data.startedAt;
    await eventually(async () => (await status(bot.id)).openOrders.length === 10);
    // Down through two buy levels, back up through the sells above them: two round trips of the grid
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    await nextBar(async () => (await status(bot.id)).positionQty !== 0);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50100' });
    await nextBar(async () => (await status(bot.id)).realizedPnl > 0);
    expect((await call('POST', `/api/v1/agents/${bot.id}/stop`)).statusCode).toBe(200);

    const res = await call('GET', `/api/v1/agents/${bot.id}/drift`);
    expect(res.statusCode, res.body).toBe(200);
    const report = DriftReportResponseSchema.parse(res.json()).data;
    expect(report).toMatchObject({ botId: bot.id, mode: 'paper', strategy: 'grid', symbol: 'BTCUSDT' });
    // From the last bar closed at the start: the bot's first step
    expect(report.period.from).toBe(Math.floor(startedAt / 60_000) * 60_000 - 60_000);
    expect(report.backtest).toMatchObject({ makerFeeRate: 0.0002, takerFeeRate: 0.0005, slippageBps: 1 });
    expect(report.totals.bot.trades).toBeGreaterThanOrEqual(1);
    expect(report.matched).toHaveLength(report.totals.bot.trades);
    expect(report.botOnly).toEqual([]);
    expect(report.backtestOnly).toEqual([]);
    for (const m of report.matched) {
      expect(m.entryTimeDiffMs).toBe(0);
      expect(m.exitTimeDiffMs).toBe(0);
      expect(m.entrySlippageBps).toBeCloseTo(0, 9);
      expect(m.exitSlippageBps).toBeCloseTo(0, 9);
      expect(m.realizedPnlDiff).toBeCloseTo(0, 9);
      expect(m.feesDiff).toBeCloseTo(0, 9);
    }
    expect(report.totals.bot.realizedPnl).toBeCloseTo(report.totals.backtest.realizedPnl, 9);
    expect(report.totals.bot.realizedPnl).toBeGreaterThan(0);
    expect(report.totals.bot.funding).toBeNull();
    expect(report.notes.join(' ')).toMatch(/Funding is not in the bot’s log/);
  });
});
