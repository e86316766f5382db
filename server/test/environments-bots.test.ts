import { EnvironmentResponseSchema } from '@kestrel/contracts';
import type { AgentDecisionRecord, AgentDecisionSummary } from '@kestrel/contracts/agents';
import {
  type Bot,
  BotListResponseSchema,
  BotStatusResponseSchema,
  BotsSummaryResponseSchema,
} from '@kestrel/contracts/bots';
import type { SimServer } from '@kestrel/exchange-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, type DemoKeys, PASSWORD, storeKeys } from './helper';
import { inProcessAgentTrainer } from './in-process-trainer';
import { GRID_AROUND_50K, liveGridBot, useConnectedUser, useSimBots } from './sim-bots';

/**
 * Issue 23, item 4: a bot trades in the environment it was created in, whatever its owner switches to. Two
 * simulators (testnet and mainnet stand-ins) on one hand-moved clock; their own order books judge
 */
describe('a live bot keeps trading in its environment after the owner switches', () => {
  const { t, simClock, advance, eventually, nextBar } = useSimBots({
    mainnet: true,
    deps: {
      liveStreamLingerMs: 200,
      orderTimings: { deadmanCountdownMs: 600_000 },
      agentTrainer: inProcessAgentTrainer,
    },
    price: '50000',
    startTimeoutMs: 180_000,
  });
  const user = useConnectedUser(t);
  let mainnetKeys: DemoKeys;

  beforeAll(() => {
    mainnetKeys = t.mainnet?.demoKeys() ?? { apiKey: '', secretKey: '' };
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
  const ordersOn = (side: 'testnet' | 'mainnet') => {
    const sim = side === 'testnet' ? t.sim : t.mainnet?.sim;
    const keys = side === 'testnet' ? user.keys : mainnetKeys;
    return [...(sim?.exchange.accountByKey(keys.apiKey)?.orders.values() ?? [])];
  };
  /** A bot of the user's, created (201) */
  async function create(body: object): Promise<Bot> {
    const res = await call('POST', '/api/v1/agents/', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  }
  /** How many requests to a path reach a simulator from now on (a counted, harmless fault rule) */
  const counter = (sim: SimServer | undefined, path: string) => {
    const rule = sim?.faults.add({ kind: 'latency', ms: 1, path, remaining: 1_000_000 });
    return () => 1_000_000 - (sim?.faults.list().find((r) => r.id === rule?.id)?.remaining ?? 1_000_000);
  };
  /** Requests to a path from now on, on each environment's exchange */
  const requestsTo = (path: string) => ({
    testnet: counter(t.sim, path),
    mainnet: counter(t.mainnet?.sim, path),
  });

  it('a testnet bot sends its grid to testnet, before and after the owner goes to mainnet', async () => {
    const bot = await create(liveGridBot('Testnet grid'));
    expect(bot.environment).toBe('testnet');
    expect((await call('POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);

    // The owner stores a mainnet key and goes LIVE while the bot runs
    expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
    expect((await call('PUT', '/api/v1/environment', { environment: 'mainnet' })).statusCode).toBe(200);
    await storeKeys(t, user.token, mainnetKeys);
    expect(
      EnvironmentResponseSchema.parse((await call('GET', '/api/v1/environment')).json()).data
        .currentEnvironment,
    ).toBe('mainnet');

    // Its next bars: the grid lands on the testnet stand-in only
    await nextBar(() => ordersOn('testnet').filter((o) => o.status === 'NEW').length === 10);
    expect(ordersOn('testnet').every((o) => o.clientOrderId.startsWith('kb-'))).toBe(true);
    await advance(60_000);
    expect(ordersOn('mainnet')).toHaveLength(0);
    expect(t.mainnet?.sim.apiKeysSeen.has(user.keys.apiKey)).toBe(false);

    // The pages mark where each bot trades
    const list = BotListResponseSchema.parse((await call('GET', '/api/v1/agents/')).json()).data;
    expect(list.find((b) => b.id === bot.id)?.environment).toBe('testnet');
    const summary = BotsSummaryResponseSchema.parse(
      (await call('GET', '/api/v1/dashboard/bots')).json(),
    ).data;
    expect(summary.byEnvironment).toEqual({ testnet: 1, mainnet: 0 });

    // Stopping it cancels its orders where they are, though the owner is on mainnet now
    expect((await call('POST', `/api/v1/agents/${bot.id}/stop`)).statusCode).toBe(200);
    await eventually(() => ordersOn('testnet').every((o) => o.status !== 'NEW'));
  }, 120_000);

  it('a bot created on mainnet is marked mainnet and needs the live confirmation', async () => {
    const brackets = requestsTo('/fapi/v1/leverageBracket');
    const body = liveGridBot('Mainnet grid', { ...GRID_AROUND_50K, gridCount: 4 });
    const refused = await call('POST', '/api/v1/agents/', body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/confirmLive/);
    expect((await create({ ...body, confirmLive: true })).environment).toBe('mainnet');
    // Its leverage was checked against mainnet's brackets, read with the mainnet key (kept an hour from here on)
    expect(brackets.mainnet()).toBeGreaterThan(0);
    expect(brackets.testnet()).toBe(0);
  });

  it('a bot on mainnet reads its leverage brackets, candles and closed-candle stream from mainnet', async () => {
    const mainnetSim = t.mainnet?.sim as SimServer;
    const brackets = requestsTo('/fapi/v1/leverageBracket');
    const klines = requestsTo('/fapi/v1/klines');
    // The two markets part: a mainnet bot must see mainnet's price, never testnet's
    mainnetSim.exchange.setPrice('BTCUSDT', { price: '30000' });
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });

    const bot = await create({
      // Its 20 bars of warm-up history come from the kline cache, which reads them from the exchange
      name: 'Mainnet paper EMA',
      strategy: 'ema-cross',
      params: { fast: 5, slow: 20 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 5,
      budget: 500,
      mode: 'paper',
    });
    expect(bot.environment).toBe('mainnet');
    // The owner goes back to testnet before starting it: the bot still reads mainnet, with the mainnet key
    expect((await call('PUT', '/api/v1/environment', { environment: 'testnet' })).statusCode).toBe(200);
    expect((await call('POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);
    const status = async () =>
      BotStatusResponseSchema.parse((await call('GET', `/api/v1/agents/${bot.id}/status`)).json()).data;
    await advance(60_000 - (simClock.now() % 60_000) + 1000);
    await advance(60_000);
    for (let i = 0; i < 100 && (await status()).markPrice === null; i++) await advance(1000);
    const mark = (await status()).markPrice ?? 0;
    expect(Math.abs(mark - 30_000)).toBeLessThan(300);

    // Its brackets are mainnet's, read by the save of the test before (and cached): never testnet's
    expect(brackets.testnet()).toBe(0);
    expect(klines.mainnet()).toBeGreaterThan(0);
    expect(klines.testnet()).toBe(0);
    // Its closed candles come from mainnet's stream: no testnet candle stream was opened for it
    expect(t.app.liveStreams?.candleStreams ?? []).not.toContain('BTCUSDT@1m');
    // The kline cache keeps them under mainnet's name, apart from testnet's (the simulator's) candles
    const [stored] = await t.database.db.query(
      `SELECT count(*)::int AS n FROM klines WHERE exchange_env = 'mainnet' AND symbol = 'BTCUSDT'`,
    );
    expect(Number(stored?.n)).toBeGreaterThan(0);
    expect((await call('POST', `/api/v1/agents/${bot.id}/stop`)).statusCode).toBe(200);
  }, 120_000);

  it("an AI agent created on mainnet trains on, and decides at, mainnet's market while its owner is on testnet", async () => {
    const mainnetSim = t.mainnet?.sim as SimServer;
    const klines = requestsTo('/fapi/v1/klines');
    const funding = requestsTo('/fapi/v1/fundingRate');
    mainnetSim.exchange.setPrice('BTCUSDT', { price: '30000' });
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });

    expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
    expect((await call('PUT', '/api/v1/environment', { environment: 'mainnet' })).statusCode).toBe(200);
    const agent = await create({
      name: 'Mainnet agent',
      strategy: 'ml-agent',
      // Gates wide open: the path to a decision is what is tested, not the model's skill
      params: { trainBars: 300, horizonBars: 5, retrainHours: 1, entryThreshold: 0.34, minPredictionZ: 0 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 2,
      budget: 1000,
      mode: 'paper',
    });
    expect(agent.environment).toBe('mainnet');

    // The owner goes back to testnet; the agent trains and decides on mainnet's market all the same
    expect((await call('PUT', '/api/v1/environment', { environment: 'testnet' })).statusCode).toBe(200);
    expect((await call('POST', `/api/v1/agents/${agent.id}/train`)).statusCode).toBe(202);
    await t.app.agentService.idle();
    expect((await call('GET', `/api/v1/agents/${agent.id}/agent`)).json().data.model).not.toBeNull();
    expect((await call('POST', `/api/v1/agents/${agent.id}/start`)).statusCode).toBe(200);
    const decisions = async (): Promise<AgentDecisionSummary[]> =>
      (await call('GET', `/api/v1/agents/${agent.id}/decisions?limit=50`)).json().data;
    await advance(60_000 - (simClock.now() % 60_000) + 1000);
    for (let i = 0; i < 120 && (await decisions()).length === 0; i++) await advance(1000);
    const [latest] = await decisions();
    expect(latest, 'a decision within two minutes of bars').toBeDefined();
    const record: AgentDecisionRecord = (
      await call('GET', `/api/v1/agents/${agent.id}/decisions/${latest?.id}`)
    ).json().data;
    // The bar it judged closed near mainnet's 30,000, not testnet's 50,000
    expect(Math.abs((record.price ?? 0) - 30_000)).toBeLessThan(300);

    expect(klines.mainnet()).toBeGreaterThan(0);
    expect(klines.testnet()).toBe(0);
    expect(funding.mainnet()).toBeGreaterThan(0);
    expect(funding.testnet()).toBe(0);
    expect((await call('POST', `/api/v1/agents/${agent.id}/stop`)).statusCode).toBe(200);
  }, 180_000);
});
