import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TOKEN, TelegramSim } from './telegram-sim';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-data');
/** One of Telegram's documented envelopes */
const documented = (name: string): unknown => JSON.parse(readFileSync(join(DATA, `${name}.json`), 'utf8'));

/** The keys of a JSON value, nested, with the type of each leaf: two answers of one shape give the same list */
function shape(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.length === 0 ? [`${at}[]`] : shape(value[0], `${at}[]`);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .flatMap(([k, v]) => shape(v, at ? `${at}.${k}` : k))
      .sort();
  return [`${at}:${typeof value}`];
}

let sim: TelegramSim;
let base: string;
beforeEach(async () => {
  sim = new TelegramSim({ now: () => Date.UTC(2026, 0, 15, 12) });
  base = (await sim.listen(0)).url;
});
afterEach(async () => {
  await sim.close();
});

type Answer = { status: number; body: Record<string, unknown> & { result?: unknown } };
async function call(
  method: string,
  params: Record<string, unknown> = {},
  token = DEFAULT_TOKEN,
): Promise<Answer> {
  const res = await fetch(`${base}/bot${token}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

describe('the Bot API as Telegram answers it', () => {
  it('getMe, getUpdates and sendMessage answer in the documented envelopes', async () => {
    expect(shape((await call('getMe')).body)).toEqual(shape(documented('getMe')));
    sim.userSends(111, '/start ABCD2345', { first_name: 'Ann', username: 'ann' });
    const updates = await call('getUpdates');
    expect(shape(updates.body)).toEqual(shape(documented('getUpdates')));
    expect(updates.body.result).toMatchObject([
      { message: { text: '/start ABCD2345', entities: [{ type: 'bot_command', offset: 0, length: 6 }] } },
    ]);
    const sent = await call('sendMessage', { chat_id: 111, text: 'Linked to ann@example.com' });
    expect(shape(sent.body)).toEqual(shape(documented('sendMessage')));
    expect(sim.sent(111).map((m) => m.text)).toEqual(['Linked to ann@example.com']);
    expect(shape((await call('getWebhookInfo')).body)).toEqual(shape(documented('getWebhookInfo')));
  });

  it('a wrong token is 401, an unknown method 404, in Telegram’s words', async () => {
    const wrong = await call('getMe', {}, '7000000001:wrong');
    expect(wrong).toEqual({ status: 401, body: documented('error_401') });
    expect(await call('getChatMemberCount')).toEqual({ status: 404, body: documented('error_404') });
    const res = await fetch(`${base}/nothing-here`);
    expect(res.status).toBe(404);
  });

  it('reads GET queries and urlencoded forms as well as JSON; method names ignore case', async () => {
    sim.userSends(5, 'hello');
    const res = await fetch(`${base}/bot${DEFAULT_TOKEN}/sendmessage?chat_id=5&text=from%20a%20query`);
    expect(res.status).toBe(200);
    const form = await fetch(`${base}/bot${DEFAULT_TOKEN}/SendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        chat_id: '5',
        text: 'from a form',
        reply_markup: JSON.stringify({ inline_keyboard: [[{ text: 'OK', callback_data: 'ok' }]] }),
      }).toString(),
    });
    expect(((await form.json()) as { result: unknown }).result).toMatchObject({
      text: 'from a form',
      reply_markup: { inline_keyboard: [[{ text: 'OK' }]] },
    });
    expect(sim.sent(5).map((m) => m.text)).toEqual(['from a query', 'from a form']);
  });

  it('refuses a chat that never wrote, an empty or long text and an unknown parse_mode', async () => {
    expect(await call('sendMessage', { chat_id: 999, text: 'hi' })).toEqual({
      status: 400,
      body: documented('error_400_chat_not_found'),
    });
    sim.userSends(7, 'hi');
    expect((await call('sendMessage', { chat_id: 7, text: ' ' })).body.description).toBe(
      'Bad Request: message text is empty',
    );
    expect((await call('sendMessage', { chat_id: 7, text: 'x'.repeat(4097) })).body.description).toBe(
      'Bad Request: message is too long',
    );
    expect((await call('sendMessage', { chat_id: 7, text: 'x', parse_mode: 'RTF' })).body.description).toBe(
      'Bad Request: unsupported parse_mode',
    );
    expect((await call('sendMessage', { chat_id: 7, text: '<b>x</b>', parse_mode: 'HTML' })).status).toBe(
      200,
    );
  });
});

describe('getUpdates', () => {
  it('keeps updates until an offset past them confirms them; limit and negative offsets as documented', async () => {
    const [a, b, c] = [sim.userSends(1, 'a'), sim.userSends(2, 'b'), sim.userSends(1, 'c')];
    expect(b.update_id).toBe(a.update_id + 1);
    expect((await call('getUpdates', { limit: 2 })).body.result).toEqual([a, b]);
    // Not confirmed: asked again, the same ones come back
    expect((await call('getUpdates', { limit: 2 })).body.result).toEqual([a, b]);
    expect((await call('getUpdates', { offset: b.update_id })).body.result).toEqual([b, c]);
    expect(sim.pendingUpdates).toEqual([b, c]);
    expect((await call('getUpdates', { offset: -1 })).body.result).toEqual([c]);
    expect((await call('getUpdates', { offset: c.update_id + 1 })).body.result).toEqual([]);
    expect(sim.pendingUpdates).toEqual([]);
    // Message ids count per chat, across both directions
    expect([a.message.message_id, c.message.message_id]).toEqual([1, 2]);
  });

  it('a long poll answers as soon as a user writes, and empty at its timeout', async () => {
    const polling = call('getUpdates', { timeout: 30 });
    // The poll is held: give it a moment to arrive, then write
    await new Promise((r) => setTimeout(r, 20));
    const update = sim.userSends(3, 'now');
    expect((await polling).body.result).toEqual([update]);
    const started = performance.now();
    expect((await call('getUpdates', { offset: update.update_id + 1, timeout: 1 })).body.result).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('a second poller ends the first with 409, and a webhook makes getUpdates a 409 until deleted', async () => {
    const first = call('getUpdates', { timeout: 30 });
    await new Promise((r) => setTimeout(r, 20));
    const second = call('getUpdates', { timeout: 30 });
    expect(await first).toEqual({ status: 409, body: documented('error_409_terminated') });
    await new Promise((r) => setTimeout(r, 20));
    expect((await call('setWebhook', { url: 'http://plain.example/hook' })).body.description).toMatch(
      /HTTPS url/,
    );
    expect((await call('setWebhook', { url: 'https://kestrel.example/hook' })).body).toEqual(
      documented('setWebhook'),
    );
    // The waiting poll conflicts with the webhook at once
    expect((await second).status).toBe(409);
    expect(sim.webhook).toEqual({ url: 'https://kestrel.example/hook' });
    sim.userSends(4, 'queued');
    expect(await call('getUpdates')).toEqual({ status: 409, body: documented('error_409_webhook') });
    expect((await call('getWebhookInfo')).body.result).toMatchObject({
      url: 'https://kestrel.example/hook',
      pending_update_count: 1,
    });
    expect((await call('deleteWebhook')).body).toMatchObject({
      ok: true,
      description: 'Webhook was deleted',
    });
    expect((await call('getUpdates')).body.result).toMatchObject([{ message: { text: 'queued' } }]);
  });
});

describe('the test side', () => {
  it('failNext answers a chat’s next sends with an error (429 with retry_after), others unharmed', async () => {
    sim.userSends(10, 'hi');
    sim.userSends(20, 'hi');
    sim.failNext({ method: 'sendMessage', chatId: 10, errorCode: 429, retryAfter: 5, times: 2 });
    expect(await call('sendMessage', { chat_id: 10, text: 'x' })).toEqual({
      status: 429,
      body: documented('error_429'),
    });
    expect((await call('sendMessage', { chat_id: 20, text: 'y' })).status).toBe(200);
    expect((await call('sendMessage', { chat_id: 10, text: 'x' })).status).toBe(429);
    expect((await call('sendMessage', { chat_id: 10, text: 'x' })).status).toBe(200);
    expect(sim.calls.filter((c) => c.method === 'sendmessage').map((c) => c.status)).toEqual([
      429, 200, 429, 200,
    ]);
  });

  it('holdChat stalls one chat’s sends until released; nextSent waits for the bot', async () => {
    sim.userSends(10, 'hi');
    sim.userSends(20, 'hi');
    const release = sim.holdChat(10);
    const held = call('sendMessage', { chat_id: 10, text: 'held' });
    const other = sim.nextSent(20);
    await call('sendMessage', { chat_id: 20, text: 'through' });
    expect((await other).text).toBe('through');
    expect(sim.sent(10)).toEqual([]);
    const next = sim.nextSent();
    release();
    expect((await held).status).toBe(200);
    expect((await next).text).toBe('held');
    await expect(sim.nextSent(10, 50)).rejects.toThrow(/no 2 message/);
  });

  it('the HTTP test API writes as a user and reads what the bot sent, behind its token and JSON only', async () => {
    await sim.close();
    sim = new TelegramSim({ adminToken: 'admin-secret' });
    base = (await sim.listen(0)).url;
    const admin = (path: string, init: RequestInit = {}, token = 'admin-secret') =>
      fetch(`${base}/_sim${path}`, {
        ...init,
        headers: { 'x-sim-admin-token': token, 'content-type': 'application/json', ...init.headers },
      });
    expect((await admin('/health', {}, 'wrong')).status).toBe(401);
    const form = await fetch(`${base}/_sim/updates`, {
      method: 'POST',
      headers: { 'x-sim-admin-token': 'admin-secret', 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    const posted = await admin('/updates', {
      method: 'POST',
      body: JSON.stringify({ chatId: 42, text: '/status' }),
    });
    expect(posted.status).toBe(201);
    const waiting = admin('/chats/42/sent?after=0&timeoutMs=2000');
    await call('sendMessage', { chat_id: 42, text: 'Equity 1000 USDT' });
    expect(await (await waiting).json()).toMatchObject({ messages: [{ text: 'Equity 1000 USDT' }] });
    expect((await admin('/chats/42/sent?after=1&timeoutMs=50')).status).toBe(408);
    const fault = await admin('/faults', {
      method: 'POST',
      body: JSON.stringify({ method: 'sendMessage', errorCode: 403 }),
    });
    expect(fault.status).toBe(201);
    expect((await call('sendMessage', { chat_id: 42, text: 'x' })).body.description).toBe(
      'Forbidden: bot was blocked by the user',
    );
  });
});
