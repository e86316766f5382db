import { describe, expect, it } from 'vitest';
import { bearer, signUp, useTestServer } from '../helper';

/**
 * Issue "Hardening", finding 5: `POST /api/v1/credentials/binance` stored a withdraw-enabled key without asking the
 * exchange (201), and the key then traded (200). Every save now runs validate's permission check; the verdict is
 * stored; a key whose last check failed opens no position; the scheduled re-check marks keys that went bad.
 */
describe('exchange keys are checked on save and on a schedule', () => {
  const s = useTestServer();

  const save = (token: string, keys: { apiKey: string; secretKey: string }) =>
    s.request({
      method: 'POST',
      url: '/api/v1/credentials/binance',
      headers: bearer(token),
      payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
    });
  const stored = (token: string) =>
    s.request({ method: 'GET', url: '/api/v1/credentials/binance', headers: bearer(token) });
  const order = (token: string, extra: object = {}) =>
    s.request({
      method: 'POST',
      url: '/api/futures/orders/create',
      headers: bearer(token),
      payload: { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', ...extra },
    });

  it('refuses a withdraw-enabled key on save with the reason, and stores nothing', async () => {
    const { access_token } = await signUp(s);
    const res = await save(access_token, s.demoKeys({ permissions: { enableWithdrawals: true } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/can withdraw funds/);
    expect((await stored(access_token)).statusCode).toBe(404);
  });

  it('refuses a key the exchange does not know on save, and stores nothing', async () => {
    const { access_token } = await signUp(s);
    const res = await save(access_token, { apiKey: 'A'.repeat(64), secretKey: 'B'.repeat(64) });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/unknown to Binance/);
    expect((await stored(access_token)).statusCode).toBe(404);
  });

  it('stores a good key with the check it passed', async () => {
    const { access_token } = await signUp(s);
    const res = await save(access_token, s.demoKeys());
    expect(res.statusCode).toBe(201);
    expect(res.json().data.last_check).toEqual({ at: s.clock.now().toISOString(), ok: true, reason: null });
  });

  it('stops new exposure at the status call that sees withdraw rights, not at the next re-check', async () => {
    const { auth, keys } = await s.connectedUser();
    const token = auth.access_token;
    const account = s.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('demo account missing');
    account.permissions.enableWithdrawals = true;
    const status = await s.request({
      method: 'GET',
      url: '/api/v1/credentials/binance/status',
      headers: bearer(token),
    });
    expect(status.json()).toMatchObject({ data: { connectivity_status: 'error' } });
    expect(status.json().message).toMatch(/can withdraw funds/);
    // No re-check ran: the status call's finding stops the next order at once
    const refused = await order(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CREDENTIALS_REFUSED' });
    // The owner is told in the account's audit, once
    const audit = await s.request({ method: 'GET', url: '/api/v1/account/events', headers: bearer(token) });
    const refusals = (audit.json().data.events ?? audit.json().data).filter(
      (e: { kind: string }) => e.kind === 'keys_refused',
    );
    expect(refusals).toHaveLength(1);
    expect(refusals[0].message).toMatch(/failed a check: .*can withdraw funds.*Trading with it is stopped/);
    // Withdrawals off again: the next status call sees it, and the key trades again
    account.permissions.enableWithdrawals = false;
    await s.request({ method: 'GET', url: '/api/v1/credentials/binance/status', headers: bearer(token) });
    expect((await order(token)).statusCode).toBe(201);
  });

  it('marks a key that became withdraw-enabled on the re-check: no new position, closing still allowed', async () => {
    const { auth, keys } = await s.connectedUser();
    const token = auth.access_token;
    const first = await order(token);
    expect(first.statusCode, first.body).toBe(201);

    const account = s.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('demo account missing');
    account.permissions.enableWithdrawals = true;
    expect(await s.app.credentialsService.recheckAll()).toBeGreaterThanOrEqual(1);

    const view = (await stored(token)).json().data;
    expect(view.last_check).toMatchObject({ ok: false, reason: expect.stringMatching(/can withdraw funds/) });
    const refused = await order(token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'CREDENTIALS_REFUSED' });
    expect(refused.json().detail).toMatch(
      /failed its last check.*can withdraw funds.*replace it in Settings/,
    );
    // Winding down stays possible: the position opened above can be closed
    const close = await order(token, { side: 'SELL', reduceOnly: true });
    expect(close.statusCode, close.body).toBe(201);

    // Fixed on Binance's side: the next re-check clears the mark
    account.permissions.enableWithdrawals = false;
    await s.app.credentialsService.recheckAll();
    expect((await stored(token)).json().data.last_check).toMatchObject({ ok: true, reason: null });
    expect((await order(token)).statusCode).toBe(201);
  });

  it('writes what the schedule did into the owner audit', async () => {
    const { auth, keys } = await s.connectedUser();
    const account = s.sim.exchange.accountByKey(keys.apiKey);
    if (!account) throw new Error('demo account missing');
    account.permissions.enableWithdrawals = true;
    const seen: string[] = [];
    await s.app.credentialsService.recheckAll(async (userId, message) => {
      if (userId === auth.user.id) seen.push(message);
    });
    expect(seen).toEqual([
      expect.stringMatching(/failed its scheduled check: this API key can withdraw funds/),
    ]);
  });
});
