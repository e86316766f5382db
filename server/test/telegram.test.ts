import { ErrorResponseSchema } from '@kestrel/contracts';
import {
  NotificationListResponseSchema,
  TELEGRAM_DEFAULT_EVENTS,
  TELEGRAM_LINK_CODE_ALPHABET,
  TelegramCommandsResponseSchema,
  TelegramLinkCodeResponseSchema,
  TelegramSettingsResponseSchema,
} from '@kestrel/contracts/account';
import { TelegramSim } from '@kestrel/telegram-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelegramClient } from '../src/core/notifications/telegram/telegram-client';
import { TelegramOutbox } from '../src/core/notifications/telegram/telegram-outbox';
import { UNLINKED_ANSWER } from '../src/core/notifications/telegram/telegram-service';
import { ManualClock } from '../src/lib/clock';
import {
  bearer,
  buildTestApp,
  openTestDatabase,
  PASSWORD,
  signUp,
  type TestApp,
  type TestDatabase,
} from './helper';
import { paperGridBot, simRecord, useSimBots } from './sim-bots';

/** The Bot API of the suite's bot: one stand-in per suite, since one bot has one poller */
async function standIn(): Promise<{ tg: TelegramSim; env: NodeJS.ProcessEnv }> {
  const tg = new TelegramSim();
  const { url } = await tg.listen(0);
  afterAll(() => tg.close());
  return { tg, env: { KESTREL_TELEGRAM_BOT_TOKEN: tg.token, KESTREL_TELEGRAM_API_URL: url } };
}

const main = await standIn();

/** How long a test waits for the bot's answer (wall time): generous, the machine may be loaded */
const WAIT_MS = 15_000;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (app: TestApp, token: string, method: Method, url: string, payload?: object) =>
  app.request({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

/**
 * The user writes `text` to the bot from `chatId`; resolves with the first message the bot sends there afterwards
 * that matches (a notice the command caused may come before its answer)
 */
async function ask(tg: TelegramSim, chatId: number, text: string, match = /[\s\S]/): Promise<string> {
  const before = tg.sent(chatId).length;
  tg.userSends(chatId, text);
  for (let n = before + 1; ; n++) {
    const found = (await tg.waitForSent(chatId, n, WAIT_MS))
      .slice(before)
      .find((m) => match.test(m.text ?? ''));
    if (found?.text) return found.text;
  }
}

/** Waits (wall time, 20 ms apart, `WAIT_MS` at most) until `done` holds */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < WAIT_MS / 20 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
}

async function linkCode(app: TestApp, token: string) {
  const res = await call(app, token, 'POST', '/api/v1/notifications/telegram/link-code');
  expect(res.statusCode, res.body).toBe(201);
  return TelegramLinkCodeResponseSchema.parse(res.json()).data;
}

/** Links `chatId` to the user with a fresh code, as the account page and the user's phone do */
async function link(tg: TelegramSim, app: TestApp, token: string, chatId: number): Promise<string> {
  const { code } = await linkCode(app, token);
  const answer = await ask(tg, chatId, `/start ${code}`);
  expect(answer).toMatch(/^Linked to /);
  return answer;
}

describe('Telegram against the Bot API stand-in and the exchange simulator', () => {
  const { tg } = main;
  const { t, simClock, account } = useSimBots({ env: main.env, price: '50000' });
  const settings = async (token: string) =>
    TelegramSettingsResponseSchema.parse(
      (await call(t, token, 'GET', '/api/v1/notifications/telegram')).json(),
    ).data;
  const commands = async (token: string) =>
    TelegramCommandsResponseSchema.parse(
      (await call(t, token, 'GET', '/api/v1/notifications/telegram/commands')).json(),
    ).data;
  const stepUp = async (token: string) =>
    expect((await call(t, token, 'POST', '/api/v1/account/step-up', { password: PASSWORD })).statusCode).toBe(
      200,
    );

  it('links a chat by a one-time code: an unknown, expired or used code is refused, other users see nothing', async () => {
    const auth = await signUp(t);
    const token = auth.access_token;
    expect(await settings(token)).toEqual({ enabled: true, botUsername: tg.bot.username, chat: null });

    expect(await ask(tg, 1001, '/status')).toBe(UNLINKED_ANSWER);
    expect(await ask(tg, 1001, '/start ABCDEFGH')).toMatch(/^That code is unknown or was used already/);

    const first = await linkCode(t, token);
    expect(first.code).toMatch(new RegExp(`^[${TELEGRAM_LINK_CODE_ALPHABET}]{8}$`));
    expect(first.expiresAt).toBe(simClock.now() + 10 * 60_000);
    expect(first.deepLink).toBe(`https://t.me/${tg.bot.username}?start=${first.code}`);
    // A group chat is never linked: anyone in it could run the kill switch
    tg.userSends(-5001, `/start ${first.code}`, { id: 1001 }, { type: 'group', title: 'Traders' });
    expect((await tg.nextSent(-5001, WAIT_MS)).text).toMatch(/private chat only/);

    // Ten minutes later the code is refused, and it is gone (a second try is "unknown")
    simClock.advance(10 * 60_000 + 1_000);
    expect(await ask(tg, 1001, `/start ${first.code}`)).toMatch(/^That code has expired/);
    expect(await ask(tg, 1001, `/start ${first.code}`)).toMatch(/^That code is unknown/);

    // The code needs the password given in the last 5 minutes (a linked chat can run the kill switch)
    const stale = await call(t, token, 'POST', '/api/v1/notifications/telegram/link-code');
    expect([stale.statusCode, ErrorResponseSchema.parse(stale.json()).code]).toEqual([
      403,
      'STEP_UP_REQUIRED',
    ]);
    await stepUp(token);
    const { code } = await linkCode(t, token);
    // The code alone, typed in any case, links too
    expect(await ask(tg, 1001, code.toLowerCase())).toBe(
      `Linked to ${auth.user.email}. This chat is told about: Bot started, Bot stopped, Bot stopped by risk, Kill switch, Exchange key refused, Sign-in from a new device, TP/SL not placed, Agent waiting for approval, Failed sign-ins on your account. Send /help for the commands.`,
    );
    // Used once: another chat sending it gets nowhere
    expect(await ask(tg, 2002, `/start ${code}`)).toMatch(/^That code is unknown/);

    const linked = await settings(token);
    expect(linked.chat).toEqual({
      username: 'user1001',
      linkedAt: simClock.now(),
      events: [...TELEGRAM_DEFAULT_EVENTS],
    });
    expect(await ask(tg, 1001, '/help')).toMatch(/^Kestrel commands:\n\/status – /);
    expect(await ask(tg, 1001, '/nonsense')).toMatch(/^Unknown command \/nonsense\.\n\nKestrel commands:/);
    expect((await commands(token)).map((c) => [c.command, c.answer.split('\n')[0]])).toEqual([
      ['/nonsense', 'Unknown command /nonsense.'],
      ['/help', 'Kestrel commands:'],
      [
        '/start',
        `Linked to ${auth.user.email}. This chat is told about: Bot started, Bot stopped, Bot stopped by risk, Kill switch, Exchange key refused, Sign-in from a new device, TP/SL not placed, Agent waiting for approval, Failed sign-ins on your account. Send /help for the commands.`,
      ],
    ]);

    // Another user reaches none of it
    const other = (await signUp(t)).access_token;
    expect((await settings(other)).chat).toBeNull();
    expect(await commands(other)).toEqual([]);
    expect((await call(t, other, 'DELETE', '/api/v1/notifications/telegram')).statusCode).toBe(404);
    expect(
      (await call(t, other, 'PUT', '/api/v1/notifications/telegram/events', { events: [] })).statusCode,
    ).toBe(404);

    // 400s name the field
    const bad = await call(t, token, 'PUT', '/api/v1/notifications/telegram/events', {
      events: ['kill_switch', 'nope'],
    });
    expect(bad.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(bad.json()).issues?.[0]?.path).toBe('body.events.1');
    const limit = await call(t, token, 'GET', '/api/v1/notifications/telegram/commands?limit=0');
    expect(ErrorResponseSchema.parse(limit.json()).issues?.[0]).toMatchObject({
      path: 'querystring.limit',
      message: 'limit must be at least 1',
    });

    // Unlinked, the chat is a stranger again
    expect((await call(t, token, 'DELETE', '/api/v1/notifications/telegram')).statusCode).toBe(200);
    expect(await ask(tg, 1001, '/status')).toBe(UNLINKED_ANSWER);
  });

  it('tells the chat the events the user chose, and not the others', async () => {
    const auth = await signUp(t);
    await link(tg, t, auth.access_token, 1101);
    const put = await call(t, auth.access_token, 'PUT', '/api/v1/notifications/telegram/events', {
      events: ['kill_switch', 'bot_started'],
    });
    expect(put.json().data.events).toEqual(['kill_switch', 'bot_started']);
    const next = tg.nextSent(1101, WAIT_MS);
    // Unchosen first: were it sent, it would be the next message (a chat's messages go in order)
    await t.app.notifications.notify(auth.user.id, 'order_filled', {
      title: 'Order filled',
      message: 'BUY 0.01',
    });
    await t.app.notifications.notify(auth.user.id, 'kill_switch', {
      title: 'Kill switch',
      message: 'Kill switch: canceled 0 of 0 orders',
    });
    expect((await next).text).toBe('Kill switch\nKill switch: canceled 0 of 0 orders');
  });

  it('/status answers with the user’s real figures; without keys it says so', async () => {
    const { auth, keys } = await t.connectedUser();
    const token = auth.access_token;
    await link(tg, t, token, 1201);
    const placed = await call(t, token, 'POST', '/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.010',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect(simRecord(account(keys)).position).toBe(0.01);
    const status = await ask(tg, 1201, '/status');
    const overview = (await call(t, token, 'GET', '/api/v1/dashboard/overview')).json().data;
    const money = (v: string) =>
      Number(v).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(status.split('\n')).toEqual([
      'Account (testnet)',
      `Equity ${money(overview.marginBalance)} USDT (wallet ${money(overview.walletBalance)})`,
      expect.stringMatching(/^Unrealized PnL [+-][\d,.]+ USDT$/),
      `Available ${money(overview.availableMargin)} USDT`,
      'Open positions: 1 · open orders: 0',
      'Bots running: 0',
    ]);
    expect(overview.openPositions).toBe(1);

    const bare = await signUp(t);
    await link(tg, t, bare.access_token, 1202);
    expect(await ask(tg, 1202, '/status')).toBe(
      "No Binance API key is stored for testnet: connect Binance in Kestrel's Settings.\nBots running: 0",
    );
    expect(await ask(tg, 1202, '/profit')).toMatch(
      /^Realized PnL \(testnet, UTC days\)\nToday: \+0\.00 USDT/,
    );
  });

  it('/bots lists the bots and /stop stops a running paper bot; an ambiguous or unknown name lists the candidates', async () => {
    const auth = await signUp(t);
    const token = auth.access_token;
    await link(tg, t, token, 1301);
    expect(await ask(tg, 1301, '/bots')).toBe("No bots yet: create one on Kestrel's Bot hub.");
    const ids: string[] = [];
    for (const name of ['Grid north', 'Grid south']) {
      const created = await call(t, token, 'POST', '/api/v1/agents/', paperGridBot(name));
      expect(created.statusCode, created.body).toBe(201);
      ids.push(created.json().data.id);
    }
    const [north, south] = ids as [string, string];
    expect((await call(t, token, 'POST', `/api/v1/agents/${north}/start`)).statusCode).toBe(200);

    const bots = await ask(tg, 1301, '/bots', /^2 bots/);
    expect(bots.split('\n')).toEqual([
      '2 bots, 1 running. PnL +0.00 USDT (today +0.00)',
      `• Grid north [${north.slice(0, 8)}] running, BTCUSDT paper, PnL +0.00 USDT (today +0.00)`,
      `• Grid south [${south.slice(0, 8)}] stopped, BTCUSDT paper, PnL +0.00 USDT (today +0.00)`,
    ]);
    expect(await ask(tg, 1301, '/stop grid')).toMatch(
      /^“grid” matches 2 bots; send more of the name or the id:\n• Grid north/,
    );
    expect(await ask(tg, 1301, '/stop moon')).toMatch(/^No bot matches “moon”\. Your bots:\n/);
    expect(await ask(tg, 1301, `/stop ${south.slice(0, 6)}`)).toBe(
      '“Grid south”: This bot is not running (it is stopped)',
    );
    expect(await ask(tg, 1301, '/stop grid NORTH', /^Stopped/)).toBe(
      'Stopped “Grid north” (BTCUSDT paper); its orders were canceled.',
    );
    expect((await call(t, token, 'GET', `/api/v1/agents/${north}`)).json().data.state).toBe('stopped');
  });

  it('/kill asks, and /kill confirm within 60 s runs the kill switch: bots stopped, the position flattened, recorded as the button is', async () => {
    const { auth, keys } = await t.connectedUser();
    const token = auth.access_token;
    await link(tg, t, token, 1401);
    // A confirmation after 60 s is no confirmation
    expect(await ask(tg, 1401, '/kill')).toMatch(
      /^The kill switch stops all your bots, .* Send \/kill confirm within 60 seconds/,
    );
    simClock.advance(61_000);
    expect(await ask(tg, 1401, '/kill confirm')).toMatch(/^No kill switch is waiting to be confirmed/);

    const placed = await call(t, token, 'POST', '/api/futures/orders/create', {
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'MARKET',
      quantity: '0.020',
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const bot = (await call(t, token, 'POST', '/api/v1/agents/', paperGridBot('Kill me'))).json().data;
    expect((await call(t, token, 'POST', `/api/v1/agents/${bot.id}/start`)).statusCode).toBe(200);
    expect(simRecord(account(keys)).position).toBe(-0.02);

    await ask(tg, 1401, '/kill', /^The kill switch/);
    simClock.advance(30_000);
    expect(await ask(tg, 1401, '/kill confirm', /^Kill switch done/)).toBe(
      'Kill switch done: stopped 1 bot, canceled 0 of 0 orders, closed 1 of 1 position.',
    );
    expect(simRecord(account(keys))).toMatchObject({ open: [], position: 0 });
    expect((await call(t, token, 'GET', `/api/v1/agents/${bot.id}`)).json().data.state).toBe('stopped');
    // The same records the /risk button leaves: the risk audit and the notice
    const [event] = (await call(t, token, 'GET', '/api/v1/risk/events')).json().data;
    expect(event).toMatchObject({
      kind: 'kill_switch',
      message: 'Kill switch: canceled 0 of 0 orders, closed 1 of 1 positions',
    });
    const [notice] = NotificationListResponseSchema.parse(
      (await call(t, token, 'GET', '/api/v1/notifications')).json(),
    ).data.items;
    expect(notice).toMatchObject({ event: 'kill_switch', title: 'Kill switch' });
    // The chat chose kill_switch (a default): it was told, as a webhook would be
    expect(tg.sent(1401).map((m) => m.text)).toContain(`Kill switch\n${event.message}`);
    // A confirm is used once
    expect(await ask(tg, 1401, '/kill confirm', /^No kill switch/)).toMatch(/^No kill switch is waiting/);
    const record = (await commands(token)).map((c) => c.command);
    expect(record.slice(0, 4)).toEqual(['/kill confirm', '/kill confirm', '/kill', '/kill confirm']);
  });

  it('a chat Telegram stalls or rate limits holds only its own messages, never another user’s', async () => {
    const [a, b] = [await signUp(t), await signUp(t)];
    await link(tg, t, a.access_token, 1501);
    await link(tg, t, b.access_token, 1502);
    const notice = (userId: string, message: string) =>
      t.app.notifications.notify(userId, 'kill_switch', { title: 'Kill switch', message });
    const release = tg.holdChat(1501);
    const heldCount = tg.sent(1501).length;
    const toB = tg.nextSent(1502, WAIT_MS);
    await notice(a.user.id, 'for a, held');
    await notice(b.user.id, 'for b');
    expect((await toB).text).toBe('Kill switch\nfor b');
    expect(tg.sent(1501)).toHaveLength(heldCount);
    release();
    expect((await tg.nextSent(1501, WAIT_MS)).text).toBe('Kill switch\nfor a, held');

    // A 429 answers a's next send: b's goes on while a waits its retry_after
    tg.failNext({ method: 'sendMessage', chatId: 1501, errorCode: 429, retryAfter: 1 });
    const retried = tg.nextSent(1501, WAIT_MS);
    const toB2 = tg.nextSent(1502, WAIT_MS);
    await notice(a.user.id, 'for a, after a 429');
    await notice(b.user.id, 'for b again');
    expect((await toB2).text).toBe('Kill switch\nfor b again');
    expect((await retried).text).toBe('Kill switch\nfor a, after a 429');
    expect(
      tg.calls.filter((c) => c.method === 'sendmessage' && c.params.chat_id === 1501).at(-2)?.status,
    ).toBe(429);
  });

  it('never writes the bot token into a log line', () => {
    const secret = tg.token.split(':')[1] as string;
    expect(t.logs.join('\n')).not.toContain(secret);
  });
});

describe('Telegram off (no bot token)', () => {
  let tdb: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  it('says so, and refuses a link code', async () => {
    const { access_token } = await signUp(t);
    expect((await call(t, access_token, 'GET', '/api/v1/notifications/telegram')).json().data).toEqual({
      enabled: false,
      chat: null,
    });
    const res = await call(t, access_token, 'POST', '/api/v1/notifications/telegram/link-code');
    expect([res.statusCode, res.json().code]).toEqual([409, 'TELEGRAM_OFF']);
  });
});

describe('the getUpdates offset across a restart', () => {
  let tdb: TestDatabase;
  const apps: TestApp[] = [];
  let stand: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    stand = await standIn();
    tdb = await openTestDatabase('pglite');
  });
  afterAll(async () => {
    for (const a of apps) await a.app.close().catch(() => {});
    await tdb?.cleanup();
  });
  const start = async (keyring?: TestApp['keyring']) => {
    const app = await buildTestApp(tdb.db, keyring ? { keyring } : {}, stand.env);
    apps.push(app);
    return app;
  };

  it('resumes from the stored offset: an update Telegram still holds is not answered twice, one sent while down is answered', async () => {
    const { tg } = stand;
    const first = await start();
    const { access_token } = await signUp(first);
    await link(tg, first, access_token, 3001);
    // Telegram stops answering polls: the app cannot tell it /help was taken (no offset past it reaches Telegram).
    // The app's poll is held first, so /help answers it
    await until(() => tg.polling);
    tg.failNext({ method: 'getUpdates', errorCode: 502, description: 'Bad Gateway', times: 1_000 });
    const help = tg.userSends(3001, '/help');
    await tg.waitForSent(3001, 2, WAIT_MS);
    await first.app.close();
    tg.clearFaults();
    const bots = tg.userSends(3001, '/bots');
    expect(tg.pendingUpdates.map((u) => u.update_id)).toEqual([help.update_id, bots.update_id]);

    const mark = tg.calls.length;
    const second = await start(first.keyring);
    const answers = await tg.waitForSent(3001, 3, WAIT_MS);
    expect(answers.map((m) => m.text?.split('\n')[0])).toEqual([
      expect.stringMatching(/^Linked to /),
      'Kestrel commands:',
      "No bots yet: create one on Kestrel's Bot hub.",
    ]);
    // It polled from the offset stored past /help, which confirmed it
    expect(tg.calls.slice(mark).find((c) => c.method === 'getupdates')?.params.offset).toBe(
      help.update_id + 1,
    );
    // Nothing more comes: one more command is answered next, not a repeat
    expect(await ask(tg, 3001, '/start')).toMatch(/^This chat is linked to /);
    expect(tg.sent(3001)).toHaveLength(4);
    expect(second.logs.concat(first.logs).join('\n')).not.toContain(tg.token.split(':')[1]);
  });
});

describe('the outbox on a hand-moved clock', () => {
  let stand: Awaited<ReturnType<typeof standIn>>;
  beforeAll(async () => {
    stand = await standIn();
  });

  it('waits a 429’s retry_after on the clock for that chat only, and drops a message refused for good', async () => {
    const { tg, env } = stand;
    const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
    const warnings: string[] = [];
    const outbox = new TelegramOutbox(
      new TelegramClient({
        apiUrl: env.KESTREL_TELEGRAM_API_URL as string,
        token: env.KESTREL_TELEGRAM_BOT_TOKEN as string,
        clock,
      }),
      clock,
      { warn: (_details, message) => void warnings.push(message) },
    );
    tg.userSends(41, 'hi');
    tg.userSends(42, 'hi');
    tg.failNext({ method: 'sendMessage', chatId: 41, errorCode: 429, retryAfter: 30 });
    const a = outbox.send(41, 'first for 41');
    const a2 = outbox.send(41, 'second for 41');
    expect(await outbox.send(42, 'for 42')).toBe(true);
    // 42 went while 41 waits its 30 s, in order
    await tg.waitForSent(42, 1, WAIT_MS);
    expect(tg.sent(41)).toEqual([]);
    await clock.advance(30_000);
    expect([await a, await a2]).toEqual([true, true]);
    expect(tg.sent(41).map((m) => m.text)).toEqual(['first for 41', 'second for 41']);

    tg.failNext({ method: 'sendMessage', chatId: 42, errorCode: 403 });
    expect(await outbox.send(42, 'blocked')).toBe(false);
    expect(warnings).toEqual(['telegram: a message was not delivered']);
    await outbox.close();
  });
});
