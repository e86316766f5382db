import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, sign as hmac, obj, request, startSim } from './harness';

let h: Harness;
afterEach(() => h.close());

const API_KEY = 'AsymmetricKeyForTests0001';

/** A signed GET the way Binance documents RSA/Ed25519 keys: base64 signature of the query, URL-encoded */
function signedQuery(payload: string, signature: Buffer | string): string {
  const b64 = typeof signature === 'string' ? signature : signature.toString('base64');
  return `${payload}&signature=${encodeURIComponent(b64)}`;
}

async function accountWith(publicKey: KeyObject) {
  const res = await request(h.url, 'POST', '/_sim/accounts', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      apiKey: API_KEY,
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }),
      balances: { USDT: '500' },
    }),
  });
  expect(res.status).toBe(201);
  return obj(res.json);
}

const balance = (query: string) =>
  request(h.url, 'GET', '/fapi/v3/balance', { query, headers: { 'X-MBX-APIKEY': API_KEY } });

describe('RSA and Ed25519 API keys', () => {
  it('accepts RSASSA-PKCS1-v1_5 / SHA-256 signatures of an RSA key, refuses others with -1022', async () => {
    h = await startSim();
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const created = await accountWith(publicKey);
    // No HMAC secret is handed out for an asymmetric key
    expect(created).toMatchObject({ keyType: 'ASYMMETRIC' });
    expect(created).not.toHaveProperty('secretKey');

    const payload = `timestamp=${h.clock.now()}&recvWindow=5000`;
    const ok = await balance(signedQuery(payload, sign('sha256', Buffer.from(payload), privateKey)));
    expect(ok.status).toBe(200);
    expect(Array.isArray(ok.json)).toBe(true);

    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const wrong = await balance(signedQuery(payload, sign('sha256', Buffer.from(payload), other)));
    expect(wrong.json).toEqual({ code: -1022, msg: 'Signature for this request is not valid.' });
    // An HMAC signature means nothing for an RSA key
    const asHmac = await balance(`${payload}&signature=${hmac('x'.repeat(64), payload)}`);
    expect(obj(asHmac.json).code).toBe(-1022);
    // The signature covers every parameter: changing one after signing breaks it
    const tampered = signedQuery(payload, sign('sha256', Buffer.from(payload), privateKey)).replace(
      'recvWindow=5000',
      'recvWindow=6000',
    );
    expect(obj((await balance(tampered)).json).code).toBe(-1022);
  });

  it('accepts Ed25519 signatures', async () => {
    h = await startSim();
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    await accountWith(publicKey);
    const payload = `timestamp=${h.clock.now()}`;
    const ok = await balance(signedQuery(payload, sign(null, Buffer.from(payload), privateKey)));
    expect(ok.status).toBe(200);
    const other = generateKeyPairSync('ed25519').privateKey;
    const wrong = await balance(signedQuery(payload, sign(null, Buffer.from(payload), other)));
    expect(obj(wrong.json).code).toBe(-1022);
  });

  it('the admin API refuses a key that is not an RSA or Ed25519 public key', async () => {
    h = await startSim();
    const create = (publicKey: string) =>
      request(h.url, 'POST', '/_sim/accounts', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ publicKey }),
      });
    const junk = await create('not a key');
    expect(junk.status).toBe(400);
    expect(obj(junk.json).error).toMatch(/PEM public key/);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    const refused = await create(String(ec));
    expect(obj(refused.json).error).toBe('publicKey must be RSA or Ed25519, got ec');
  });
});
