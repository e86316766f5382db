import { createHmac, randomUUID } from 'node:crypto';
import type { Bot, BotEvent, BotStatus, SignalRecord } from '@kestrel/contracts/bots';
import { SIGNALS_PER_MINUTE } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { botRepository } from '../src/trading/bots/bot-repository';
import { signalRepository } from '../src/trading/bots/signals/signal-repository';
import { insertBotRow } from './bot-rows';
import { bearer, signUp, type TestApp } from './helper';
import { simRecord, useConnectedUser, useSimBots } from './sim-bots';
import { acrossVaultKeyRotation } from './vault-key-rotation';

/**
 * Signals in: a bot's webhook takes a charting tool's alerts. What it cannot trust (no secret, a wrong one, a bad
 * signature, a bad body, an old time) is refused and listed; what it trusts trades the live bot on the simulator
 * at once, once per signal id; a restart resumes the bot where its signals left it, sending nothing again.
 */
describe('signal webhooks', () => {
  const liveDeps = { orderTimings: { deadmanCountdownMs: 600_000 } };
  const { t, simClock, eventually, ...suite } = useSimBots({
    deps: { liveStreamLingerMs: 200, ...liveDeps },
    price: '50000',
  });
  const user = useConnectedUser(t);
  /** The app the calls go to (a restart replaces it) */
  let app: TestApp = t;

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.request({ method, url, headers: bearer(user.token), ...(payload ? { payload } : {}) });
  const sim = () => simRecord(suite.account(user.keys));
  const status = async (id: string): Promise<BotStatus> =>
    (await call('GET', `/api/v1/agents/${id}/status`)).json().data;
  const events = async (id: string): Promise<BotEvent[]> =>
    (await call('GET', `/api/v1/agents/${id}/events?limit=200`)).json().data;
  const signals = async (id: string): Promise<SignalRecord[]> =>
    (await call('GET', `/api/v1/agents/${id}/signals?limit=100`)).json().data.signals;

  /** A webhook-signal bot on BTCUSDT: 500 USDT × 0.5 at 3× = 750 USDT, 0.015 BTC at 50,000 */
  const createBot = async (name: string): Promise<Bot> => {
    const r = await call('POST', '/api/v1/agents/', {
      name,
      strategy: 'webhook-signal',
      params: { positionFraction: 0.5 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 3,
      budget: 500,
      mode: 'live',
    });
    expect(r.statusCode, r.body).toBe(201);
    return r.json().data;
  };
  const makeHook = async (botId: string): Promise<{ path: string; secret: string }> => {
    const r = await call('POST', `/api/v1/agents/${botId}/signal-hook`);
    expect(r.statusCode, r.body).toBe(201);
    const { hook, secret } = r.json().data;
    return { path: hook.path, secret };
  };
  let n = 0;
  /** An alert's body as TradingView would post it: its own id, the time now */
  const alert = (secret: string | undefined, fields: Record<string, unknown>) => ({
    ...(secret === undefined ? {} : { secret }),
    id: `alert-${++n}`,
    symbol: 'BTCUSDT.P',
    time: new Date(simClock.now()).toISOString(),
    ...fields,
  });
  /** Posts a signal with no sign-in, as a charting tool does; `signature` signs the raw body instead */
  const post = (path: string, body: string | object, headers: Record<string, string> = {}) =>
    app.request({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'text/plain', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /**
   * The entry the bot sizes from its equity now (the budget with what its trades made and paid: fees shrink it;
   * the price stays at 50,000, so nothing is unrealized): half of it at 3× at 50,000, down to the lot of 0.001
   */
  const entry = async (botId: string) => {
    const s = await status(botId);
    return Math.floor(((500 + s.realizedPnl) * 0.5 * 3) / 50_000 / 0.001) / 1000;
  };

  let bot: Bot;
  let hook: { path: string; secret: string };

  it('makes a webhook whose secret is shown once, and a new one retires the old URL at once', async () => {
    bot = await createBot('Signals');
    expect((await call('GET', `/api/v1/agents/${bot.id}/signal-hook`)).json().data).toEqual({ hook: null });
    const first = await makeHook(bot.id);
    expect(first.secret).toMatch(/^ksig_[A-Za-z0-9_-]{32}$/);
    expect(first.path).toMatch(/^\/api\/v1\/signals\/[A-Za-z0-9_-]{24}$/);
    const read = await call('GET', `/api/v1/agents/${bot.id}/signal-hook`);
    expect(read.json().data.hook).toMatchObject({ path: first.path });
    expect(read.body).not.toContain(first.secret);

    hook = await makeHook(bot.id);
    expect(hook.path).not.toBe(first.path);
    const old = await post(first.path, alert(first.secret, { action: 'buy' }));
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ code: 'SIGNAL_HOOK_NOT_FOUND' });
    // Another user's bot is not found either
    expect((await app.request({ method: 'GET', url: `/api/v1/agents/${bot.id}/signals` })).statusCode).toBe(
      401,
    );
  });

  it('refuses what it cannot trust or read, says why, and lists each on the bot', async () => {
    const refusals: [object | string, Record<string, string>, number, string, RegExp][] = [
      [alert(undefined, { action: 'buy' }), {}, 401, 'SIGNAL_UNAUTHORIZED', /carries no secret/],
      [alert('ksig_guess', { action: 'buy' }), {}, 401, 'SIGNAL_UNAUTHORIZED', /secret does not match/],
      [
        alert(undefined, { action: 'buy' }),
        { 'x-kestrel-signature': `sha256=${'0'.repeat(64)}` },
        401,
        'SIGNAL_UNAUTHORIZED',
        /signature does not match/,
      ],
      ['{"secret": ', {}, 400, 'INVALID_SIGNAL', /not JSON/],
      [
        alert(hook.secret, { action: 'buy', quantity: -1 }),
        {},
        400,
        'INVALID_SIGNAL',
        /quantity: quantity must be a positive number/,
      ],
      [alert(hook.secret, { action: 'buy', qty: 1 }), {}, 400, 'INVALID_SIGNAL', /qty/],
      [
        alert(hook.secret, { action: 'hold' }),
        {},
        400,
        'INVALID_SIGNAL',
        /action: action must be one of buy, sell, close, start, stop/,
      ],
      [
        alert(hook.secret, { action: 'buy', time: simClock.now() - 6 * 60_000 }),
        {},
        400,
        'SIGNAL_STALE',
        /360 s before the server's clock: only signals within 5 minutes/,
      ],
      [
        alert(hook.secret, { action: 'buy', symbol: 'ETHUSDT' }),
        {},
        400,
        'INVALID_SIGNAL',
        /trades BTCUSDT, not ETHUSDT/,
      ],
      // Trusted and well formed, but the bot is stopped
      [alert(hook.secret, { action: 'buy' }), {}, 409, 'BOT_NOT_RUNNING', /is stopped: start it/],
    ];
    for (const [body, headers, code, error, words] of refusals) {
      const r = await post(hook.path, body, headers);
      expect(r.statusCode, r.body).toBe(code);
      expect(r.json()).toMatchObject({ code: error });
      expect(r.json().message).toMatch(words);
    }
    const listed = await signals(bot.id);
    expect(listed).toHaveLength(refusals.length);
    expect(listed.every((s) => s.outcome === 'refused')).toBe(true);
    expect(listed.map((s) => s.message).reverse()).toEqual(refusals.map((r) => expect.stringMatching(r[4])));
    // Untrusted ones keep no sender id (it proves nothing); the trusted refusal keeps its own
    expect(listed[0]?.signalId).toMatch(/^alert-/);
    expect(listed.at(-1)?.signalId).toBeNull();
    expect(sim().all).toEqual([]);
    const log = await events(bot.id);
    expect(log.filter((e) => e.kind === 'signal_received')).toHaveLength(refusals.length);
    expect(log[0]?.message).toMatch(/^Signal buy BTCUSDT refused: Signals is stopped/);
  });

  it('trades the live bot at once: a buy opens, the same id again acts once, a signed sell reverses, a close flattens', async () => {
    const started = await call('POST', `/api/v1/agents/${bot.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    await eventually(async () => (await status(bot.id)).bot.state === 'running');

    expect(await entry(bot.id)).toBe(0.015);
    const buy = alert(hook.secret, { action: 'buy' });
    const bought = await post(hook.path, buy);
    expect(bought.statusCode, bought.body).toBe(200);
    expect(bought.json().data).toMatchObject({
      duplicate: false,
      signal: {
        signalId: buy.id,
        action: 'buy',
        symbol: 'BTCUSDT',
        outcome: 'acted',
        message: '1 order sent',
      },
    });
    expect(bought.json().data.signal.orders).toEqual([expect.stringMatching(/^kb-/)]);
    // Filled on the exchange before the answer, no candle close needed
    expect(sim().position).toBeCloseTo(0.015, 9);

    // The alert fires twice (a retry, a duplicate alert): the first outcome answers, nothing is sent again
    const again = await post(hook.path, buy);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toMatchObject({
      duplicate: true,
      signal: { id: bought.json().data.signal.id },
    });
    expect(sim().all).toHaveLength(1);

    // A sender that signs its body: no secret in it
    const short = await entry(bot.id);
    expect(short).toBe(0.014);
    const sell = JSON.stringify(alert(undefined, { action: 'sell' }));
    const signature = `sha256=${createHmac('sha256', hook.secret).update(sell).digest('hex')}`;
    const sold = await post(hook.path, sell, { 'x-kestrel-signature': signature });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(sold.json().data.signal).toMatchObject({ outcome: 'acted', message: '2 orders sent' });
    expect(sim().position).toBeCloseTo(-short, 9);

    // Already short: a second sell has nothing to do
    const idle = await post(hook.path, alert(hook.secret, { action: 'sell' }));
    expect(idle.json().data.signal).toMatchObject({ outcome: 'nothing' });
    expect(sim().all).toHaveLength(3);

    const closed = await post(hook.path, alert(hook.secret, { action: 'close' }));
    expect(closed.json().data.signal).toMatchObject({ outcome: 'acted', message: '1 order sent' });
    expect(sim().position).toBe(0);
    await eventually(async () => (await status(bot.id)).positionQty === 0);

    const log = await events(bot.id);
    const lines = log.filter((e) => e.kind === 'signal_received').map((e) => e.message);
    expect(lines.slice(0, 4)).toEqual([
      'Signal close BTCUSDT acted on: 1 order sent',
      'Signal sell BTCUSDT taken: Nothing to do: the bot’s position and orders already follow it',
      'Signal sell BTCUSDT acted on: 2 orders sent',
      'Signal buy BTCUSDT acted on: 1 order sent',
    ]);
  });

  it('resumes after a restart standing where its signals left it, sending nothing again', async () => {
    const long = await entry(bot.id);
    const opened = await post(hook.path, alert(hook.secret, { action: 'buy' }));
    expect(opened.json().data.signal.outcome).toBe('acted');
    expect(sim().position).toBeCloseTo(long, 9);
    const placed = sim().all.length;
    await t.app.close();
    app = await suite.anotherApp(liveDeps);
    await eventually(async () => (await status(bot.id)).bot.state === 'running');
    // Every signal of the session was handed to the strategy again: its orders found in the record, none sent
    expect(sim().all).toHaveLength(placed);
    expect((await status(bot.id)).positionQty).toBeCloseTo(long, 9);
    // It knows it is long: a sell closes the long before it opens the short (two orders, as before the restart)
    const short = await entry(bot.id);
    const sold = await post(hook.path, alert(hook.secret, { action: 'sell' }));
    expect(sold.json().data.signal).toMatchObject({ outcome: 'acted', message: '2 orders sent' });
    expect(sim().position).toBeCloseTo(-short, 9);
    expect(sim().all).toHaveLength(placed + 2);
  });

  it('hands a signal another instance received to the instance running the bot, which acts on it', async () => {
    const other = await suite.anotherApp(liveDeps);
    expect(other.app.botRunner.runningIds).toEqual([]);
    const placed = sim().all.length;
    const r = await other.request({
      method: 'POST',
      url: hook.path,
      headers: { 'content-type': 'application/json' },
      payload: alert(hook.secret, { action: 'close' }),
    });
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json().data.signal).toMatchObject({ outcome: 'pending' });
    // The instance holding the bot is woken (NOTIFY) and acts at once, no lease round needed
    await eventually(async () => (await signals(bot.id))[0]?.outcome === 'acted');
    expect((await signals(bot.id))[0]?.message).toBe('1 order sent');
    expect(sim().all).toHaveLength(placed + 1);
    expect(sim().position).toBe(0);
  });

  it('does not act late: a waiting signal older than 5 minutes when the bot’s instance takes it is refused', async () => {
    const [owner] = await app.app.db.query<{ user_id: string }>('SELECT user_id FROM bots WHERE id = $1', [
      bot.id,
    ]);
    const row = await botRepository.find(app.app.db, owner?.user_id ?? '', bot.id);
    if (!row) throw new Error('the bot is gone');
    await signalRepository.insert(app.app.db, {
      id: randomUUID(),
      bot_id: bot.id,
      signal_id: 'late-1',
      action: 'buy',
      symbol: 'BTCUSDT',
      quantity: null,
      price: null,
      received_at: new Date(simClock.now() - 6 * 60_000),
      outcome: 'pending',
      message: 'Received: on its way to the bot',
    });
    const placed = sim().all.length;
    await app.app.botSignals.deliverPending([row]);
    const late = (await signals(bot.id)).find((s) => s.signalId === 'late-1');
    expect(late).toMatchObject({ outcome: 'refused', message: expect.stringMatching(/too late to act on/) });
    expect(sim().all).toHaveLength(placed);
  });

  it('starts and stops any bot of its owner, and takes at most 30 signals a minute', async () => {
    const stop = await post(hook.path, alert(hook.secret, { action: 'stop' }));
    expect(stop.statusCode, stop.body).toBe(200);
    expect(stop.json().data.signal).toMatchObject({ outcome: 'acted', message: 'Stopped the bot' });
    await eventually(async () => (await status(bot.id)).bot.state === 'stopped');
    const start = await post(hook.path, alert(hook.secret, { action: 'start' }));
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().data.signal).toMatchObject({ outcome: 'acted', message: 'Started the bot' });
    await eventually(async () => (await status(bot.id)).bot.state === 'running');
    // A position on the symbol that is not the bot's: a start is refused as a manual one would be
    const manual = await app.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(user.token),
      payload: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003' },
    });
    expect(manual.statusCode, manual.body).toBe(201);
    expect(sim().position).toBeCloseTo(0.003, 9);
    expect((await post(hook.path, alert(hook.secret, { action: 'stop' }))).statusCode).toBe(200);
    await eventually(async () => (await status(bot.id)).bot.state === 'stopped');
    const shared = await post(hook.path, alert(hook.secret, { action: 'start' }));
    expect(shared.statusCode).toBe(409);
    expect(shared.json()).toMatchObject({ code: 'SYMBOL_SHARED' });

    const used = (await signals(bot.id)).filter((s) => s.receivedAt > simClock.now() - 60_000).length;
    for (let i = used; i < SIGNALS_PER_MINUTE; i++)
      expect((await post(hook.path, alert('ksig_guess', { action: 'buy' }))).statusCode).toBe(401);
    const over = await post(hook.path, alert(hook.secret, { action: 'buy' }));
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBe('60');
    // A minute later it takes signals again
    simClock.advance(61_000);
    expect((await post(hook.path, alert(hook.secret, { action: 'buy' }))).statusCode).toBe(409);
  });

  it('makes webhook-signal bots live only, and refuses trade signals for a strategy that decides its own orders', async () => {
    const paper = await call('POST', '/api/v1/agents/', {
      name: 'Paper signals',
      strategy: 'webhook-signal',
      params: {},
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 3,
      budget: 500,
      mode: 'paper',
    });
    expect(paper.statusCode).toBe(400);
    expect(paper.json().message).toMatch(/^Invalid bot: mode: Webhook signals trade live only/);

    const grid = await call('POST', '/api/v1/agents/', {
      name: 'Grid on signals',
      strategy: 'grid',
      params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
      symbol: 'BTCUSDT',
      interval: '1m',
      leverage: 5,
      budget: 500,
      mode: 'paper',
    });
    expect(grid.statusCode, grid.body).toBe(201);
    const gridHook = await makeHook(grid.json().data.id);
    const r = await post(gridHook.path, alert(gridHook.secret, { action: 'buy' }));
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'SIGNALS_NOT_TAKEN' });
    expect(r.json().message).toMatch(
      /does not trade on signals \(its strategy decides its own orders\): only start and stop/,
    );
    const removed = await call('DELETE', `/api/v1/agents/${grid.json().data.id}/signal-hook`);
    expect(removed.statusCode).toBe(200);
    expect((await post(gridHook.path, alert(gridHook.secret, { action: 'buy' }))).statusCode).toBe(404);
  });
});

describe('signal secrets and the vault key', () => {
  it('re-wraps a hook’s secret with the vault-key rotation: after it the same secret still authenticates', async () => {
    await acrossVaultKeyRotation(
      {},
      async (before) => {
        const auth = await signUp(before);
        const id = await insertBotRow(before.app.db, auth.user.id, 'bot', before.clock.now(), {
          name: 'rotated',
        });
        const made = await before.request({
          method: 'POST',
          url: `/api/v1/agents/${id}/signal-hook`,
          headers: bearer(auth.access_token),
        });
        expect(made.statusCode, made.body).toBe(201);
        return { path: made.json().data.hook.path as string, secret: made.json().data.secret as string };
      },
      async (after, { path, secret }, { db, newKey }) => {
        const rows = await db.query<{ master_key_id: string }>('SELECT master_key_id FROM bot_signal_hooks');
        expect(rows.map((r) => r.master_key_id)).toEqual([newKey.id]);
        // Opened with the new key only: the secret matches (the bot, stopped, refuses a buy for that reason)
        const r = await after.request({
          method: 'POST',
          url: path,
          headers: { 'content-type': 'application/json' },
          payload: {
            secret,
            id: 'after-rotation',
            action: 'stop',
            symbol: 'BTCUSDT',
            time: after.clock.now().getTime(),
          },
        });
        expect(r.json().code).not.toBe('SIGNAL_UNAUTHORIZED');
        expect(r.statusCode, r.body).toBe(409);
      },
    );
  });
});
