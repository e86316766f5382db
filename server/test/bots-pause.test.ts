import type { Bot, BotEvent, BotStatus } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { bearer, type TestApp } from './helper';
import { liveGridBot, paperGridBot, simRecord, useConnectedUser, useSimBots } from './sim-bots';

/**
 * Pausing a running bot and changing one while it runs, on the simulator: a paused live bot's orders stand on the
 * exchange and fill there while it places nothing new; started again it lays a fresh set; a stop or the kill switch
 * cancels what it left. A running bot's name changes at once, its parameters only by a restart it was asked for.
 */
describe('pausing a bot and changing it while it runs', () => {
  const liveDeps = { orderTimings: { deadmanCountdownMs: 600_000 } };
  const { t, simClock, eventually, ...suite } = useSimBots({
    deps: { liveStreamLingerMs: 200, ...liveDeps },
    price: '50000',
  });
  const user = useConnectedUser(t);
  const app: TestApp = t;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    app.request({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
  const status = async (id: string): Promise<BotStatus> =>
    (await call('GET', `/api/v1/agents/${id}/status`)).json().data;
  const events = async (id: string): Promise<BotEvent[]> =>
    (await call('GET', `/api/v1/agents/${id}/events?limit=500`)).json().data;
  const account = () => suite.account(user.keys);
  const sim = () => simRecord(account());
  /** The account flat and without orders on BTCUSDT, so the next live start is not a shared one */
  const flatten = async () => {
    t.sim.exchange.cancelAll(account(), 'BTCUSDT');
    const pos = sim().position;
    if (pos === 0) return;
    const r = await call('POST', '/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: pos > 0 ? 'SELL' : 'BUY',
      type: 'MARKET',
      quantity: Math.abs(pos).toFixed(3),
      reduceOnly: true,
    });
    expect(r.statusCode, r.body).toBe(201);
  };
  const started = async (body: object) => {
    const created = await call('POST', '/api/v1/agents/', body);
    expect(created.statusCode, created.body).toBe(201);
    const bot: Bot = created.json().data;
    const start = await call('POST', `/api/v1/agents/${bot.id}/start`);
    expect(start.statusCode, start.body).toBe(200);
    return bot;
  };

  it('a paused live bot keeps its orders on the exchange, where they fill, and places nothing new', async () => {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const bot = await started(liveGridBot('Paused grid'));
    await eventually(() => sim().open.length === 10);
    const placed = sim().all.length;

    const paused = await call('POST', `/api/v1/agents/${bot.id}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().data).toMatchObject({ state: 'paused' });
    expect(app.app.botRunner.runningIds).toEqual([]);
    // Its ten orders stand, and no countdown of the dead-man switch will cancel them
    expect(sim().open).toHaveLength(10);
    expect(t.sim.exchange.countdownDeadline(account(), 'BTCUSDT')).toBeUndefined();
    expect((await events(bot.id))[0]).toMatchObject({
      kind: 'paused',
      message:
        'Paused by you: its 10 orders stand on the exchange and may fill; it places no new order until you ' +
        'start it again, which lays its orders anew from the price then',
    });
    // A second pause, or a delete while its orders stand, is refused
    expect((await call('POST', `/api/v1/agents/${bot.id}/pause`)).statusCode).toBe(409);
    const deleted = await call('DELETE', `/api/v1/agents/${bot.id}`);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().detail).toBe(
      'This bot is paused, its orders standing: stop it before you delete it',
    );

    // The price dips: two of its buys fill on the exchange, and no counter-order follows while it is paused
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    expect(sim().position).toBeCloseTo(0.006, 9);
    await new Promise((r) => setTimeout(r, 300));
    expect(sim().all.length).toBe(placed);
    expect(sim().open).toHaveLength(8);

    // Started again (a few seconds on): the eight left standing are canceled, and a fresh grid is laid around the
    // price now
    simClock.advance(5_000);
    const again = await call('POST', `/api/v1/agents/${bot.id}/start`, { sharePosition: true });
    expect(again.statusCode, again.body).toBe(200);
    await eventually(() => sim().open.length > 0 && sim().all.length > placed);
    const fresh = sim().open.map((o) => o.clientOrderId);
    expect(
      sim()
        .all.filter((o) => o.status === 'CANCELED')
        .map((o) => o.clientOrderId),
    ).not.toEqual(expect.arrayContaining(fresh));
    const log = await events(bot.id);
    expect(log.map((e) => e.message)).toContain(
      "Starting again: the 8 orders left standing while it was paused canceled; 2 orders filled while it was paused (on /history, not in this bot's figures); it lays its orders anew from the price now",
    );
    await call('POST', `/api/v1/agents/${bot.id}/stop`);
    await flatten();
  });

  it('a stop or the kill switch cancels what a paused bot left standing', async () => {
    const one = await started(liveGridBot('Paused then stopped'));
    await eventually(() => sim().open.length === 10);
    expect((await call('POST', `/api/v1/agents/${one.id}/pause`)).statusCode).toBe(200);
    const stopped = await call('POST', `/api/v1/agents/${one.id}/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().data.state).toBe('stopped');
    expect(sim().open).toEqual([]);
    expect((await events(one.id))[0]?.message).toBe('Stopped by you (10 orders canceled)');
    // The session's PnL counts once: the pause's line carries it, the stop's adds nothing
    const pnl = (await events(one.id))
      .filter((e) => typeof e.data.sessionPnl === 'number')
      .map((e) => e.data.sessionPnl);
    expect(pnl).toEqual([0, expect.any(Number)]);
    expect((await status(one.id)).realizedPnl).toBeCloseTo(pnl[1] as number, 9);

    const two = await started(liveGridBot('Paused then killed'));
    await eventually(() => sim().open.length === 10);
    expect((await call('POST', `/api/v1/agents/${two.id}/pause`)).statusCode).toBe(200);
    const kill = await call('POST', '/api/v1/risk/kill-switch');
    expect(kill.statusCode, kill.body).toBe(200);
    expect(sim().open).toEqual([]);
    expect((await call('GET', `/api/v1/agents/${two.id}`)).json().data.state).toBe('stopped');
    await call('DELETE', '/api/v1/risk/kill-switch');
    await flatten();
  });

  it('a paused paper bot withdraws its paper orders and says so', async () => {
    const bot = await started(paperGridBot('Paper pause'));
    await eventually(async () => (await status(bot.id)).openOrders.length > 0);
    const paused = await call('POST', `/api/v1/agents/${bot.id}/pause`);
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await events(bot.id))[0]?.message).toMatch(
      /^Paused by you: a paper bot's orders live in its session, so its \d+ orders went with it; it places no new order/,
    );
    expect((await status(bot.id)).openOrders).toEqual([]);
    expect((await call('POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(bot.id)).openOrders.length > 0);
    await call('POST', `/api/v1/agents/${bot.id}/stop`);
  });

  it("a running bot's name changes at once; its parameters only by the restart it was asked for", async () => {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const bot = await started(liveGridBot('Edited grid'));
    await eventually(() => sim().open.length === 10);
    const first = sim().open.map((o) => o.clientOrderId);

    const renamed = await call('PATCH', `/api/v1/agents/${bot.id}`, { name: 'Renamed grid' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data).toMatchObject({ name: 'Renamed grid', state: 'running' });
    expect(sim().open.map((o) => o.clientOrderId)).toEqual(first);

    const wider = { lower: 48_000, upper: 52_000, gridCount: 10, quantityPerGrid: 0.003 };
    const refused = await call('PATCH', `/api/v1/agents/${bot.id}`, { params: wider, budget: 600 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'RESTART_NEEDED',
      detail:
        'Changing its parameters and budget restarts the bot: its orders are canceled and laid anew from the ' +
        'price now. Send restart: true to do so',
    });
    const locked = await call('PATCH', `/api/v1/agents/${bot.id}`, { symbol: 'ETHUSDT', restart: true });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().detail).toBe("A running bot's symbol cannot change: stop or pause it first");
    expect(sim().open.map((o) => o.clientOrderId)).toEqual(first);

    const restarted = await call('PATCH', `/api/v1/agents/${bot.id}`, { params: wider, restart: true });
    expect(restarted.statusCode, restarted.body).toBe(200);
    expect(restarted.json().data).toMatchObject({
      state: 'running',
      params: { lower: 48_000, upper: 52_000 },
    });
    await eventually(
      () => sim().open.length === 10 && !sim().open.some((o) => first.includes(o.clientOrderId)),
    );
    // The new grid spans the new range: its lowest buy at 48,000
    expect(Math.min(...sim().open.map((o) => o.price.toNumber()))).toBe(48_000);
    expect((await events(bot.id)).map((e) => e.message)).toContain(
      'Settings changed while it ran (parameters): grid on BTCUSDT 1m, 5×, budget 500 USDT, live; starting again with them',
    );
    await call('POST', `/api/v1/agents/${bot.id}/stop`);
    await flatten();
  });
});
