import { ErrorResponseSchema, KillSwitchResponseSchema, TickerResponseSchema } from '@kestrel/contracts';
import { BacktestDetailResponseSchema, BacktestSummaryResponseSchema } from '@kestrel/contracts/backtest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BinanceUsdmAdapter } from '../../src/core/exchange/binance-adapter';
import { bearer, SIM_START, startTestServer, type TestServer } from '../helper';

/**
 * One user cannot stall the others: the server's exchange weight (Binance counts it per IP) is shared through
 * per-user shares, a lane kept for trading and a background lane for downloads. The simulator is given far more
 * weight than the server (100 000 a minute), so every refusal seen here is the server's own budget at work, never
 * the exchange's 429. The adapter's clock is frozen inside one exchange minute: the budget's minute does not turn
 * during a test (the simulator's clock is frozen too).
 */
const MINUTE_START = Math.floor(SIM_START / 60_000) * 60_000 + 5_000;

type Answer = { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown };

async function serverWith(env: NodeJS.ProcessEnv, weightLimit = 2400): Promise<TestServer> {
  return startTestServer({
    simulator: {
      historyDays: 30,
      symbols: ['BTCUSDT', 'SOLUSDT'],
      rateLimits: { weightPerMinute: 100_000 },
    },
    env,
    deps: (simUrl) => ({
      exchangeAdapter: new BinanceUsdmAdapter({
        restUrl: simUrl,
        weightLimit,
        budget: env.KESTREL_EXCHANGE_USER_SHARE
          ? { userShare: Number(env.KESTREL_EXCHANGE_USER_SHARE) }
          : undefined,
        now: () => MINUTE_START,
      }),
    }),
  });
}

function as(t: TestServer, token: string) {
  return {
    get: (url: string) => t.request({ method: 'GET', url, headers: bearer(token) }) as Promise<Answer>,
    post: (url: string, payload: object) =>
      t.request({ method: 'POST', url, headers: bearer(token), payload }) as Promise<Answer>,
  };
}

/** `count` klines calls of 1500 bars minus i (weight 10 each, each its own upstream call), `batch` at a time */
async function flood(client: ReturnType<typeof as>, count: number, batch = 20): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i += batch) {
    const n = Math.min(batch, count - i);
    answers.push(
      ...(await Promise.all(
        Array.from({ length: n }, (_, j) =>
          client.get(`/api/v1/market/klines/BTCUSDT?interval=1m&limit=${1500 - i - j}`),
        ),
      )),
    );
  }
  return answers;
}

const refusals = (answers: Answer[]) => answers.filter((a) => a.statusCode === 429);
/** A limit buy of 1 SOL at 50: it rests on the book */
const restingSolBuy = (client: ReturnType<typeof as>) =>
  client.post('/api/futures/orders/create', {
    symbol: 'SOLUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '1',
    price: '50',
  });

describe('two users sharing the exchange budget', () => {
  let t: TestServer;
  let a: ReturnType<typeof as>;
  let b: ReturnType<typeof as>;

  // A budget of 400 a minute keeps the flood short: a user's share is 160 (16 pages of 10)
  beforeAll(async () => {
    t = await serverWith({}, 400);
    a = as(t, (await t.connectedUser()).auth.access_token);
    b = as(t, (await t.connectedUser()).auth.access_token);
  });
  afterAll(() => t?.close());

  it("while A floods candles, A gets fast 429s with Retry-After and B's ticker, candles and order still answer", async () => {
    const answers = await flood(a, 40);
    // A's share: at most 40 % of 400 = 160 weight = 16 pages of 10 (less once the fair part applies)
    const served = answers.filter((r) => r.statusCode === 200).length;
    expect(served).toBeGreaterThanOrEqual(8);
    expect(served).toBeLessThanOrEqual(16);
    const refused = refusals(answers);
    expect(answers.filter((r) => r.statusCode !== 200 && r.statusCode !== 429).map((r) => r.body)).toEqual(
      [],
    );
    expect(refused).toHaveLength(40 - served);
    for (const r of refused) {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
      const body = ErrorResponseSchema.parse(r.json());
      expect(body.code).toBe('EXCHANGE_RATE_LIMITED');
      expect(body.detail).toMatch(
        /^(You have used your share of the exchange's request budget this minute|The exchange's request budget is shared by \d+ users this minute and you have used your part) \(\d+ of \d+ weight\); retry in \d+ s$/,
      );
    }

    const ticker = await b.get('/api/v1/market/ticker/SOLUSDT');
    expect(ticker.statusCode).toBe(200);
    expect(TickerResponseSchema.parse(ticker.json()).data.symbol).toBe('SOLUSDT');
    expect((await b.get('/api/v1/market/klines/SOLUSDT?interval=1m&limit=500')).statusCode).toBe(200);
    const order = await restingSolBuy(b);
    expect(order.statusCode).toBe(201);
    // A is still refused, at once, while B is served
    expect((await a.get('/api/v1/market/klines/BTCUSDT?interval=1m&limit=10')).statusCode).toBe(429);
  });

  it('many users asking for the same ticker at once cost one upstream call', async () => {
    const adapter = t.app.exchangeRouter.adapterFor('testnet') as BinanceUsdmAdapter;
    const before = adapter.client.usedWeight;
    // B asks first and its upstream call is held at the simulator, so the other 29 (A's among them) arrive while it
    // is in flight, whatever order a loaded machine runs the requests' own async steps in
    const held = t.sim.faults.add({ kind: 'latency', ms: 1500, path: '/fapi/v1/ticker/24hr', remaining: 1 });
    const first = b.get('/api/v1/market/ticker/BTCUSDT');
    // Counted rules leave the list once used up: gone means B's call has reached the simulator
    for (let i = 0; i < 100 && t.sim.faults.list().some((r) => r.id === held.id); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const answers = [
      await first,
      ...(await Promise.all(
        Array.from({ length: 29 }, (_, i) => (i % 2 ? b : a).get('/api/v1/market/ticker/BTCUSDT')),
      )),
    ];
    // A is over its share, yet a shared answer costs nothing, so A is served too
    expect(answers.map((r) => r.statusCode)).toEqual(Array(30).fill(200));
    expect(adapter.client.usedWeight - before).toBe(1);
  });
});

describe('market data cannot starve trading', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await serverWith({});
  });
  afterAll(() => t?.close());

  it("once the IP's minute is nearly spent, B's ticker is refused at once but B's order and kill switch go through", async () => {
    const b = as(t, (await t.connectedUser()).auth.access_token);
    // Another process on the server's IP spends 2000 of the minute's 2400 (the exchange counts per IP); the
    // exchange's X-MBX-USED-WEIGHT-1M tells the server on its next answer
    for (let i = 0; i < 5; i++) {
      // All symbols' tickers: 40 weight each
      await Promise.all(
        Array.from({ length: 10 }, () =>
          fetch(`${t.simUrl}/fapi/v1/ticker/24hr`).then((r) => r.arrayBuffer()),
        ),
      );
    }
    expect((await b.get('/api/v1/market/ticker/SOLUSDT')).statusCode).toBe(200);

    const ticker = await b.get('/api/v1/market/ticker/BTCUSDT');
    expect(ticker.statusCode).toBe(429);
    expect(Number(ticker.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(ErrorResponseSchema.parse(ticker.json()).detail).toMatch(
      /^The server has used \d+ of Binance's 2400 request weight this minute; market data and account reads resume in \d+ s \(orders and cancels still go through\)$/,
    );

    const order = await restingSolBuy(b);
    expect(order.statusCode).toBe(201);
    const kill = await b.post('/api/v1/risk/kill-switch', {});
    expect(kill.statusCode).toBe(200);
    const result = KillSwitchResponseSchema.parse(kill.json()).data;
    expect(result.orders).toHaveLength(1);
    expect(result.orders.every((o) => o.ok)).toBe(true);
    expect(result.errors).toEqual([]);
  });
});

describe('a backtest download and an interactive call', () => {
  let t: TestServer;

  // A small budget (200 a minute): downloads may use 100 of it, 10 pages of 1500 bars
  beforeAll(async () => {
    t = await serverWith({}, 200);
  });
  afterAll(() => t?.close());

  it('a long download waits for the next minute in the background while another user trades and reads prices', async () => {
    const a = as(t, (await t.connectedUser()).auth.access_token);
    const b = as(t, (await t.connectedUser()).auth.access_token);
    const adapter = t.app.exchangeRouter.adapterFor('testnet') as BinanceUsdmAdapter;
    const DAY = 86_400_000;
    // 27 days of 1m bars: 26 pages of 1500, far more than the downloads' share of one minute
    const created = await a.post('/api/v1/backtests', {
      strategy: 'ema-cross',
      params: { fast: 5, slow: 20 },
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: SIM_START - 28 * DAY,
      endTime: SIM_START - DAY,
    });
    expect(created.statusCode).toBe(202);
    const id = BacktestSummaryResponseSchema.parse(created.json()).data.id;
    // The download has spent its share (the next page of 10 would pass 100) and waits for the next minute
    await vi.waitFor(() => expect(adapter.client.usedWeight).toBeGreaterThan(90), { timeout: 20_000 });

    const ticker = await b.get('/api/v1/market/ticker/SOLUSDT');
    expect(ticker.statusCode).toBe(200);
    const order = await restingSolBuy(b);
    expect(order.statusCode).toBe(201);

    const running = BacktestDetailResponseSchema.parse((await a.get(`/api/v1/backtests/${id}`)).json()).data;
    expect(running.status).toBe('running');
    expect(running.progress).toBeGreaterThan(0);
    expect(running.progress).toBeLessThan(0.9);
    // A cancel ends the wait at once
    expect((await a.post(`/api/v1/backtests/${id}/cancel`, {})).statusCode).toBe(200);
    await t.app.backtestService.idle();
    const canceled = BacktestDetailResponseSchema.parse((await a.get(`/api/v1/backtests/${id}`)).json()).data;
    expect(canceled.status).toBe('canceled');
  });
});
