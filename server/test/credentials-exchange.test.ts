import {
  AccountTestResponseSchema,
  BinanceKeySetupResponseSchema,
  CredentialsStatusResponseSchema,
  ErrorResponseSchema,
} from '@kestrel/contracts';
import type { CreateAccountInput } from '@kestrel/exchange-sim';
import { describe, expect, it } from 'vitest';
import { bearer, signUp, useTestServer } from './helper';

/** The credentials calls against a real simulator: the keys are really tried, and withdraw-enabled keys refused */
describe('credentials tested against the exchange (simulator)', () => {
  const t = useTestServer();

  /** A simulator account's keys, in the shape the credentials calls take */
  function simAccount(input: CreateAccountInput): { api_key: string; secret_key: string } {
    const { apiKey, secretKey } = t.demoKeys(input);
    return { api_key: apiKey, secret_key: secretKey };
  }
  const post = (token: string, path: string, payload?: object) =>
    t.request({
      method: 'POST',
      url: `/api/v1/credentials${path}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });
  const detail = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json()).detail;

  it('a good key passes validate, test-connection (given and stored) and status, with its balance', async () => {
    const { access_token } = await signUp(t);
    const keys = simAccount({ balances: { USDT: '2500' } });
    const validated = await post(access_token, '/validate/binance', keys);
    expect(validated.statusCode).toBe(200);
    const body = AccountTestResponseSchema.parse(validated.json());
    expect(Number(body.data.totalWalletBalance)).toBe(2500);
    expect(body.data).toMatchObject({ canWithdraw: false, canTrade: true, positionsCount: 0 });
    expect(body.message).toBe('Binance connectivity OK');

    expect((await post(access_token, '/binance', keys)).statusCode).toBe(201);
    expect((await post(access_token, '/test-connection')).statusCode).toBe(200);
    const status = await t.request({
      method: 'GET',
      url: '/api/v1/credentials/binance/status',
      headers: bearer(access_token),
    });
    expect(CredentialsStatusResponseSchema.parse(status.json()).data.connectivity_status).toBe('connected');
  });

  it('refuses a key that can withdraw, saying why', async () => {
    const { access_token } = await signUp(t);
    const keys = simAccount({ balances: { USDT: '10' }, permissions: { enableWithdrawals: true } });
    for (const res of [
      await post(access_token, '/validate/binance', keys),
      await post(access_token, '/test-connection', keys),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(detail(res)).toMatch(/^Binance connectivity failed: this API key can withdraw funds/);
    }
  });

  it('a wrong secret, an unknown key and a key without futures each get their own reason', async () => {
    const { access_token } = await signUp(t);
    const keys = simAccount({ balances: { USDT: '10' } });
    const wrongSecret = await post(access_token, '/validate/binance', {
      ...keys,
      secret_key: `${keys.secret_key.slice(0, -4)}XXXX`,
    });
    expect(wrongSecret.statusCode).toBe(400);
    expect(detail(wrongSecret)).toMatch(/secret key does not match the API key/);

    const unknown = await post(access_token, '/validate/binance', { ...keys, api_key: 'Z'.repeat(64) });
    expect(unknown.statusCode).toBe(400);
    expect(detail(unknown)).toMatch(/API key is unknown to Binance/);

    const noFutures = simAccount({ permissions: { enableFutures: false } });
    const res = await post(access_token, '/validate/binance', noFutures);
    expect(res.statusCode).toBe(400);
    expect(detail(res)).toMatch(/not enabled for futures/);
    for (const r of [wrongSecret, unknown, res]) expect(r.body).not.toContain(keys.secret_key);
  });

  it('an exchange that is down gives 503 "Binance connectivity failed: exchange not reachable"', async () => {
    const { access_token } = await signUp(t);
    const keys = simAccount({ balances: { USDT: '10' } });
    await fetch(`${t.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 503, code: -1008, path: '/sapi', remaining: 1 }),
    });
    const res = await post(access_token, '/validate/binance', keys);
    expect(res.statusCode).toBe(503);
    expect(detail(res)).toMatch(
      /^Binance connectivity failed: exchange not reachable \(Binance answered HTTP 503/,
    );
  });
  it("reads the stored key's permissions and the account's position mode from the exchange", async () => {
    const { access_token } = await signUp(t);
    const keySetup = () =>
      t.request({
        method: 'GET',
        url: '/api/v1/credentials/binance/key-setup',
        headers: bearer(access_token),
      });
    const none = await keySetup();
    expect(none.statusCode).toBe(404);
    expect(detail(none)).toMatch(/^No Binance credentials stored/);

    const keys = simAccount({ permissions: { ipRestrict: true } });
    expect((await post(access_token, '/binance', keys)).statusCode).toBe(201);
    const first = await keySetup();
    expect(first.statusCode, first.body).toBe(200);
    expect(BinanceKeySetupResponseSchema.parse(first.json()).data).toEqual({
      permissions: { reading: true, futuresTrading: true, withdrawals: false, ipRestricted: true },
      positionMode: 'one-way',
      readAt: t.clock.now().getTime(),
    });
    expect(first.body).not.toContain(keys.secret_key);

    // Changed on Binance's side: the next read says so
    const account = t.sim.exchange.accountByKey(keys.api_key);
    if (!account) throw new Error('demo account missing');
    account.dualSidePosition = true;
    expect(BinanceKeySetupResponseSchema.parse((await keySetup()).json()).data.positionMode).toBe('hedge');
  });
});
