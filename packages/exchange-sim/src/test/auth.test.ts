import { afterEach, describe, expect, it } from 'vitest';
import { Client, type Harness, obj, request, sign, startSim } from './harness';
import { fixture, shapeDiff } from './shape';

let h: Harness;
afterEach(() => h.close());

async function withAccount(options: Parameters<typeof startSim>[0] = {}) {
  h = await startSim(options);
  const account = h.sim.exchange.createAccount({ balances: { USDT: '1000' } });
  return { account, client: new Client(h.url, account, h.clock) };
}

describe('signed requests', () => {
  it('accepts HMAC-SHA256 over the query, in upper or lower case hex', async () => {
    const { account } = await withAccount();
    const query = `timestamp=${h.clock.now()}`;
    for (const signature of [sign(account.secretKey, query), sign(account.secretKey, query).toUpperCase()]) {
      const res = await request(h.url, 'GET', '/fapi/v3/balance', {
        query: `${query}&signature=${signature}`,
        headers: { 'X-MBX-APIKEY': account.apiKey },
      });
      expect(res.status).toBe(200);
      expect(shapeDiff(fixture('http_get_balance_v3.json'), res.json, true)).toEqual([]);
    }
  });

  it('accepts the signature over a form body, and over query + body joined without "&"', async () => {
    const { account } = await withAccount();
    const body = `symbol=BTCUSDT&leverage=10&timestamp=${h.clock.now()}`;
    const inBody = await request(h.url, 'POST', '/fapi/v1/leverage', {
      body: `${body}&signature=${sign(account.secretKey, body)}`,
      headers: { 'X-MBX-APIKEY': account.apiKey },
    });
    expect(inBody.status).toBe(200);
    expect(shapeDiff(fixture('http_post_leverage.json'), inBody.json, true)).toEqual([]);
    const query = 'symbol=BTCUSDT&leverage=12';
    const rest = `timestamp=${h.clock.now()}`;
    const mixed = await request(h.url, 'POST', '/fapi/v1/leverage', {
      query: `${query}&signature=${sign(account.secretKey, query + rest)}`,
      body: rest,
      headers: { 'X-MBX-APIKEY': account.apiKey },
    });
    expect(mixed.status).toBe(200);
    expect(obj(mixed.json).leverage).toBe(12);
  });

  it('ignores a JSON-typed body as the official SDK sends it', async () => {
    const { account } = await withAccount();
    const query = `symbol=ETHUSDT&leverage=7&timestamp=${h.clock.now()}`;
    const res = await request(h.url, 'POST', '/fapi/v1/leverage', {
      query: `${query}&signature=${sign(account.secretKey, query)}`,
      body: '{}',
      headers: { 'X-MBX-APIKEY': account.apiKey, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ leverage: 7, maxNotionalValue: '230000000', symbol: 'ETHUSDT' });
  });

  it('rejects a wrong signature with -1022, and a changed parameter the same way', async () => {
    const { account } = await withAccount();
    const query = `timestamp=${h.clock.now()}`;
    const res = await request(h.url, 'GET', '/fapi/v3/balance', {
      query: `${query}&signature=${sign('not-the-secret-at-all', query)}`,
      headers: { 'X-MBX-APIKEY': account.apiKey },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual(fixture('http_error_signature.json'));
    const tampered = await request(h.url, 'GET', '/fapi/v3/balance', {
      query: `timestamp=${h.clock.now() - 1}&signature=${sign(account.secretKey, query)}`,
      headers: { 'X-MBX-APIKEY': account.apiKey },
    });
    expect(obj(tampered.json).code).toBe(-1022);
  });

  it('applies the recvWindow rule: -1021 when old or 1000 ms ahead', async () => {
    const { account } = await withAccount();
    const call = (timestamp: number, recvWindow?: number) => {
      const q = `${recvWindow ? `recvWindow=${recvWindow}&` : ''}timestamp=${timestamp}`;
      return request(h.url, 'GET', '/fapi/v3/balance', {
        query: `${q}&signature=${sign(account.secretKey, q)}`,
        headers: { 'X-MBX-APIKEY': account.apiKey },
      });
    };
    const now = h.clock.now();
    expect((await call(now - 5000)).status).toBe(200);
    const old = await call(now - 5001);
    expect(old.status).toBe(400);
    expect(old.json).toEqual(fixture('http_error_timestamp.json'));
    expect((await call(now - 9000, 10_000)).status).toBe(200);
    expect((await call(now + 999)).status).toBe(200);
    const ahead = await call(now + 1000);
    expect(ahead.json).toEqual({
      code: -1021,
      msg: "Timestamp for this request was 1000ms ahead of the server's time.",
    });
    expect(obj((await call(now, 60_001)).json).code).toBe(-1130);
  });

  it('answers -2014 without a well-formed key and -2015 (HTTP 401) for an unknown one', async () => {
    await withAccount();
    const none = await request(h.url, 'GET', '/fapi/v3/balance', { query: 'timestamp=1&signature=00' });
    expect(none.status).toBe(401);
    expect(obj(none.json).code).toBe(-2014);
    const unknown = await new Client(
      h.url,
      { apiKey: 'A'.repeat(64), secretKey: 'B'.repeat(64) },
      h.clock,
    ).signed('GET', '/fapi/v3/balance');
    expect(unknown.status).toBe(401);
    expect(obj(unknown.json).code).toBe(-2015);
    expect(String(obj(unknown.json).msg)).toMatch(
      /^Invalid API-key, IP, or permissions for action, request ip: /,
    );
  });

  it('asks for the missing timestamp or signature with -1102', async () => {
    const { account } = await withAccount();
    const noSig = await request(h.url, 'GET', '/fapi/v3/balance', {
      query: `timestamp=${h.clock.now()}`,
      headers: { 'X-MBX-APIKEY': account.apiKey },
    });
    expect(obj(noSig.json).msg).toBe(
      "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.",
    );
  });

  it('refuses futures calls for a key without the futures permission but still reports its restrictions', async () => {
    h = await startSim();
    const account = h.sim.exchange.createAccount({
      permissions: { enableFutures: false, enableWithdrawals: true },
    });
    const client = new Client(h.url, account, h.clock);
    expect(obj((await client.signed('GET', '/fapi/v3/account')).json).code).toBe(-2015);
    const restrictions = await client.signed('GET', '/sapi/v1/account/apiRestrictions');
    expect(restrictions.status).toBe(200);
    expect(shapeDiff(fixture('http_get_api_restrictions.json'), restrictions.json, true)).toEqual([]);
    expect(obj(restrictions.json)).toMatchObject({
      enableWithdrawals: true,
      enableFutures: false,
      enableReading: true,
    });
  });

  it('needs only the API key for the listenKey endpoints', async () => {
    const { client } = await withAccount();
    const opened = await client.keyed('POST', '/fapi/v1/listenKey');
    expect(shapeDiff(fixture('http_post_listen_key.json'), opened.json, true)).toEqual([]);
    const again = await client.keyed('POST', '/fapi/v1/listenKey');
    expect(obj(again.json).listenKey).toBe(obj(opened.json).listenKey);
    expect((await client.keyed('PUT', '/fapi/v1/listenKey')).status).toBe(200);
    expect((await client.keyed('DELETE', '/fapi/v1/listenKey')).json).toEqual({});
    const gone = await client.keyed('PUT', '/fapi/v1/listenKey');
    expect(gone.json).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
  });
});

describe('rate limits', () => {
  it('counts weight per minute, answers 429 past the limit and bans with 418 when the client keeps going', async () => {
    const { client } = await withAccount({
      rateLimits: { weightPerMinute: 10, ban429Threshold: 2, firstBanMs: 120_000 },
    });
    for (let i = 1; i <= 10; i++) {
      const ok = await client.get('/fapi/v1/ping');
      expect(ok.headers.get('x-mbx-used-weight-1m')).toBe(String(i));
    }
    const limited = await client.get('/fapi/v1/ping');
    expect(limited.status).toBe(429);
    expect(obj(limited.json).code).toBe(-1003);
    expect(limited.headers.get('retry-after')).toBeTruthy();
    expect((await client.get('/fapi/v1/ping')).status).toBe(429);
    const banned = await client.get('/fapi/v1/ping');
    expect(banned.status).toBe(418);
    expect(String(obj(banned.json).msg)).toMatch(/banned until/);
    // Next minute the weight resets but the 2-minute ban still holds, then lifts
    h.clock.advance(60_000);
    expect((await client.get('/fapi/v1/ping')).status).toBe(418);
    h.clock.advance(61_000);
    expect((await client.get('/fapi/v1/ping')).status).toBe(200);
  });

  it('counts orders per account with X-MBX-ORDER-COUNT headers and -1015 past the 10 s limit', async () => {
    const { client } = await withAccount({ rateLimits: { ordersPer10s: 2 } });
    const order = {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: 1,
      price: '100.00',
    };
    const first = await client.signed('POST', '/fapi/v1/order', order);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-mbx-order-count-10s')).toBe('1');
    expect(first.headers.get('x-mbx-order-count-1m')).toBe('1');
    await client.signed('POST', '/fapi/v1/order', order);
    const third = await client.signed('POST', '/fapi/v1/order', order);
    expect(third.status).toBe(429);
    expect(third.json).toEqual({
      code: -1015,
      msg: 'Too many new orders; current limit is 2 orders per 10s.',
    });
  });
});
