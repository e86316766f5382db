import { type Bot, BotPlanResponseSchema, type BotSuggestion } from '@kestrel/contracts/bots';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp } from './helper';
import { useSimBots } from './sim-bots';

/**
 * A bot's orders against the symbol's rules on the simulator, as Binance publishes them (SOLUSDT: a lot of 1 SOL;
 * BTCUSDT: 0.001 BTC and 100 USDT an order): refused at save with the smallest value that works, refused at start
 * when the price moved under them, and the create form's starting values drawn from the market so they pass.
 */
describe('bot orders checked against the symbol’s rules', () => {
  const { t } = useSimBots({ symbols: ['BTCUSDT', 'SOLUSDT'], price: '50000' });
  let token: string;
  beforeAll(async () => {
    token = (await signUp(t)).access_token;
    t.sim.exchange.setPrice('SOLUSDT', { price: '150' });
  });
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const dca = (params: object, budget = 1000) => ({
    name: 'SOL DCA',
    strategy: 'dca',
    params: { safetyOrderCount: 0, ...params },
    symbol: 'SOLUSDT',
    interval: '1h',
    leverage: 3,
    budget,
    mode: 'paper',
  });

  /** What the plan is asked with: the settings that shape the orders, nothing else */
  const planOf = ({ strategy, params, symbol, leverage, budget }: ReturnType<typeof dca>) => ({
    strategy,
    params,
    symbol,
    leverage,
    budget,
  });

  it('a DCA base order smaller than one SOL is refused at save, naming the smallest that works', async () => {
    const refused = await call('POST', '/api/v1/agents/', dca({ baseOrderSize: 100 }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'INVALID_BOT',
      detail:
        'Invalid bot: baseOrderSize: 100 makes the base order an order of 0 SOL (0 USDT); the exchange takes at ' +
        'least 1 SOL and 5 USDT an order, in steps of 1 SOL: the smallest baseOrderSize that works is 150',
    });
    expect((await call('GET', '/api/v1/agents/')).json().data).toEqual([]);
    const saved = await call('POST', '/api/v1/agents/', dca({ baseOrderSize: 150 }));
    expect(saved.statusCode, saved.body).toBe(201);
  });

  it('a budget its orders need more margin than is refused with the smallest budget that works', async () => {
    const body = {
      name: 'Wide grid',
      strategy: 'grid',
      params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.01 },
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 5,
      budget: 100,
      mode: 'paper',
    };
    const refused = await call('POST', '/api/v1/agents/', body);
    expect(refused.statusCode).toBe(400);
    // Five sells of 0.01 BTC above 50,000 (2,530 USDT) stand at once: 506 USDT of margin at 5×
    expect(refused.json().detail).toBe(
      'Invalid bot: budget: its orders need 506 USDT of margin at 5× and the budget is 100 USDT; the smallest ' +
        'budget that works is 506 USDT (or fewer or smaller orders, or more leverage)',
    );
    expect((await call('POST', '/api/v1/agents/', { ...body, budget: 506 })).statusCode).toBe(201);
  });

  it("shows a bot's orders before it is saved: rounded as the exchange takes them, their margin and a level's profit", async () => {
    const res = await call('POST', '/api/v1/agents/plan', {
      strategy: 'grid',
      params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.0109, direction: 'neutral' },
      symbol: 'BTCUSDT',
      leverage: 5,
      budget: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    const plan = BotPlanResponseSchema.parse(res.json()).data;
    expect(plan).toMatchObject({
      price: 50_000,
      baseAsset: 'BTC',
      feeRates: { maker: 0.0002, taker: 0.0005 },
    });
    // 11 levels 200 apart; the one at the price waits for the first fill; 0.0109 is rounded down to 0.010
    const standing = plan.orders.filter((o) => !o.later);
    expect(standing.map((o) => o.price)).toEqual([
      49_000, 49_200, 49_400, 49_600, 49_800, 50_200, 50_400, 50_600, 50_800, 51_000,
    ]);
    expect(new Set(plan.orders.map((o) => o.quantity))).toEqual(new Set([0.01]));
    expect(plan.sellNotional).toBeCloseTo(0.01 * (50_200 + 50_400 + 50_600 + 50_800 + 51_000), 6);
    expect(plan.margin).toBeCloseTo(plan.sellNotional / 5, 6);
    // A round trip: 0.01 × 200 = 2 USDT, less 0.02 % of both fills (about 0.2 USDT)
    expect(plan.levelProfit?.minNet).toBeCloseTo(2 - 0.01 * (50_800 + 51_000) * 0.0002, 9);
    expect(plan.levelProfit?.maxNet).toBeCloseTo(2 - 0.01 * (49_000 + 49_200) * 0.0002, 9);
    // …and the budget the save would refuse, with the one that works
    expect(plan.problems).toEqual([expect.objectContaining({ param: 'budget', smallest: 506 })]);

    const sol = BotPlanResponseSchema.parse(
      (await call('POST', '/api/v1/agents/plan', planOf(dca({ baseOrderSize: 100 })))).json(),
    ).data;
    expect(sol.levelProfit).toBeNull();
    expect(sol.orders[0]).toMatchObject({ what: 'the base order', side: 'BUY', quantity: 0 });
    expect(sol.problems).toEqual([expect.objectContaining({ param: 'baseOrderSize', smallest: 150 })]);

    const unknown = await call('POST', '/api/v1/agents/plan', {
      ...planOf(dca({})),
      strategy: 'no-such-strategy',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toMatch(/"no-such-strategy" has no order plan/);
  });

  it('a start at a price that moved under its orders is refused, nothing sent, and says what to change', async () => {
    const saved = await call('POST', '/api/v1/agents/', {
      ...dca({ baseOrderSize: 150 }),
      name: 'Priced out',
    });
    const bot: Bot = saved.json().data;
    // SOL rises: 150 USDT no longer buys one SOL
    t.sim.exchange.setPrice('SOLUSDT', { price: '160' });
    const refused = await call('POST', `/api/v1/agents/${bot.id}/start`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ORDERS_REFUSED' });
    expect(refused.json().detail).toMatch(
      /^At SOLUSDT's price now the exchange would refuse this bot's orders: baseOrderSize: 150 makes the base order an order of 0 SOL .*the smallest baseOrderSize that works is 160\. Change the bot, then start it\.$/,
    );
    expect((await call('GET', `/api/v1/agents/${bot.id}`)).json().data.state).toBe('stopped');
    t.sim.exchange.setPrice('SOLUSDT', { price: '150' });
  });

  it("a leverage above the account's bracket for the position its orders build is refused, once its keys are connected", async () => {
    // SOLUSDT's brackets on the simulator: 75× up to 5,000 USDT, 50× up to 50,000. A base order of 6,000 USDT at 60×
    const body = { ...dca({ baseOrderSize: 6_000 }, 1_000), leverage: 60 };
    // Without keys the account's brackets are unknown: the exchange would judge the leverage at the start
    expect((await call('POST', '/api/v1/agents/plan', planOf(body))).json().data.problems).toEqual([]);
    const { auth } = await t.connectedUser();
    const keyed = (url: string, payload: object) =>
      t.request({ method: 'POST', url, headers: bearer(auth.access_token), payload });
    const plan = (await keyed('/api/v1/agents/plan', planOf(body))).json().data;
    expect(plan.problems).toEqual([
      {
        param: 'leverage',
        message:
          'leverage: its orders can build a position of 6000 USDT, and the exchange allows at most 50× on a ' +
          'position up to 50000 USDT: the most leverage that works is 50× (or fewer or smaller orders)',
      },
    ]);
    const saved = await keyed('/api/v1/agents/', body);
    expect(saved.statusCode).toBe(400);
    expect(saved.json().detail).toMatch(
      /^Invalid bot: leverage: its orders can build a position of 6000 USDT/,
    );
    expect((await keyed('/api/v1/agents/', { ...body, leverage: 50 })).statusCode).toBe(201);
  });

  it('the starting values drawn from the market make a bot the exchange takes, for each strategy', async () => {
    for (const [strategy, symbol] of [
      ['grid', 'BTCUSDT'],
      ['dca', 'SOLUSDT'],
      ['dca', 'BTCUSDT'],
      ['ema-cross', 'BTCUSDT'],
      ['signal-rules', 'SOLUSDT'],
    ] as const) {
      const r = await call(
        'GET',
        `/api/v1/agents/suggestion?strategy=${strategy}&symbol=${symbol}&leverage=3&budget=100`,
      );
      expect(r.statusCode, r.body).toBe(200);
      const s: BotSuggestion = r.json().data;
      expect(s.price).toBe(symbol === 'BTCUSDT' ? 50_000 : 150);
      expect(s.budget).toBeGreaterThanOrEqual(100);
      // They still pass should the price move 2 % before the save or the start (a tick up made a budget sized to
      // the margin at this very price refused)
      for (const moved of [0.98, 1.02]) {
        t.sim.exchange.setPrice(symbol, { price: String(s.price * moved) });
        const plan = await call('POST', '/api/v1/agents/plan', {
          strategy,
          params: s.params,
          symbol,
          leverage: 3,
          budget: s.budget,
        });
        expect(plan.statusCode, plan.body).toBe(200);
        expect(plan.json().data.problems, `${strategy} ${symbol} at ${moved}×`).toEqual([]);
      }
      t.sim.exchange.setPrice(symbol, { price: String(s.price) });
      const created = await call('POST', '/api/v1/agents/', {
        name: `${strategy} from the market`,
        strategy,
        params: s.params,
        symbol,
        interval: '1h',
        leverage: 3,
        budget: s.budget,
        mode: 'paper',
      });
      expect(created.statusCode, `${strategy} ${symbol}: ${created.body}`).toBe(201);
      if (strategy === 'dca') {
        // The first safety order a quarter of the day's move away, within 0.5 % and 5 %
        const day = await t.app.exchangeAdapter.ticker(symbol);
        const moved = (Number(day.highPrice) - Number(day.lowPrice)) / s.price;
        const expected = Math.min(0.05, Math.max(0.005, Math.round((moved / 4) * 1000) / 1000));
        expect(s.params.priceDeviation).toBeCloseTo(expected, 9);
        expect(s.basis).toMatch(/its last 24 h ranged .+: the first safety order \d+\.\d % away$/);
      }
      if (strategy === 'grid') {
        // A range around the price, not the strategy's fixed default
        expect(s.params.lower).toBeLessThan(50_000);
        expect(s.params.upper).toBeGreaterThan(50_000);
        expect(s.basis).toMatch(/^BTCUSDT at 50000/);
        // The least the exchange takes at its lowest level (100 USDT at about 45,000–49,000: 0.003 BTC), and the
        // budget raised to the margin its 10 levels need at 3×
        expect(s.params.quantityPerGrid).toBe(0.003);
        expect(s.adjusted).toContain('Quantity per grid raised to 0.003: the least the exchange takes');
        expect(s.budget).toBeGreaterThan(100);
      }
    }
  });
});
