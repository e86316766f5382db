import {
  DashboardOverviewResponseSchema,
  EnvironmentResponseSchema,
  ErrorResponseSchema,
} from '@kestrel/contracts';
import { AccountEventsResponseSchema, STEP_UP_WINDOW_MS } from '@kestrel/contracts/account';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  PASSWORD,
  signUp,
  startTestServer,
  storeKeys,
  type TestServer,
  useTestServer,
} from './helper';
import { limitBuyAt40k } from './order-bodies';

/**
 * Issue 23: the testnet / mainnet switch chooses the exchange the server uses for this user. Two simulators stand
 * in for testnet and mainnet, each with its own accounts and keys; their own records (orders, keys seen) judge
 */
describe('trading environments against two simulators (testnet and mainnet stand-ins)', () => {
  let t: TestServer;
  let token: string;
  const testnetKeys = { apiKey: '', secretKey: '' };
  const mainnetKeys = { apiKey: '', secretKey: '' };

  beforeAll(async () => {
    t = await startTestServer({ mainnet: true });
    const user = await t.connectedUser();
    token = user.auth.access_token;
    Object.assign(testnetKeys, user.keys);
    // A different balance on each side tells at a glance which account a page reads
    Object.assign(mainnetKeys, t.mainnet?.demoKeys({ balances: { USDT: '5000' } }));
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const state = async () =>
    EnvironmentResponseSchema.parse((await call('GET', '/api/v1/environment')).json()).data;
  const switchTo = (environment: 'testnet' | 'mainnet') =>
    call('PUT', '/api/v1/environment', { environment });
  const overview = async () => {
    const res = await call('GET', '/api/v1/dashboard/overview');
    expect(res.statusCode, res.body).toBe(200);
    return DashboardOverviewResponseSchema.parse(res.json()).data;
  };
  const placeOrder = (clientOrderId: string) =>
    call('POST', '/api/futures/orders/create', limitBuyAt40k(clientOrderId));
  /** Each simulator's own record of orders with this client id */
  const ordersOn = (side: 'testnet' | 'mainnet', clientOrderId: string) => {
    const sim = side === 'testnet' ? t.sim : t.mainnet?.sim;
    const keys = side === 'testnet' ? testnetKeys : mainnetKeys;
    return [...(sim?.exchange.accountByKey(keys.apiKey)?.orders.values() ?? [])].filter(
      (o) => o.clientOrderId === clientOrderId,
    );
  };

  it('starts every user on testnet and reports what each environment is on this server', async () => {
    const s = await state();
    expect(s).toMatchObject({ currentEnvironment: 'testnet', isTestnetMode: true, environmentHistory: [] });
    expect(s.current).toMatchObject({ environment: 'testnet', label: 'Simulator', kind: 'simulator' });
    expect(s.targets.find((x) => x.environment === 'mainnet')).toMatchObject({
      configured: true,
      label: 'LIVE mainnet',
      realMoney: true,
    });
  });

  it('asks for the password again before going to mainnet, then switches and records it', async () => {
    t.clock.advance(STEP_UP_WINDOW_MS + 1);
    const refused = await switchTo('mainnet');
    expect(refused.statusCode).toBe(403);
    expect(ErrorResponseSchema.parse(refused.json()).code).toBe('STEP_UP_REQUIRED');
    expect((await state()).currentEnvironment).toBe('testnet');

    expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
    const switched = await switchTo('mainnet');
    expect(switched.statusCode, switched.body).toBe(200);
    const s = EnvironmentResponseSchema.parse(switched.json()).data;
    expect(s).toMatchObject({ currentEnvironment: 'mainnet', isTestnetMode: false });
    expect(s.environmentHistory).toEqual([
      { environment: 'mainnet', timestamp: t.clock.now().getTime(), exchangeId: 'binance' },
    ]);
    expect(s.current.label).toBe('LIVE mainnet');
    const audit = AccountEventsResponseSchema.parse(
      (await call('GET', '/api/v1/account/events')).json(),
    ).data;
    expect(audit[0]).toMatchObject({ kind: 'environment', message: expect.stringContaining('mainnet') });
  });

  it('keeps keys per environment: mainnet asks for its own key, the testnet key stays', async () => {
    // On mainnet with only a testnet key stored: no call goes anywhere with the testnet key
    const none = await call('GET', '/api/v1/dashboard/overview');
    expect(none.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(none.json()).message).toMatch(/mainnet/);
    await storeKeys(t, token, mainnetKeys);
    const testnetView = await call('GET', '/api/v1/credentials/binance?environment=testnet');
    expect(testnetView.json().data.api_key_masked).toBe(
      `${testnetKeys.apiKey.slice(0, 4)}********${testnetKeys.apiKey.slice(-4)}`,
    );
    const mainnetView = await call('GET', '/api/v1/credentials/binance');
    expect(mainnetView.json().data.api_key_masked.slice(-4)).toBe(mainnetKeys.apiKey.slice(-4));
  });

  it('reads the mainnet account and sends orders to the mainnet host while on mainnet, and the reverse', async () => {
    expect((await overview()).walletBalance).toMatch(/^5000/);
    const live = await placeOrder('env-mainnet-1');
    expect(live.statusCode, live.body).toBe(201);
    expect(ordersOn('mainnet', 'env-mainnet-1')).toHaveLength(1);
    expect(ordersOn('testnet', 'env-mainnet-1')).toHaveLength(0);

    // A page reads the mainnet account a moment before the switch
    expect((await overview()).walletBalance).toMatch(/^5000/);
    // Back to testnet needs no password; the page's next read is the testnet account at once (nothing kept from
    // the mainnet reads of a moment ago)
    expect((await switchTo('testnet')).statusCode).toBe(200);
    expect((await overview()).walletBalance).toMatch(/^1000/);
    const demo = await placeOrder('env-testnet-1');
    expect(demo.statusCode, demo.body).toBe(201);
    expect(ordersOn('testnet', 'env-testnet-1')).toHaveLength(1);
    expect(ordersOn('mainnet', 'env-testnet-1')).toHaveLength(0);
  });

  it('never sends a key to the other environment’s host (each simulator’s record of the keys it was sent)', () => {
    const mainnetSim = t.mainnet?.sim;
    expect(t.sim.apiKeysSeen.has(testnetKeys.apiKey)).toBe(true);
    expect(mainnetSim?.apiKeysSeen.has(mainnetKeys.apiKey)).toBe(true);
    expect(t.sim.apiKeysSeen.has(mainnetKeys.apiKey)).toBe(false);
    expect(mainnetSim?.apiKeysSeen.has(testnetKeys.apiKey)).toBe(false);
  });

  it('keeps the last 10 switches', async () => {
    for (let i = 0; i < 12; i++) {
      expect((await call('POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(200);
      t.clock.advance(1000);
      expect((await switchTo(i % 2 === 0 ? 'mainnet' : 'testnet')).statusCode).toBe(200);
    }
    const s = await state();
    expect(s.environmentHistory).toHaveLength(10);
    expect(s.environmentHistory.at(-1)).toMatchObject({ environment: 'testnet' });
    expect(s.currentEnvironment).toBe('testnet');
  });

  it('refuses a bad environment with a clear error', async () => {
    const bad = await call('PUT', '/api/v1/environment', { environment: 'prod' });
    expect(bad.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(bad.json()).message).toBe(
      'Invalid request: body.environment: environment must be "testnet" or "mainnet"',
    );
  });
});

describe('a server without mainnet configured', () => {
  const t = useTestServer();

  it('says mainnet is not configured and refuses to switch to it, with the reason', async () => {
    const { access_token } = await signUp(t);
    const s = EnvironmentResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/v1/environment', headers: bearer(access_token) })).json(),
    ).data;
    const mainnet = s.targets.find((x) => x.environment === 'mainnet');
    expect(mainnet).toMatchObject({ configured: false, kind: null });
    expect(mainnet?.reason).toMatch(/KESTREL_MAINNET=1/);
    const refused = await t.request({
      method: 'PUT',
      url: '/api/v1/environment',
      headers: bearer(access_token),
      payload: { environment: 'mainnet' },
    });
    expect(refused.statusCode).toBe(409);
    expect(ErrorResponseSchema.parse(refused.json())).toMatchObject({
      code: 'ENVIRONMENT_NOT_CONFIGURED',
      message: expect.stringMatching(/Mainnet is not configured/),
    });
  });
});
