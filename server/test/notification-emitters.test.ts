import {
  type CreatedWebhook,
  CreatedWebhookResponseSchema,
  NotificationListResponseSchema,
  type WebhookEvent,
  WebhookPayloadSchema,
} from '@kestrel/contracts/account';
import type { Bot, BotStatus } from '@kestrel/contracts/bots';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_REFUSED_NOTICE_EVERY_MS } from '../src/core/notifications/key-refusal-notices';
import { bearer, type DemoKeys, PASSWORD } from './helper';
import { liveGridBot, useSimBots } from './sim-bots';
import { type Receiver, signatureChecks, startReceiver } from './webhook-receiver';

const ALL_EVENTS: WebhookEvent[] = [
  'order_filled',
  'bot_started',
  'bot_stopped',
  'bot_stopped_by_risk',
  'kill_switch',
  'exchange_key_refused',
  'new_device_signin',
];

/**
 * Every event a user can subscribe to reaches a real local receiver, signed, from the one place the server decides
 * it: a bot's start, fill, stop and risk stop (its log), a key Binance refuses (the exchange adapter), and account
 * deletion stopping every live bot, its orders canceled on the simulator, before the keys go.
 */
describe('notification emitters and account deletion on the simulator', () => {
  const { t, simClock, eventually, nextBar } = useSimBots({
    env: { KESTREL_WEBHOOKS_ALLOW_PRIVATE: '1' },
    deps: { liveStreamLingerMs: 200, orderTimings: { deadmanCountdownMs: 600_000 } },
    price: '50000',
  });
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A connected user with a webhook on every event at the receiver */
  async function subscribedUser(): Promise<{
    token: string;
    email: string;
    keys: DemoKeys;
    hook: CreatedWebhook;
  }> {
    const { auth, keys } = await t.connectedUser();
    const res = await call(auth.access_token, 'POST', '/api/v1/notifications/webhooks', {
      url: receiver.url,
      events: ALL_EVENTS,
    });
    expect(res.statusCode, res.body).toBe(201);
    return {
      token: auth.access_token,
      email: auth.user.email,
      keys,
      hook: CreatedWebhookResponseSchema.parse(res.json()).data,
    };
  }

  /** The signed deliveries of one webhook at the receiver, as the receiver's owner reads them */
  const delivered = (hook: CreatedWebhook) =>
    receiver.received
      .filter((r) => signatureChecks(hook.secret, r))
      .map((r) => ({
        event: r.headers['x-kestrel-event'],
        payload: WebhookPayloadSchema.parse(JSON.parse(r.body)),
      }));
  const deliveredOf = (hook: CreatedWebhook, event: WebhookEvent) =>
    delivered(hook).filter((d) => d.event === event);

  const inApp = async (token: string) =>
    NotificationListResponseSchema.parse((await call(token, 'GET', '/api/v1/notifications?limit=50')).json())
      .data.items;

  const grid = liveGridBot('Live grid');
  async function startBot(token: string, body: object): Promise<Bot> {
    const created = await call(token, 'POST', '/api/v1/agents/', body);
    expect(created.statusCode, created.body).toBe(201);
    const bot: Bot = created.json().data;
    const started = await call(token, 'POST', `/api/v1/agents/${bot.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    return bot;
  }
  const status = async (token: string, id: string): Promise<BotStatus> =>
    (await call(token, 'GET', `/api/v1/agents/${id}/status`)).json().data;

  const openOrders = (keys: DemoKeys) =>
    [...(t.sim.exchange.accountByKey(keys.apiKey)?.orders.values() ?? [])].filter(
      (o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED',
    );

  it('tells of a live bot’s start, each fill and its stop, signed, and lists them in the app', async () => {
    const u = await subscribedUser();
    const bot = await startBot(u.token, grid);
    await eventually(() => deliveredOf(u.hook, 'bot_started').length === 1);
    expect(deliveredOf(u.hook, 'bot_started')[0]?.payload.data).toMatchObject({ botId: bot.id });

    await nextBar(() => openOrders(u.keys).length === 10);
    // The price dips through two buy levels: the exchange fills both; the bot reads them at the bar's close
    t.sim.exchange.setPrice('BTCUSDT', { price: '49500' });
    await nextBar(async () => (await status(u.token, bot.id)).positionQty !== 0);
    await eventually(() => deliveredOf(u.hook, 'order_filled').length === 2);
    const fills = deliveredOf(u.hook, 'order_filled').map((d) => d.payload.data);
    expect(fills.map((f) => f.price).sort()).toEqual([49_600, 49_800]);
    expect(fills, JSON.stringify(fills)).toEqual([
      expect.objectContaining({ side: 'buy', botId: bot.id }),
      expect.objectContaining({ side: 'buy', botId: bot.id }),
    ]);

    expect((await call(u.token, 'POST', `/api/v1/agents/${bot.id}/stop`)).statusCode).toBe(200);
    await eventually(() => deliveredOf(u.hook, 'bot_stopped').length === 1);
    expect(deliveredOf(u.hook, 'bot_stopped')[0]?.payload.message).toMatch(/^Stopped by you/);
    expect(openOrders(u.keys)).toEqual([]);

    const list = await inApp(u.token);
    expect(list.map((n) => n.event).sort()).toEqual(
      ['bot_started', 'bot_stopped', 'order_filled', 'order_filled'].sort(),
    );
    expect(list.find((n) => n.event === 'bot_started')?.title).toBe('Bot “Live grid” started');
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
  });

  it('tells of a bot stopped by its own risk limit, and not of an ordinary stop', async () => {
    const u = await subscribedUser();
    // Each grid order is 0.003 BTC ≈ 150 USDT: a 50 USDT cap refuses the first one and stops the bot
    const bot = await startBot(u.token, { ...grid, name: 'Capped', riskLimits: { maxNotional: 50 } });
    await nextBar(async () => (await status(u.token, bot.id)).bot.state === 'error');
    await eventually(() => deliveredOf(u.hook, 'bot_stopped_by_risk').length === 1);
    const [risk] = deliveredOf(u.hook, 'bot_stopped_by_risk');
    expect(risk?.payload.message).toMatch(/^Max notional exceeded/);
    expect(risk?.payload.data).toMatchObject({ botId: bot.id, limit: 'maxNotional', max: 50 });
    expect(deliveredOf(u.hook, 'bot_stopped')).toEqual([]);
  });

  it('tells once when Binance refuses the stored key, however many calls fail, and again after the window', async () => {
    const u = await subscribedUser();
    // The owner takes the futures permission away on Binance: every signed call answers -2015
    const account = t.sim.exchange.accountByKey(u.keys.apiKey);
    if (!account) throw new Error('demo account missing');
    account.permissions.enableFutures = false;
    for (let i = 0; i < 3; i++) {
      const res = await call(u.token, 'GET', '/api/futures/positions/active');
      expect(res.json().code, res.body).toBe('EXCHANGE_KEYS_REFUSED');
    }
    await eventually(() => deliveredOf(u.hook, 'exchange_key_refused').length === 1);
    expect(deliveredOf(u.hook, 'exchange_key_refused')[0]?.payload.message).toMatch(
      /^Binance refused the stored API key: .+Settings\.$/,
    );
    // The key's secret appears in no notice, log or answer
    expect(JSON.stringify(receiver.received)).not.toContain(u.keys.secretKey);
    expect(t.logs.join('\n')).not.toContain(u.keys.secretKey);

    simClock.advance(KEY_REFUSED_NOTICE_EVERY_MS);
    // An hour on, the access token has expired too: sign in again
    const signin = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: u.email, password: PASSWORD },
    });
    const again = await call(signin.json().access_token, 'GET', '/api/futures/positions/active');
    expect(again.json().code, again.body).toBe('EXCHANGE_KEYS_REFUSED');
    await eventually(() => deliveredOf(u.hook, 'exchange_key_refused').length === 2);
    account.permissions.enableFutures = true;
  });

  it('deleting the account stops every live bot and cancels its orders before the keys go; sign-in then fails', async () => {
    const u = await subscribedUser();
    const bot = await startBot(u.token, { ...grid, name: 'Going away' });
    await nextBar(() => openOrders(u.keys).length === 10);
    expect(t.app.botRunner.runningIds).toContain(bot.id);

    const res = await call(u.token, 'POST', '/api/v1/account/delete', {
      password: PASSWORD,
      confirmation: 'DELETE',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Canceled on the exchange by the bot itself (the simulator's own record), not left to the dead-man switch
    expect(openOrders(u.keys)).toEqual([]);
    const all = [...(t.sim.exchange.accountByKey(u.keys.apiKey)?.orders.values() ?? [])];
    expect(all.filter((o) => o.status === 'CANCELED')).toHaveLength(10);
    expect(t.app.botRunner.runningIds).not.toContain(bot.id);
    const rows = await t.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM bots WHERE id = $1', [
      bot.id,
    ]);
    expect(rows[0]?.n).toBe(0);

    const signin = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email: u.email, password: PASSWORD },
    });
    expect(signin.statusCode).toBe(401);
  });
});
