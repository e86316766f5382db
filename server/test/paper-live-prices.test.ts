import type { Bot, BotEvent, BotStatus } from '@kestrel/contracts/bots';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp, type TestApp } from './helper';
import { paperGridBot, useSimBots } from './sim-bots';

/**
 * A paper bot on the simulator's live prices: its fills come as the price moves inside the bar (the kline
 * stream's forming candles), not at the close, and a restart inside that bar stands where the bot stood, logging
 * nothing twice.
 */
describe('a paper bot on live prices', () => {
  const { t, simClock, advance, eventually, anotherApp } = useSimBots({
    deps: { liveStreamLingerMs: 200 },
    price: '50000',
  });
  let token: string;
  let app: TestApp = t;
  beforeAll(async () => {
    token = (await signUp(t)).access_token;
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const status = async (id: string): Promise<BotStatus> =>
    (await call('GET', `/api/v1/agents/${id}/status`)).json().data;
  const events = async (id: string): Promise<BotEvent[]> =>
    (await call('GET', `/api/v1/agents/${id}/events?limit=500`)).json().data;
  const barOf = (ms: number) => ms - (ms % 3_600_000);

  it('fills inside the bar as the price moves, and after a restart in that bar stands where it stood', async () => {
    // A 1h bot: the bar in progress stays open through the whole test
    const created = await call('POST', '/api/v1/agents/', {
      ...paperGridBot('Paper on prices'),
      interval: '1h',
    });
    expect(created.statusCode, created.body).toBe(201);
    const bot: Bot = created.json().data;
    const hour = barOf(simClock.now());
    expect((await call('POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(bot.id)).openOrders.length === 10);

    // The price dips through two buy levels: a second of the simulator's stream later both have filled, their
    // counter-sells stand, and the figures are at the new price, with the bar still open
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    await advance(2000);
    await eventually(async () => (await status(bot.id)).positionQty > 0.0059);
    const s = await status(bot.id);
    expect(s.positionQty).toBeCloseTo(0.006, 9);
    expect(s.entryPrice).toBeCloseTo(49_700, 6);
    expect(s.markPrice).toBe(49_500);
    expect(s.openOrders.filter((o) => o.side === 'SELL').map((o) => Number(o.price))).toContain(49_800);
    expect(barOf(simClock.now())).toBe(hour);
    // The log is newest first
    const fills = (await events(bot.id)).filter((e) => e.kind === 'order_filled');
    expect(fills.map((e) => e.data.price)).toEqual([49_600, 49_800]);
    expect(fills.every((e) => e.data.barTime === hour)).toBe(true);

    // The server restarts inside the bar: the bot resumes where it stood (the bar's walk replayed from its kept
    // points), with nothing logged twice
    await app.app.close();
    app = await anotherApp();
    await eventually(async () => (await status(bot.id)).bot.state === 'running');
    const after = await status(bot.id);
    for (const k of ['positionQty', 'realizedPnl', 'entryPrice'] as const) expect(after[k]).toEqual(s[k]);
    expect(after.openOrders.map((o) => [o.side, o.price]).sort()).toEqual(
      s.openOrders.map((o) => [o.side, o.price]).sort(),
    );

    // Back up in the same bar: the counter-sells take the profit at once
    t.sim.exchange.setPrice('BTCUSDT', { price: '50100' });
    await advance(2000);
    await eventually(async () => (await status(bot.id)).positionQty === 0);
    expect((await status(bot.id)).realizedPnl).toBeGreaterThan(0);
    expect(barOf(simClock.now())).toBe(hour);
    const log = await events(bot.id);
    expect(log.filter((e) => e.kind === 'order_filled').map((e) => e.data.price)).toEqual([
      50_000, 49_800, 49_600, 49_800,
    ]);
    expect((await call('POST', `/api/v1/agents/${bot.id}/stop`)).statusCode).toBe(200);
  });
});
