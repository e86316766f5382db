import {
  DashboardOverviewResponseSchema,
  DashboardPortfolioResponseSchema,
  ErrorResponseSchema,
} from '@kestrel/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, SIM_START, signUp, storeKeys, useTestServer } from './helper';

const DAY_MS = 86_400_000;

/** The cockpit's overview and portfolio through the real app, adapter and simulator */
describe('dashboard overview and portfolio against the simulator', () => {
  let token: string;
  let apiKey: string;
  let userId: string;

  const t = useTestServer({ simulator: { symbols: ['BTCUSDT', 'SOLUSDT'] } });
  beforeAll(async () => {
    const user = await t.connectedUser();
    token = user.auth.access_token;
    apiKey = user.keys.apiKey;
    userId = user.auth.user.id;
  });

  const get = (path: string, auth = token) => t.request({ method: 'GET', url: path, headers: bearer(auth) });
  const post = (path: string, payload: object) =>
    t.request({ method: 'POST', url: path, headers: bearer(token), payload });
  const overview = async () =>
    DashboardOverviewResponseSchema.parse((await get('/api/v1/dashboard/overview')).json()).data;
  const simAccount = () => {
    const account = t.sim.exchange.accountByKey(apiKey);
    if (!account) throw new Error('the demo account is gone');
    return { account, figures: t.sim.exchange.figures(account) };
  };

  it('needs a signed-in user, and connected keys (the futures routes’ 400)', async () => {
    for (const path of ['/api/v1/dashboard/overview', '/api/v1/dashboard/portfolio']) {
      expect((await t.request({ method: 'GET', url: path })).statusCode).toBe(401);
      const stranger = await signUp(t);
      const refused = await get(path, stranger.access_token);
      const futures = await get('/api/futures/account/info', stranger.access_token);
      expect(refused.statusCode).toBe(400);
      expect(ErrorResponseSchema.parse(refused.json())).toEqual(ErrorResponseSchema.parse(futures.json()));
    }
  });

  it('a fresh account: its balance, nothing open, no PnL today, no bots', async () => {
    const o = await overview();
    expect(o).toMatchObject({
      unrealizedPnl: expect.stringMatching(/^0(\.0+)?$/),
      marginRatio: '0',
      openPositions: 0,
      openOrders: 0,
      activeBots: 0,
      asOf: SIM_START,
      today: { from: SIM_START - DAY_MS / 2, to: SIM_START, realizedPnl: '0', commission: '0', net: '0' },
    });
    expect(Number(o.walletBalance)).toBe(1000);
  });

  it('after trades the figures agree with the simulator’s account', async () => {
    expect(
      (
        await post('/api/futures/orders/create', {
          symbol: 'SOLUSDT',
          side: 'BUY',
          type: 'MARKET',
          quantity: '3',
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await post('/api/futures/orders/create', {
          symbol: 'SOLUSDT',
          side: 'SELL',
          type: 'MARKET',
          quantity: '1',
        })
      ).statusCode,
    ).toBe(201);
    const ticker = (await get('/api/v1/market/ticker/SOLUSDT')).json() as { data: { lastPrice: string } };
    const below = (Number(ticker.data.lastPrice) * 0.8).toFixed(2);
    expect(
      (
        await post('/api/futures/orders/create', {
          symbol: 'SOLUSDT',
          side: 'BUY',
          type: 'LIMIT',
          quantity: '1',
          price: below,
          timeInForce: 'GTC',
        })
      ).statusCode,
    ).toBe(201);

    const o = await overview();
    const { account, figures } = simAccount();
    expect(Number(o.walletBalance)).toBeCloseTo(figures.walletBalance.toNumber(), 8);
    expect(Number(o.unrealizedPnl)).toBeCloseTo(figures.unrealizedPnl.toNumber(), 8);
    expect(Number(o.marginBalance)).toBeCloseTo(
      figures.walletBalance.plus(figures.unrealizedPnl).toNumber(),
      8,
    );
    expect(Number(o.availableMargin)).toBeCloseTo(figures.availableBalance.toNumber(), 8);
    expect(Number(o.maintenanceMargin)).toBeCloseTo(figures.maintMargin.toNumber(), 8);
    expect(Number(o.marginRatio)).toBeCloseTo(
      figures.maintMargin.div(figures.walletBalance.plus(figures.unrealizedPnl)).toNumber(),
      4,
    );
    expect(Number(o.marginRatio)).toBeGreaterThan(0);
    expect(o).toMatchObject({ openPositions: 1, openOrders: 1 });

    // Today's figures are the income the simulator booked today: the fills' commission and realized PnL
    const booked = (type: string) =>
      account.income.filter((i) => i.incomeType === type).reduce((s, i) => s + i.income.toNumber(), 0);
    expect(Number(o.today.commission)).toBeCloseTo(booked('COMMISSION'), 8);
    expect(Number(o.today.commission)).toBeLessThan(0);
    expect(Number(o.today.realizedPnl)).toBeCloseTo(booked('REALIZED_PNL'), 8);
    expect(Number(o.today.net)).toBeCloseTo(
      booked('COMMISSION') + booked('REALIZED_PNL') + booked('FUNDING_FEE'),
      8,
    );
    // The opening deposit is a transfer, not PnL
    expect(account.income.some((i) => i.incomeType === 'TRANSFER')).toBe(true);
  });

  it('the portfolio lists the held asset valued in USDT, the open position and its share', async () => {
    const p = DashboardPortfolioResponseSchema.parse((await get('/api/v1/dashboard/portfolio')).json()).data;
    const { figures } = simAccount();
    expect(p.assets.map((a) => a.asset)).toEqual(['USDT']);
    const [usdt] = p.assets;
    expect(Number(usdt?.usdtValue)).toBeCloseTo(
      figures.walletBalance.plus(figures.unrealizedPnl).toNumber(),
      8,
    );
    expect(usdt?.share).toBe('1.0000');
    expect(p.positions.map((x) => [x.symbol, x.amount])).toEqual([['SOLUSDT', '2']]);
    const [position] = p.positions;
    expect(p.allocation.grossExposure).toBe(String(Math.abs(Number(position?.notional))));
    expect(p.allocation.netExposure).toBe(p.allocation.grossExposure);
    expect(p.allocation.positions).toEqual([
      expect.objectContaining({ symbol: 'SOLUSDT', positionSide: 'BOTH', exposureShare: '1.0000' }),
    ]);
    const marginShare = Number(p.allocation.positions[0]?.marginShare);
    expect(marginShare).toBeCloseTo(Number(position?.initialMargin) / Number(p.totals.marginBalance), 4);
  });

  it('other assets are valued at their USDT symbol’s last price; an asset without one has no value', async () => {
    const user = await signUp(t);
    const keys = t.demoKeys({ balances: { USDT: '1000', BTC: '0.01', BNB: '2' } });
    await storeKeys(t, user.access_token, keys);
    const res = await get('/api/v1/dashboard/portfolio', user.access_token);
    const p = DashboardPortfolioResponseSchema.parse(res.json()).data;
    const btcPrice = (await get('/api/v1/market/ticker/BTCUSDT')).json() as { data: { lastPrice: string } };
    const by = new Map(p.assets.map((a) => [a.asset, a]));
    expect([...by.keys()].sort()).toEqual(['BNB', 'BTC', 'USDT']);
    const btcValue = 0.01 * Number(btcPrice.data.lastPrice);
    expect(Number(by.get('BTC')?.usdtValue)).toBeCloseTo(btcValue, 6);
    expect(by.get('BNB')).toMatchObject({ usdtValue: null, share: null });
    // Shares are of the valued assets
    expect(Number(by.get('USDT')?.share)).toBeCloseTo(1000 / (1000 + btcValue), 4);
    expect(Number(by.get('BTC')?.share)).toBeCloseTo(btcValue / (1000 + btcValue), 4);
    expect(p.positions).toEqual([]);
    expect(p.allocation).toEqual({ grossExposure: '0', netExposure: '0', positions: [] });
  });

  it('today’s PnL runs from 00:00 UTC of the server clock: the fills drop out at midnight', async () => {
    // Called on the service: half a day on, the test's access token has expired
    const overview = () => t.app.dashboardService.overview({ userId, environment: 'testnet' });
    const before = await overview();
    expect(Number(before.today.commission)).toBeLessThan(0);
    // 23:59:59.999 UTC, the same day as the fills (noon)
    t.clock.advance(DAY_MS / 2 - 1);
    const late = await overview();
    expect(late.today).toMatchObject({ from: before.today.from, commission: before.today.commission });
    // Midnight: a new day, nothing booked yet
    t.clock.advance(1);
    const next = await overview();
    expect(next.today).toMatchObject({
      from: SIM_START + DAY_MS / 2,
      to: SIM_START + DAY_MS / 2,
      realizedPnl: '0',
      commission: '0',
      fundingFee: '0',
      net: '0',
    });
    // The account itself is the same
    expect(next.walletBalance).toBe(before.walletBalance);
  });

  it('is documented in OpenAPI with its error statuses', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, { get?: { tags?: string[]; responses?: Record<string, unknown> } }>;
    };
    for (const path of ['/api/v1/dashboard/overview', '/api/v1/dashboard/portfolio']) {
      const op = doc.paths[path]?.get;
      expect(op?.tags).toEqual(['dashboard']);
      expect(Object.keys(op?.responses ?? {})).toEqual(
        expect.arrayContaining(['200', '400', '401', '502', '503']),
      );
    }
    // The recorder's reads touch only the database: no exchange statuses
    for (const path of ['/api/v1/dashboard/equity', '/api/v1/dashboard/income']) {
      const op = doc.paths[path]?.get;
      expect(op?.tags).toEqual(['dashboard']);
      expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '400', '401']);
    }
  });
});
