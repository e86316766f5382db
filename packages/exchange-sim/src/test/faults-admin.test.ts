import { afterEach, describe, expect, it } from 'vitest';
import { arr, Client, type Harness, obj, request, sign, startSim } from './harness';

let h: Harness;
afterEach(() => h.close());

const order = {
  symbol: 'SOLUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: '1',
  price: '100.00',
  newClientOrderId: 'intent-1',
};

async function admin(method: string, path: string, body?: unknown) {
  return request(h.url, method, `/_sim${path}`, {
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

async function setup() {
  h = await startSim();
  const created = obj((await admin('POST', '/accounts', { balances: { USDT: '500' } })).json);
  return new Client(h.url, { apiKey: String(created.apiKey), secretKey: String(created.secretKey) }, h.clock);
}

describe('admin API', () => {
  it('creates accounts with chosen keys, balances and permissions, reported by apiRestrictions', async () => {
    h = await startSim();
    const res = await admin('POST', '/accounts', {
      apiKey: 'k'.repeat(64),
      secretKey: 's'.repeat(64),
      balances: { USDT: '1234.5', BNB: '2' },
      permissions: { enableWithdrawals: true, ipRestrict: true },
    });
    expect(res.status).toBe(201);
    expect(obj(res.json)).toMatchObject({ apiKey: 'k'.repeat(64), balances: { USDT: '1234.5', BNB: '2' } });
    const client = new Client(h.url, { apiKey: 'k'.repeat(64), secretKey: 's'.repeat(64) }, h.clock);
    const r = obj((await client.signed('GET', '/sapi/v1/account/apiRestrictions')).json);
    expect(r).toMatchObject({ enableWithdrawals: true, ipRestrict: true, enableFutures: true });
    const balances = arr((await client.signed('GET', '/fapi/v3/balance')).json).map(obj);
    expect(balances.map((b) => [b.asset, b.balance])).toEqual([
      ['USDT', '1234.50000000'],
      ['BNB', '2.00000000'],
    ]);
    const id = obj(res.json).accountId;
    const patched = await admin('PATCH', `/accounts/${id}/permissions`, { enableWithdrawals: false });
    expect(obj(obj(patched.json).permissions).enableWithdrawals).toBe(false);
  });

  it('says what is wrong with a bad request', async () => {
    h = await startSim();
    expect((await admin('POST', '/accounts', { balances: { USDT: 5 } })).json).toEqual({
      error: 'Balance of USDT must be a decimal string',
    });
    expect(obj((await admin('POST', '/accounts', { permissions: { canFly: true } })).json).error).toMatch(
      /Unknown permission "canFly"/,
    );
    expect(obj((await admin('POST', '/faults', { kind: 'error', status: 200 })).json).error).toBe(
      'status must be a 5xx code',
    );
    expect((await admin('GET', '/nothing')).status).toBe(404);
    const bad = await request(h.url, 'POST', '/_sim/accounts', {
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.json).toEqual({ error: 'The request body is not valid JSON' });
  });

  it('moves a manual clock', async () => {
    h = await startSim();
    const before = h.clock.now();
    expect((await admin('POST', '/clock/advance', { ms: 60_000 })).json).toEqual({ time: before + 60_000 });
  });

  it('refuses a cross-site text/plain or form POST (no preflight needed for those), changing nothing', async () => {
    h = await startSim();
    const accounts = h.sim.exchange;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await request(h.url, 'POST', '/_sim/accounts', {
        body: JSON.stringify({ apiKey: 'k'.repeat(64), balances: { USDT: '1' } }),
        headers: type ? { 'content-type': type } : {},
      });
      expect(res.status, String(type)).toBe(415);
      expect(obj(res.json).error).toMatch(/takes JSON: send Content-Type: application\/json/);
    }
    expect(accounts.accountByKey('k'.repeat(64))).toBeUndefined();
    const drop = await request(h.url, 'POST', '/_sim/ws/drop', { headers: { 'content-type': 'text/plain' } });
    expect(drop.status).toBe(415);
  });

  it('guards the admin API with a token when one is set', async () => {
    h = await startSim({ adminToken: 'sesame' });
    expect((await admin('GET', '/health')).status).toBe(401);
    const ok = await request(h.url, 'GET', '/_sim/health', { headers: { 'x-sim-admin-token': 'sesame' } });
    expect(ok.status).toBe(200);
  });
});

describe('fault injection', () => {
  it('a 5xx before execution: nothing was placed', async () => {
    const client = await setup();
    await admin('POST', '/faults', {
      kind: 'error',
      status: 502,
      method: 'POST',
      path: '/fapi/v1/order',
      remaining: 1,
    });
    const res = await client.signed('POST', '/fapi/v1/order', order);
    expect(res.status).toBe(502);
    expect(obj(res.json).code).toBe(-1000);
    const query = await client.signed('GET', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      origClientOrderId: 'intent-1',
    });
    expect(obj(query.json).code).toBe(-2013);
    // Used up: the next attempt goes through
    expect((await client.signed('POST', '/fapi/v1/order', order)).status).toBe(200);
  });

  it('a 503 after execution: status unknown to the client, but the order exists under its client id', async () => {
    const client = await setup();
    await admin('POST', '/faults', {
      kind: 'error',
      status: 503,
      phase: 'after',
      path: '/fapi/v1/order',
      method: 'POST',
    });
    const res = await client.signed('POST', '/fapi/v1/order', order);
    expect(res.status).toBe(503);
    expect(obj(res.json)).toEqual({
      code: -1007,
      msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
    });
    await admin('DELETE', '/faults');
    const query = await client.signed('GET', '/fapi/v1/order', {
      symbol: 'SOLUSDT',
      origClientOrderId: 'intent-1',
    });
    expect(obj(query.json)).toMatchObject({ status: 'NEW', clientOrderId: 'intent-1' });
    // A blind retry with the same client id is refused instead of doubling the order
    expect(obj((await client.signed('POST', '/fapi/v1/order', order)).json).code).toBe(-4116);
  });

  it('a 503 overload (-1008) before execution', async () => {
    const client = await setup();
    await admin('POST', '/faults', {
      kind: 'error',
      status: 503,
      code: -1008,
      path: '/fapi/v1/order',
      remaining: 1,
    });
    const res = await client.signed('POST', '/fapi/v1/order', order);
    expect(res.status).toBe(503);
    expect(obj(res.json).code).toBe(-1008);
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(0);
  });

  it('a timeout: the reply never comes, the client gives up, the order was placed', async () => {
    const client = await setup();
    await admin('POST', '/faults', { kind: 'timeout', phase: 'after', path: '/fapi/v1/order', remaining: 1 });
    const query = new URLSearchParams({ ...order, timestamp: String(h.clock.now()) }).toString();
    const attempt = fetch(
      `${h.url}/fapi/v1/order?${query}&signature=${sign(client.account.secretKey, query)}`,
      {
        method: 'POST',
        headers: { 'X-MBX-APIKEY': client.account.apiKey },
        signal: AbortSignal.timeout(200),
      },
    );
    await expect(attempt).rejects.toThrow();
    const open = arr((await client.signed('GET', '/fapi/v1/openOrders', { symbol: 'SOLUSDT' })).json).map(
      obj,
    );
    expect(open.map((o) => o.clientOrderId)).toEqual(['intent-1']);
  });

  it('a dropped connection before execution: the socket closes and nothing was placed', async () => {
    const client = await setup();
    await admin('POST', '/faults', { kind: 'drop', path: '/fapi/v1/order', remaining: 1 });
    await expect(client.signed('POST', '/fapi/v1/order', order)).rejects.toThrow();
    expect(arr((await client.signed('GET', '/fapi/v1/openOrders')).json)).toHaveLength(0);
  });

  it("a fault scoped to an API key breaks that account's requests only", async () => {
    const client = await setup();
    const other = obj((await admin('POST', '/accounts', { balances: { USDT: '500' } })).json);
    const otherClient = new Client(
      h.url,
      { apiKey: String(other.apiKey), secretKey: String(other.secretKey) },
      h.clock,
    );
    await admin('POST', '/faults', {
      kind: 'error',
      status: 500,
      method: 'POST',
      path: '/fapi/v1/order',
      apiKey: String(other.apiKey),
    });
    expect((await client.signed('POST', '/fapi/v1/order', order)).status).toBe(200);
    expect((await otherClient.signed('POST', '/fapi/v1/order', order)).status).toBe(500);
    // Not used up by the first account's call: still there for the account it names
    expect(arr((await admin('GET', '/faults')).json)).toHaveLength(1);
    expect((await admin('POST', '/faults', { kind: 'error', apiKey: '' })).status).toBe(400);
  });

  it('latency delays the answer past a client timeout without changing it', async () => {
    const client = await setup();
    await admin('POST', '/faults', { kind: 'latency', ms: 150, path: '/fapi/v1/time', remaining: 2 });
    await expect(fetch(`${h.url}/fapi/v1/time`, { signal: AbortSignal.timeout(30) })).rejects.toThrow();
    const slow = await client.get('/fapi/v1/time');
    expect(obj(slow.json).serverTime).toBe(h.clock.now());
    expect(arr((await admin('GET', '/faults')).json)).toHaveLength(0);
  });
});
