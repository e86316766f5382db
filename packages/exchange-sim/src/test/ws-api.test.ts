import { generateKeyPairSync, sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Account } from '../matching/types';
import { flatReplay, type Harness, sign as hmac, marketOrder, obj, startSim } from './harness';

let h: Harness;
let ws: WebSocket | undefined;
afterEach(async () => {
  ws?.terminate();
  await h.close();
});

/** Binance's WS API payload: every parameter but the signature, sorted by name, as key=value joined with & */
const payload = (params: Record<string, string | number>) =>
  Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');

async function connect(): Promise<(message: object) => Promise<Record<string, unknown>>> {
  const socket = new WebSocket(`${h.wsUrl}/ws-fapi/v1`);
  ws = socket;
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return (message) =>
    new Promise((resolve) => {
      socket.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>));
      socket.send(JSON.stringify(message));
    });
}

function signed(account: Account, params: Record<string, string | number>) {
  const all = { ...params, apiKey: account.apiKey, timestamp: h.clock.now() };
  return { ...all, signature: hmac(account.secretKey, payload(all)) };
}

describe('WebSocket API (/ws-fapi/v1)', () => {
  it('places, reads and cancels an order with HMAC-signed requests', async () => {
    h = await startSim({ feeds: [flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }])] });
    const account = h.sim.exchange.createAccount({ balances: { USDT: '10000' } });
    const call = await connect();
    const order = {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '59000.0',
      quantity: '0.010',
    };
    const placed = await call({
      id: 'place-1',
      method: 'order.place',
      params: signed(account, { ...order, newClientOrderId: 'ws:1' }),
    });
    expect(placed).toMatchObject({ id: 'place-1', status: 200 });
    expect(obj(placed.result)).toMatchObject({ clientOrderId: 'ws:1', status: 'NEW', price: '59000.00' });
    const [limit] = placed.rateLimits as Array<Record<string, unknown>>;
    expect(limit).toMatchObject({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', limit: 2400 });

    const status = await call({
      id: 2,
      method: 'order.status',
      params: signed(account, { symbol: 'BTCUSDT', origClientOrderId: 'ws:1' }),
    });
    expect(status).toMatchObject({ id: 2, status: 200 });
    expect(obj(status.result).status).toBe('NEW');
    const canceled = await call({
      id: 3,
      method: 'order.cancel',
      params: signed(account, { symbol: 'BTCUSDT', origClientOrderId: 'ws:1' }),
    });
    expect(obj(canceled.result).status).toBe('CANCELED');
    const balance = await call({ id: 4, method: 'v2/account.balance', params: signed(account, {}) });
    expect(Array.isArray(balance.result)).toBe(true);
  });

  it("answers Binance's errors in the envelope: bad signature, rejection, unknown method", async () => {
    h = await startSim({ feeds: [flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }])] });
    const account = h.sim.exchange.createAccount({ balances: { USDT: '10000' } });
    const call = await connect();
    const params = signed(account, marketOrder('BTCUSDT', 'BUY', '0.010'));
    const tampered = await call({ id: 'x', method: 'order.place', params: { ...params, quantity: '0.020' } });
    expect(tampered).toMatchObject({
      id: 'x',
      status: 400,
      error: { code: -1022, msg: 'Signature for this request is not valid.' },
    });
    const rejected = await call({
      id: 'y',
      method: 'order.place',
      params: signed(account, marketOrder('BTCUSDT', 'BUY', '0.0001')),
    });
    expect(rejected).toMatchObject({
      status: 400,
      error: { code: -1111, msg: 'Precision is over the maximum defined for this asset.' },
    });
    const unknown = await call({ id: 'z', method: 'order.teleport', params: {} });
    expect(unknown).toMatchObject({ id: 'z', status: 400, error: { code: -1130 } });
    const junk = await new Promise<Record<string, unknown>>((resolve) => {
      ws?.once('message', (d) => resolve(JSON.parse(d.toString()) as Record<string, unknown>));
      ws?.send('{not json');
    });
    expect(junk).toMatchObject({ id: null, status: 400 });
  });

  it('takes Ed25519 signatures (base64) from an Ed25519 key', async () => {
    h = await startSim({ feeds: [flatReplay('BTCUSDT', [{ fromMinute: -1000, price: 60000 }])] });
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const account = h.sim.exchange.createAccount({
      publicKey: String(publicKey.export({ type: 'spki', format: 'pem' })),
    });
    const call = await connect();
    const all = { apiKey: account.apiKey, timestamp: h.clock.now() };
    const signature = sign(null, Buffer.from(payload(all)), privateKey).toString('base64');
    const res = await call({ id: 1, method: 'account.status', params: { ...all, signature } });
    expect(res.status).toBe(200);
    expect(obj(res.result)).toHaveProperty('totalWalletBalance');
  });
});
