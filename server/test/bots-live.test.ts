import type { Bot, BotEvent, BotStatus } from '@kestrel/contracts/bots';
import type { UserEvent } from '@kestrel/exchange-sim';
import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { botRepository } from '../src/trading/bots/bot-repository';
import { bearer, PASSWORD, signUp, storeKeys, type TestApp } from './helper';
import { GRID_AROUND_50K, liveGridBot, simRecord, useConnectedUser, useSimBots } from './sim-bots';

/**
 * A live bot on the simulator through the order manager: its grid placed as real orders (kb-… client ids), fills
 * read back from the exchange, a restart that re-asks every intent and sends nothing twice (the simulator's own
 * record is the judge), and a stop that leaves no order of the bot on the exchange.
 */
describe('live bots', () => {
  // Simulated time runs ~60× faster than the wall clock the manager refreshes the dead-man switch on: a countdown of
  // 10 simulated minutes outlives the test's bars
  const liveDeps = { orderTimings: { deadmanCountdownMs: 600_000 } };
  const { t, simClock, clock, eventually, nextBar, ...suite } = useSimBots({
    // BNBUSDT prices the fees an account with the BNB fee discount pays in BNB
    symbols: ['BTCUSDT', 'BNBUSDT'],
    deps: { liveStreamLingerMs: 200, ...liveDeps },
    price: '50000',
  });
  const user = useConnectedUser(t);
  /** The app the calls go to (a restart replaces it) */
  let app: TestApp = t;

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.request({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
  const status = async (id: string): Promise<BotStatus> =>
    (await call('GET', `/api/v1/agents/${id}/status`)).json().data;
  const events = async (id: string): Promise<BotEvent[]> =>
    (await call('GET', `/api/v1/agents/${id}/events?limit=500`)).json().data;

  /** The trader's own order on BTCUSDT through the server (`send`: as which user), placed */
  const manualOrder = async (send: typeof call, body: object) => {
    const r = await send('POST', '/api/futures/orders/create', { symbol: 'BTCUSDT', ...body });
    expect(r.statusCode, r.body).toBe(201);
  };
  /**
   * Another trader, signed up on the app as it runs now with a fresh demo account of the simulator connected
   * (`input`: its settings): their calls, and their token starts its 15 minutes now
   */
  const ownTrader = async (input?: Parameters<typeof t.demoKeys>[0]) => {
    const auth = await signUp(app);
    const as: typeof call = (method, url, payload) =>
      app.request({ method, url, headers: bearer(auth.access_token), ...(payload ? { payload } : {}) });
    const keys = t.demoKeys(input);
    await storeKeys(app, auth.access_token, keys);
    return { as, keys };
  };
  const account = () => suite.account(user.keys);
  /**
   * The account flat and without orders on BTCUSDT, as a trader leaves it before starting a bot: the suite's bots
   * share one account, and what an earlier test's bot left (its position) would make the next start a shared one
   */
  const flatten = async () => {
    t.sim.exchange.cancelAll(account(), 'BTCUSDT');
    const pos = sim().position;
    if (pos === 0) return;
    await manualOrder(call, {
      side: pos > 0 ? 'SELL' : 'BUY',
      type: 'MARKET',
      quantity: Math.abs(pos).toFixed(3),
      reduceOnly: true,
    });
    expect(sim().position).toBe(0);
  };
  /** The simulator's own record of the account: every order it ever accepted, and the open ones */
  const sim = () => simRecord(account());
  /** The server restarts: a new instance on the same database takes over */
  const restarted = () => suite.anotherApp(liveDeps);

  let bot: Bot;

  it('places its grid on the exchange at Start and answers each fill at once, no bar close needed', async () => {
    const created = await call('POST', '/api/v1/agents/', liveGridBot('Live grid'));
    expect(created.statusCode, created.body).toBe(201);
    bot = created.json().data;
    // Mid-bar: the next close is 30 s away, and simulated time does not move until the test says so
    simClock.advance(60_000 - (simClock.now() % 60_000) + 30_000);
    const barOpen = simClock.now() - (simClock.now() % 60_000);
    const started = await call('POST', `/api/v1/agents/${bot.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().data).toMatchObject({ state: 'running', mode: 'live' });

    // While it runs, the exchange's dead-man switch is armed for the symbol (it cancels if the server goes silent)
    expect(t.sim.exchange.countdownDeadline(account(), 'BTCUSDT')).toBeGreaterThan(simClock.now());
    // The grid stands on the exchange at Start, laid around the price of the start (the level at 50,000 empty)
    await eventually(() => sim().open.length === 10);
    expect(sim().open.every((o) => o.clientOrderId.startsWith('kb-'))).toBe(true);
    expect(
      sim()
        .open.filter((o) => o.side === 'BUY')
        .map((o) => o.price.toNumber())
        .sort((a, b) => a - b),
    ).toEqual([49_000, 49_200, 49_400, 49_600, 49_800]);
    await eventually(async () => (await status(bot.id)).openOrders.length === 10);

    // The price dips: the exchange fills two buys at once; the bot takes them from the account stream and answers
    // each with a sell one level up, still inside the bar the grid started in
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    expect(sim().position).toBeCloseTo(0.006, 9);
    await eventually(() => sim().open.length === 10);
    expect(simClock.now() - (simClock.now() % 60_000)).toBe(barOpen);
    const s = await status(bot.id);
    expect(s.positionQty).toBeCloseTo(0.006, 9);
    expect(s.entryPrice).toBeCloseTo(49_700, 6);
    expect(
      sim()
        .open.filter((o) => o.side === 'SELL')
        .map((o) => o.price.toNumber())
        .sort((a, b) => a - b),
    ).toEqual([49_800, 50_000, 50_200, 50_400, 50_600, 50_800, 51_000]);
    const log = await events(bot.id);
    expect(log.filter((e) => e.kind === 'order_filled')).toHaveLength(2);
    expect(log.filter((e) => e.kind === 'order_sent')).toHaveLength(12);
  });

  it('resumes after a restart without sending any order twice, and cancels its orders when stopped', async () => {
    const placedBefore = sim().all.length;
    const openBefore = sim()
      .open.map((o) => o.clientOrderId)
      .sort();
    const before = await status(bot.id);
    // The two buys' maker fees (0.02 % of 0.003 × 49,800 and × 49,600) are its realized PnL so far
    expect(before.realizedPnl).toBeCloseTo(-0.0002 * 0.003 * (49_800 + 49_600), 9);
    await t.app.close();
    app = await restarted();
    expect(app.app.botRunner.runningIds).toEqual([bot.id]);
    const log = await events(bot.id);
    expect(log[0]).toMatchObject({ kind: 'resumed' });
    // Every intent of the replayed bars was answered from the order manager's record: nothing new reached the exchange
    expect(sim().all.length).toBe(placedBefore);
    expect(
      sim()
        .open.map((o) => o.clientOrderId)
        .sort(),
    ).toEqual(openBefore);
    const s = await status(bot.id);
    expect(s.positionQty).toBeCloseTo(0.006, 9);
    expect(s.openOrders).toHaveLength(10);
    // The replayed fills carry their commission, read back from the exchange's trades: the session's PnL is the same
    expect(s.realizedPnl).toBeCloseTo(before.realizedPnl, 9);

    // After the restart it trades on: a new dip fills the 49,400 buy, and the one order it sends is the answer
    t.sim.exchange.setPrice('BTCUSDT', { price: '49300' });
    await nextBar(() => sim().all.length > placedBefore);
    await new Promise((r) => setTimeout(r, 300));
    expect(sim().all.length).toBe(placedBefore + 1);
    expect(sim().all.at(-1)).toMatchObject({ side: 'SELL', clientOrderId: expect.stringMatching(/^kb-/) });
    expect(sim().all.at(-1)?.price.toNumber()).toBe(49_600);
    await eventually(async () => (await status(bot.id)).positionQty > 0.0089);

    const stopped = await call('POST', `/api/v1/agents/${bot.id}/stop`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(sim().open).toEqual([]);
    expect((await events(bot.id))[0]?.message).toMatch(/^Stopped by you \(10 orders canceled\)$/);
    expect(t.sim.exchange.countdownDeadline(account(), 'BTCUSDT')).toBeUndefined();
    // The bot's position is left to its owner (stopping cancels orders, it does not trade)
    expect(sim().position).toBeCloseTo(0.009, 9);
  });

  it('starts a live bot only with the password given in the last 5 minutes (step-up)', async () => {
    await flatten();
    const clone = await call('POST', `/api/v1/agents/${bot.id}/clone`, { name: 'Live grid again' });
    expect(clone.statusCode, clone.body).toBe(201);
    const copy: Bot = clone.json().data;
    // Nothing runs now: the clock may jump without a bar being owed to anyone
    simClock.advance(6 * 60_000);
    const refused = await call('POST', `/api/v1/agents/${copy.id}/start`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(sim().open).toEqual([]);

    const stepUp = await call('POST', '/api/v1/account/step-up', { password: PASSWORD });
    expect(stepUp.statusCode, stepUp.body).toBe(200);
    const started = await call('POST', `/api/v1/agents/${copy.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect((await call('POST', `/api/v1/agents/${copy.id}/stop`)).statusCode).toBe(200);
  });
  const stepUp = async () => {
    const r = await call('POST', '/api/v1/account/step-up', { password: PASSWORD });
    expect(r.statusCode, r.body).toBe(200);
  };
  const liveGrid = async (name: string, params: object, leverage = 5): Promise<Bot> => {
    const r = await call('POST', '/api/v1/agents/', { ...liveGridBot(name, params), leverage });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data;
  };
  /** A live DCA bot on BTCUSDT 1h at 3×, 1000 USDT of budget: no bar closes in a test, so what it does answers fills */
  const liveDca = async (name: string, params: object): Promise<Bot> => {
    const r = await call('POST', '/api/v1/agents/', {
      name,
      strategy: 'dca',
      params,
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 3,
      budget: 1000,
      mode: 'live',
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data;
  };
  const ofBot = (clientIds: Set<string>) => sim().open.filter((o) => clientIds.has(o.clientOrderId));

  it('sets its leverage on the exchange before its first order; a refusal stops it with the reason and no order', async () => {
    await flatten();
    await stepUp();
    const b = await liveGrid(
      'Leveraged',
      { lower: 40_000, upper: 42_000, gridCount: 2, quantityPerGrid: 0.003 },
      7,
    );
    const started = await call('POST', `/api/v1/agents/${b.id}/start`);
    expect(started.json().data).toMatchObject({ state: 'running' });
    expect(account().configs.get('BTCUSDT')?.leverage).toBe(7);
    expect((await events(b.id)).find((e) => e.kind === 'started')?.message).toMatch(
      /leverage 7× set on the exchange$/,
    );
    expect((await call('POST', `/api/v1/agents/${b.id}/stop`)).json().data).toMatchObject({
      state: 'stopped',
    });

    const placed = sim().all.length;
    t.sim.faults.add({
      kind: 'error',
      method: 'POST',
      path: '/fapi/v1/leverage',
      phase: 'before',
      status: 503,
      code: -1008,
      remaining: 1,
    });
    const refused = await call('POST', `/api/v1/agents/${b.id}/start`);
    expect(refused.json().data).toMatchObject({ state: 'error' });
    expect(refused.json().data.stopReason).toMatch(/^Could not set BTCUSDT leverage to 7× on the exchange: /);
    expect(sim().all.length).toBe(placed);
    t.sim.faults.clear();

    // The account's max-leverage limit holds for a bot as for the trader: refused before the exchange is asked
    // (the exchange's leverage set back to 3×, so a change to it would show)
    const config = account().configs.get('BTCUSDT');
    if (config) config.leverage = 3;
    const limits = {
      maxLeverage: 5,
      dailyLossLimit: null,
      maxDrawdownPercent: null,
      maxPositionNotional: null,
    };
    const put = (payload: object) =>
      app.request({ method: 'PUT', url: '/api/v1/risk/limits', headers: bearer(user.token), payload });
    expect((await put(limits)).statusCode).toBe(200);
    const overLimit = await call('POST', `/api/v1/agents/${b.id}/start`);
    expect(overLimit.json().data).toMatchObject({ state: 'error' });
    expect(overLimit.json().data.stopReason).toBe(
      'Could not set BTCUSDT leverage to 7× on the exchange: Leverage refused: BTCUSDT at 7× is above your max leverage limit of 5×',
    );
    expect(account().configs.get('BTCUSDT')?.leverage).toBe(3);
    expect(sim().all.length).toBe(placed);
    expect((await put({ ...limits, maxLeverage: null })).statusCode).toBe(200);
  });

  it('an order the exchange refuses stops the bot as a failure in the exchange’s words, never as a risk stop', async () => {
    await flatten();
    await stepUp();
    // More than the account's margin: the exchange answers the grid's first order with Binance's -2019, "Margin is
    // insufficient" (none of the account's own limits is set, so nothing on the server refuses it first)
    const created = await call('POST', '/api/v1/agents/', {
      ...liveGridBot('Refused', { lower: 40_000, upper: 42_000, gridCount: 2, quantityPerGrid: 5 }),
      leverage: 5,
      budget: 90_000,
    });
    expect(created.statusCode, created.body).toBe(201);
    const b: Bot = created.json().data;
    expect((await call('POST', `/api/v1/agents/${b.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(b.id)).bot.state === 'error');
    const log = await events(b.id);
    expect(log.some((e) => e.kind === 'order_refused')).toBe(true);
    expect(log.some((e) => e.kind === 'risk_stop')).toBe(false);
    const end = log.find((e) => e.kind === 'error' && 'sessionPnl' in e.data);
    expect(end?.message).toMatch(/^The exchange refused an order: /);
    // The owner is told it stopped after a failure, not that a risk limit stopped it
    const notices = (await call('GET', '/api/v1/notifications?limit=50')).json().data.items as {
      event: string;
      title: string;
    }[];
    const about = notices.filter((n) => n.title.startsWith('Bot “Refused”'));
    expect(about.map((n) => [n.event, n.title])).toContainEqual([
      'bot_stopped',
      'Bot “Refused” stopped after a failure',
    ]);
    expect(about.some((n) => n.event === 'bot_stopped_by_risk')).toBe(false);
  });

  it('takes fills with their fee from the account stream at once, shares the dead-man switch, and shows its figures on every instance', {
    timeout: 120_000,
  }, async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const a = await liveGrid('Grid A', GRID_AROUND_50K);
    const b = await liveGrid('Grid B', {
      lower: 49_100,
      upper: 50_900,
      gridCount: 6,
      quantityPerGrid: 0.003,
    });
    expect((await call('POST', `/api/v1/agents/${a.id}/start`)).statusCode).toBe(200);
    // Two bots on one symbol of one account: the second starts only sharing it
    expect((await call('POST', `/api/v1/agents/${b.id}/start`)).json()).toMatchObject({
      code: 'SYMBOL_SHARED',
    });
    expect((await call('POST', `/api/v1/agents/${b.id}/start`, { sharePosition: true })).statusCode).toBe(
      200,
    );
    await nextBar(
      async () =>
        (await status(a.id)).openOrders.length === 10 && (await status(b.id)).openOrders.length === 6,
    );

    // Both hold the account's one countdown on BTCUSDT: B stopping leaves it armed for A
    expect((await call('POST', `/api/v1/agents/${b.id}/stop`)).json().data).toMatchObject({
      state: 'stopped',
    });
    expect(t.sim.exchange.countdownDeadline(account(), 'BTCUSDT')).toBeGreaterThan(simClock.now());

    // A buy fills on the exchange: the bot takes it from the stream before any bar closes, fee included
    const aIds = new Set((await status(a.id)).openOrders.map((o) => o.clientOrderId));
    const filledBefore = sim().all.filter((o) => aIds.has(o.clientOrderId) && o.status === 'FILLED').length;
    t.sim.exchange.setPrice('BTCUSDT', { price: '49750' });
    expect(sim().all.filter((o) => aIds.has(o.clientOrderId) && o.status === 'FILLED').length).toBe(
      filledBefore + 1,
    );
    await eventually(async () => (await events(a.id)).some((e) => e.kind === 'order_filled'));
    expect((await status(a.id)).positionQty).toBeGreaterThan(0);
    const fill = (await events(a.id)).find((e) => e.kind === 'order_filled');
    expect(fill?.data).toMatchObject({ via: 'stream', price: 49_800, quantity: 0.003 });
    // The simulator's maker rate (0.02 %) on 0.003 × 49,900
    expect(fill?.data.fee).toBeCloseTo(0.003 * 49_800 * 0.0002, 9);
    const here = await status(a.id);
    expect(here.realizedPnl).toBeCloseTo(-(fill?.data.fee as number), 9);

    // Another instance on the same database answers the same figures (written by the instance running the bot)
    await app.app.botRunner.tick();
    const other = await suite.anotherApp();
    expect(other.app.botRunner.runningIds).toEqual([]);
    const there = async () =>
      (
        await other.request({
          method: 'GET',
          url: `/api/v1/agents/${a.id}/status`,
          headers: bearer(user.token),
        })
      ).json().data as BotStatus;
    await eventually(async () => (await there()).positionQty === here.positionQty);
    const seen = await there();
    expect(seen.realizedPnl).toBeCloseTo(here.realizedPnl, 9);
    expect(seen.openOrders.map((o) => o.clientOrderId).sort()).toEqual(
      here.openOrders.map((o) => o.clientOrderId).sort(),
    );
    const summary = (
      await other.request({ method: 'GET', url: '/api/v1/dashboard/bots', headers: bearer(user.token) })
    ).json().data;
    expect(summary.realizedPnl).toBeCloseTo(
      (await call('GET', '/api/v1/dashboard/bots')).json().data.realizedPnl,
      9,
    );
    await other.app.close();

    // The last holder lets go: disarmed
    expect((await call('POST', `/api/v1/agents/${a.id}/stop`)).json().data).toMatchObject({
      state: 'stopped',
    });
    expect(ofBot(aIds)).toEqual([]);
    expect(t.sim.exchange.countdownDeadline(account(), 'BTCUSDT')).toBeUndefined();
  });

  it('counts a fee paid in BNB at BNBUSDT’s price and says which, and keeps it after a restart', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    t.sim.exchange.setPrice('BNBUSDT', { price: '600' });
    // The account pays its fees in BNB (Binance's BNB fee discount: 10 % off)
    t.sim.exchange.transfer(account(), 'BNB', new Decimal('1'));
    t.sim.exchange.setFeeBurn(account(), true);
    const d = await liveGrid('Pays in BNB', GRID_AROUND_50K);
    expect((await call('POST', `/api/v1/agents/${d.id}/start`)).statusCode).toBe(200);
    await nextBar(async () => (await status(d.id)).openOrders.length === 10);

    // The 49,800 buy fills: 0.02 % of 149.4 USDT, 10 % off, at 600 USDT a BNB = 0.00004482 BNB = 0.026892 USDT
    t.sim.exchange.setPrice('BTCUSDT', { price: '49750' });
    await eventually(async () => (await events(d.id)).some((e) => e.kind === 'order_filled'));
    const fill = (await events(d.id)).find((e) => e.kind === 'order_filled');
    expect(fill?.data).toMatchObject({ commission: 0.00004482, commissionAsset: 'BNB', feeRate: 600 });
    expect(fill?.data.fee).toBeCloseTo(0.00004482 * 600, 12);
    expect(fill?.message).toMatch(
      /, fee 0\.0269 USDT \(0\.00004482 BNB at 600 USDT, BNBUSDT 1m open \d\d:\d\d UTC\) /,
    );
    expect((await status(d.id)).realizedPnl).toBeCloseTo(-0.00004482 * 600, 12);

    // The bar closes (the bot answers the fill with a sell), then the server restarts: the replayed fill is read
    // back from the exchange's trades with its BNB fee, priced the same way, and not logged twice
    await nextBar(async () => (await events(d.id)).filter((e) => e.kind === 'order_sent').length === 11);
    const before = await status(d.id);
    await app.app.close();
    app = await restarted();
    expect(app.app.botRunner.runningIds).toContain(d.id);
    const after = await status(d.id);
    expect(after.positionQty).toBeCloseTo(0.003, 9);
    expect(after.realizedPnl).toBeCloseTo(before.realizedPnl, 12);
    expect((await events(d.id)).filter((e) => e.kind === 'order_filled')).toHaveLength(1);
    expect((await call('POST', `/api/v1/agents/${d.id}/stop`)).statusCode).toBe(200);
    t.sim.exchange.setFeeBurn(account(), false);
  });

  it('refuses a live bot on a symbol the account already trades, saying why, and starts it when sharing is accepted', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    // The trader's own long on BTCUSDT, and a resting buy of theirs
    await manualOrder(call, { side: 'BUY', type: 'MARKET', quantity: '0.004' });
    await manualOrder(call, {
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '0.004',
      price: '45000',
    });
    const placedBefore = sim().all.length;
    const g = await liveGrid('Next to a manual long', GRID_AROUND_50K);
    const refused = await call('POST', `/api/v1/agents/${g.id}/start`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SYMBOL_SHARED' });
    expect(refused.json().detail).toBe(
      'BTCUSDT already has a long position of 0.004 and 1 open order of yours on this account. In one-way mode ' +
        'the account holds one position per symbol: this bot’s orders would add to or close it, and its figures ' +
        'would count only its own fills. Close or stop them first, or start it sharing BTCUSDT.',
    );
    expect((await status(g.id)).bot.state).toBe('stopped');
    expect(sim().all.length).toBe(placedBefore);

    // Accepted: it starts and lays its grid beside the trader's position
    const shared = await call('POST', `/api/v1/agents/${g.id}/start`, { sharePosition: true });
    expect(shared.statusCode, shared.body).toBe(200);
    await eventually(async () => (await status(g.id)).openOrders.length === 10);
    expect((await status(g.id)).positionQty).toBe(0);
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });

  it('a DCA bot’s take-profit and stop stand on the exchange right after its entry fills, no bar close needed', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const d = await liveDca('Live DCA', {
      baseOrderSize: 200,
      safetyOrderSize: 200,
      safetyOrderCount: 2,
      priceDeviation: 0.01,
      takeProfit: 0.01,
      stopLoss: 0.05,
    });
    // Simulated time stands still: no bar closes while it answers its fills
    const hour = simClock.now() - (simClock.now() % 3_600_000);
    expect((await call('POST', `/api/v1/agents/${d.id}/start`)).statusCode).toBe(200);
    // The base order (200 USDT at 50,000 = 0.004) fills at once; the take-profit 1 % above the entry and two
    // safety orders rest on the exchange, and the 5 % stop waits there as a conditional order
    await eventually(() => sim().open.length === 3 && account().algoOrders.size > 0);
    expect(sim().position).toBeCloseTo(0.004, 9);
    const entry = (await status(d.id)).entryPrice as number;
    const tp = sim().open.find((o) => o.side === 'SELL');
    expect(tp).toMatchObject({ type: 'LIMIT', reduceOnly: true });
    expect(tp?.price.toNumber()).toBeCloseTo(Math.round(entry * 1.01 * 10) / 10, 6);
    expect(
      sim()
        .open.filter((o) => o.side === 'BUY')
        .map((o) => o.type),
    ).toEqual(['LIMIT', 'LIMIT']);
    const stop = [...account().algoOrders.values()].find((o) => o.clientAlgoId.startsWith('kb-'));
    expect(stop).toMatchObject({ orderType: 'STOP_MARKET', side: 'SELL', closePosition: true });
    expect(stop?.triggerPrice.toNumber()).toBeCloseTo(Math.round(entry * 0.95 * 10) / 10, 6);
    expect(simClock.now() - (simClock.now() % 3_600_000)).toBe(hour);

    // The take-profit fills: the cycle ends at once, its safety orders and stop canceled
    t.sim.exchange.setPrice('BTCUSDT', { price: String(Math.ceil(entry * 1.012)) });
    await eventually(async () => (await status(d.id)).positionQty === 0 && sim().open.length === 0);
    await eventually(() => stop?.status === 'CANCELED');
    expect((await status(d.id)).realizedPnl).toBeGreaterThan(0);
    expect((await call('POST', `/api/v1/agents/${d.id}/stop`)).statusCode).toBe(200);
  });

  it('a DCA bot’s trailing take-profit stands on the exchange as its trailing stop and follows the price there', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const d = await liveDca('Trailing DCA', {
      baseOrderSize: 200,
      safetyOrderCount: 0,
      takeProfit: 0.01,
      trailingDeviation: 0.005,
    });
    expect((await call('POST', `/api/v1/agents/${d.id}/start`)).statusCode).toBe(200);
    const trailing = () =>
      [...account().algoOrders.values()].find(
        (o) =>
          o.clientAlgoId.startsWith('kb-') && o.orderType === 'TRAILING_STOP_MARKET' && o.status === 'NEW',
      );
    await eventually(() => sim().position > 0 && trailing() !== undefined);
    const entry = (await status(d.id)).entryPrice as number;
    // Armed at the 1 % target, coming back 0.5 % from the best price after it: held by the exchange itself
    expect(trailing()).toMatchObject({ side: 'SELL', reduceOnly: true });
    expect(trailing()?.activatePrice?.toNumber()).toBeCloseTo(Math.round(entry * 1.01 * 10) / 10, 6);
    expect(trailing()?.callbackRate?.toNumber()).toBe(0.5);
    // Past the target to 3 % up: still held; back 0.5 % from there: the exchange closes the position there
    t.sim.exchange.setPrice('BTCUSDT', { price: String(Math.round(entry * 1.03)) });
    await suite.advance(1000);
    expect(sim().position).toBeGreaterThan(0);
    t.sim.exchange.setPrice('BTCUSDT', { price: String(Math.round(entry * 1.03 * 0.994)) });
    await suite.advance(1000);
    await eventually(async () => sim().position === 0 && (await status(d.id)).positionQty === 0);
    // Sold near the top, not at the 1 % target
    expect((await status(d.id)).realizedPnl).toBeGreaterThan(0.004 * entry * 0.02);
    expect((await call('POST', `/api/v1/agents/${d.id}/stop`)).statusCode).toBe(200);
  });

  it('a grid that leaves its band on the price closes out at once, no bar close needed', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    // Stops 1 % outside 49,000–51,000: below 48,510 or above 51,510. A 1h bot: no bar closes meanwhile
    const b = await call('POST', '/api/v1/agents/', {
      ...liveGridBot('Break-out', { ...GRID_AROUND_50K, stopOutsidePct: 0.01 }),
      interval: '1h',
    });
    expect(b.statusCode, b.body).toBe(201);
    const g: Bot = b.json().data;
    const hour = simClock.now() - (simClock.now() % 3_600_000);
    expect((await call('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    await eventually(() => sim().open.length === 10);
    // The price falls through every buy level (the grid is long 0.015) and on past the band
    t.sim.exchange.setPrice('BTCUSDT', { price: '48000' });
    expect(sim().position).toBeCloseTo(0.015, 9);
    // The next second of the stream carries the price: the bot cancels its grid and sells its position at market
    await suite.advance(1000);
    await eventually(() => sim().open.length === 0 && sim().position === 0);
    expect(simClock.now() - (simClock.now() % 3_600_000)).toBe(hour);
    const log = await events(g.id);
    const exit = log.find((e) => e.kind === 'order_sent' && e.data.type === 'market');
    expect(exit?.data).toMatchObject({ side: 'sell', quantity: 0.015 });
    expect((await status(g.id)).positionQty).toBe(0);
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });

  type OrderEvent = Extract<UserEvent, { e: 'ORDER_TRADE_UPDATE' }>;
  it('a fill while the server is down is answered once after the restart; repeated or reordered stream events change nothing', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    // A 1h bot: no bar closes during the test, so every order after its grid answers a fill
    const created = await call('POST', '/api/v1/agents/', {
      ...liveGridBot('Through a restart'),
      interval: '1h',
    });
    const g: Bot = created.json().data;
    // What the account's stream says, to say it again later
    const heard: OrderEvent[] = [];
    const unlisten = t.sim.exchange.onUserEvent((id, e) => {
      if (id === account().id && e.e === 'ORDER_TRADE_UPDATE') heard.push(e);
    });
    expect((await call('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    await eventually(() => sim().open.length === 10);
    await eventually(async () => (await status(g.id)).openOrders.length === 10);

    // The server goes down; meanwhile the price dips through the 49,800 buy, which fills on the exchange
    await app.app.close();
    t.sim.exchange.setPrice('BTCUSDT', { price: '49700' });
    expect(sim().position).toBeCloseTo(0.003, 9);
    const placedWhileDown = sim().all.length;
    app = await restarted();
    // Back up: the bot takes the fill it missed and answers it with its one sell one level up, once
    await eventually(() => sim().all.length === placedWhileDown + 1);
    const answer = sim().all.at(-1);
    expect(answer).toMatchObject({ side: 'SELL', clientOrderId: expect.stringMatching(/^kb-/) });
    expect(answer?.price.toNumber()).toBe(50_000);
    await eventually(async () => (await status(g.id)).positionQty > 0.0029);
    const fillsLogged = async () => (await events(g.id)).filter((e) => e.kind === 'order_filled').length;
    expect(await fillsLogged()).toBe(1);

    // The stream repeats the fill twice, then brings the order's first update (NEW) after it: nothing changes
    const fill = heard.find((e) => e.o.x === 'TRADE');
    const placedNew = heard.find((e) => e.o.x === 'NEW' && e.o.i === fill?.o.i);
    unlisten();
    expect(fill && placedNew).toBeTruthy();
    for (const e of [fill, fill, placedNew]) t.sim.exchange.redeliverUserEvent(account().id, e as OrderEvent);
    await new Promise((r) => setTimeout(r, 500));
    expect(sim().all.length).toBe(placedWhileDown + 1);
    expect(await fillsLogged()).toBe(1);
    const s = await status(g.id);
    expect(s.positionQty).toBeCloseTo(0.003, 9);
    expect(s.openOrders).toHaveLength(10);
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });

  it('in hedge mode a neutral grid is refused before anything is sent; a long one holds the long side', async () => {
    const { as, keys } = await ownTrader({ dualSidePosition: true });
    const hedged = () => t.sim.exchange.accountByKey(keys.apiKey);
    const created = await as('POST', '/api/v1/agents/', liveGridBot('In hedge mode'));
    expect(created.statusCode, created.body).toBe(201);
    const h: Bot = created.json().data;
    for (const body of [undefined, { sharePosition: true }]) {
      const refused = await as('POST', `/api/v1/agents/${h.id}/start`, body);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'HEDGE_MODE',
        detail:
          'This account is in hedge mode (a long and a short position per symbol): a bot there holds one side, and ' +
          'this one takes long and short positions. Make it long-only or short-only, or switch the account to ' +
          'one-way mode on Binance (Preferences → Position Mode), then start it.',
      });
    }
    expect([...(hedged()?.orders.values() ?? [])]).toEqual([]);
    expect((await as('GET', `/api/v1/agents/${h.id}`)).json().data.state).toBe('stopped');

    // The trader is short on the symbol (0.003, the least the exchange takes at 50,000): the short side. A long grid holds the long side, so it starts alone there
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    await manualOrder(as, { side: 'SELL', positionSide: 'SHORT', type: 'MARKET', quantity: '0.003' });
    const long = (
      await as('POST', '/api/v1/agents/', liveGridBot('Long side', { ...GRID_AROUND_50K, direction: 'long' }))
    ).json().data as Bot;
    const started = await as('POST', `/api/v1/agents/${long.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    const said = (await as('GET', `/api/v1/agents/${long.id}/events?limit=100`)).json().data as BotEvent[];
    expect(said.find((e) => e.kind === 'started')?.message).toMatch(
      /^Started: live trading on BTCUSDT \(its long side: the account is in hedge mode\), acting now/,
    );
    const open = () => [...(hedged()?.orders.values() ?? [])].filter((o) => o.status === 'NEW');
    const sideOf = (s: 'LONG' | 'SHORT') =>
      [...(hedged()?.positions.values() ?? [])]
        .find((p) => p.symbol === 'BTCUSDT' && p.positionSide === s)
        ?.amt.toNumber() ?? 0;
    // Its initial buy (the 5 sells' worth) and its grid: every order names the long side
    await eventually(() => open().length === 10 && sideOf('LONG') > 0);
    expect(sideOf('LONG')).toBeCloseTo(0.015, 9);
    expect(open().every((o) => o.positionSide === 'LONG')).toBe(true);
    // A dip fills two buys; their sells close part of the long side, never the trader's short
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    await eventually(() => open().length === 10 && Math.abs(sideOf('LONG') - 0.021) < 1e-9);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50100' });
    await eventually(() => Math.abs(sideOf('LONG') - 0.015) < 1e-9);
    expect(sideOf('SHORT')).toBeCloseTo(-0.003, 9);
    const status = async () => (await as('GET', `/api/v1/agents/${long.id}/status`)).json().data as BotStatus;
    // The bot's own figure is the exchange's long side, once it has taken the sells' fills
    await eventually(async () => Math.abs((await status()).positionQty - 0.015) < 1e-9);
    // Its own side agrees with the exchange's: no drift to report
    expect(
      (await as('GET', `/api/v1/agents/${long.id}/events?limit=100`))
        .json()
        .data.map((e: BotEvent) => e.kind),
    ).not.toContain('position_drift');
    expect((await as('POST', `/api/v1/agents/${long.id}/stop`)).statusCode).toBe(200);
  });

  it('a fill a trades read recorded before its stream event came is answered when the event comes', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const created = await call('POST', '/api/v1/agents/', { ...liveGridBot('Read first'), interval: '1h' });
    const g: Bot = created.json().data;
    expect((await call('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(g.id)).openOrders.length === 10);
    const [row] = await t.database.db.query<{ user_id: string }>('SELECT user_id FROM bots WHERE id = $1', [
      g.id,
    ]);
    const userId = row?.user_id ?? '';
    // Another reader of the account (a resync, the orders page) lists its trades while the fill's stream event
    // is still on its way: the fill is known by its trade id before the stream speaks of it
    const unlisten = t.sim.exchange.onUserEvent((id, e) => {
      if (id !== account().id || e.e !== 'ORDER_TRADE_UPDATE' || e.o.x !== 'TRADE') return;
      const o = e.o;
      app.app.orderManager.tracker.noteTrades(userId, [
        {
          id: String(o.t),
          orderId: String(o.i),
          symbol: String(o.s),
          side: o.S as 'BUY' | 'SELL',
          positionSide: 'BOTH',
          price: String(o.L),
          quantity: String(o.l),
          quoteQuantity: new Decimal(String(o.L)).mul(String(o.l)).toString(),
          realizedPnl: String(o.rp ?? 0),
          commission: String(o.n ?? 0),
          commissionAsset: String(o.N ?? 'USDT'),
          maker: Boolean(o.m),
          time: e.T,
        },
      ]);
    });
    // The 49,800 buy fills; the bot answers it with its sell at 50,000 within the hour bar, as any fill
    t.sim.exchange.setPrice('BTCUSDT', { price: '49700' });
    unlisten();
    await eventually(() => sim().open.some((o) => o.side === 'SELL' && o.price.toNumber() === 50_000));
    await eventually(async () => (await status(g.id)).positionQty > 0.0029);
    expect((await events(g.id)).filter((e) => e.kind === 'order_filled')).toHaveLength(1);
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });

  it('started again within the bar it stopped in, a bot lays a new grid under new order ids', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const g = await liveGrid('Twice in a bar', GRID_AROUND_50K);
    const bar = simClock.now() - (simClock.now() % 60_000);
    expect((await call('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(g.id)).openOrders.length === 10);
    const first = new Set((await status(g.id)).openOrders.map((o) => o.clientOrderId));
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
    // A second later, the same bar, the same first step: its orders are the new session's, not the last one's
    // asked again (the simulated clock moves only when the test says so)
    simClock.advance(1_000);
    expect((await call('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    await eventually(async () => (await status(g.id)).openOrders.length === 10);
    const second = (await status(g.id)).openOrders.map((o) => o.clientOrderId);
    expect(second.filter((id) => first.has(id))).toEqual([]);
    expect(ofBot(new Set(second))).toHaveLength(10);
    expect((await status(g.id)).bot.state).toBe('running');
    expect(simClock.now() - (simClock.now() % 60_000)).toBe(bar);
    expect((await call('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });

  it('a stop cut short by its instance dying is finished by the instance that takes the bot over', async () => {
    await flatten();
    await stepUp();
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const c = await liveGrid('Cut short', GRID_AROUND_50K);
    expect((await call('POST', `/api/v1/agents/${c.id}/start`)).statusCode).toBe(200);
    await nextBar(async () => (await status(c.id)).openOrders.length === 10);
    const ids = new Set((await status(c.id)).openOrders.map((o) => o.clientOrderId));
    expect(ofBot(ids)).toHaveLength(10);

    // The stop is recorded (`stopping`), then the instance goes away before it cancels anything
    await botRepository.beginStop(t.database.db, c.id, 'stopped', 'Stopped by you', clock.now());
    await app.app.close();
    expect(ofBot(ids)).toHaveLength(10);
    app = await restarted();
    await eventually(async () => (await status(c.id)).bot.state === 'stopped');
    expect(ofBot(ids)).toEqual([]);
    expect(app.app.botRunner.runningIds).toEqual([]);
    const log = await events(c.id);
    expect(log[0]).toMatchObject({ kind: 'stopped', message: 'Stopped by you (10 orders canceled)' });
  });
  it('reports, once, a position on its symbol that its own fills do not add up to', async () => {
    // A trader of its own (the suite's token ages with the simulated minutes this test moves), on a fresh account
    const { as } = await ownTrader();
    const buy = (quantity: string) => manualOrder(as, { side: 'BUY', type: 'MARKET', quantity });
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const created = await as('POST', '/api/v1/agents/', liveGridBot('Alone on BTCUSDT'));
    expect(created.statusCode, created.body).toBe(201);
    const g: Bot = created.json().data;
    expect((await as('POST', `/api/v1/agents/${g.id}/start`)).statusCode).toBe(200);
    const drifts = async () =>
      ((await as('GET', `/api/v1/agents/${g.id}/events?limit=500`)).json().data as BotEvent[]).filter(
        (e) => e.kind === 'position_drift',
      );
    await eventually(
      async () => (await as('GET', `/api/v1/agents/${g.id}/status`)).json().data.openOrders.length === 10,
    );
    // The trader buys by hand while the bot runs: the account is long 0.005, the bot's fills are flat
    await buy('0.005');
    // At the next close the bot reads the exchange's position (a bar's REST round: reconcile, orders, position)
    await nextBar(() => true);
    await eventually(async () => (await drifts()).length === 1, 1_000);
    expect((await drifts())[0]?.message).toBe(
      "The exchange holds long 0.005 BTCUSDT on this account; this bot's own fills add up to flat. Something " +
        'else traded BTCUSDT: its figures count only its own fills',
    );
    expect((await as('GET', `/api/v1/agents/${g.id}/status`)).json().data.positionQty).toBe(0);
    // The same difference is said once, not at every close; a new one is said again
    await nextBar(() => true);
    await buy('0.003');
    await nextBar(() => true);
    await eventually(async () => (await drifts()).length >= 2, 1_000);
    expect((await drifts()).map((e) => e.data.exchangePosition)).toEqual([0.008, 0.005]);
    expect((await as('POST', `/api/v1/agents/${g.id}/stop`)).statusCode).toBe(200);
  });
});
