import { describe, expect, it } from 'vitest';
import { insertBotRow } from '../bot-rows';
import { bearer, signUp, uniqueEmail, useTestApp } from '../helper';

/**
 * Issue "Hardening", finding 6: of 7,886 fuzzed requests the only 5xx was a NUL in the sign-up name (PostgreSQL
 * text cannot hold it), and an API key with a non-Latin-1 letter was answered 503 "exchange not reachable" (an HTTP
 * header cannot carry it, so the call failed before leaving). Both are the caller's input: 400, saying what is wrong.
 */
describe('input the database or HTTP cannot carry', () => {
  const t = useTestApp();

  it('refuses a name with a NUL or another control character, at sign-up and in the profile', async () => {
    const signup = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: uniqueEmail(), password: 'long enough passphrase', name: 'Ann\u0000Lee' },
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.json().detail).toMatch(/Name must not contain control characters/);

    const { access_token } = await signUp(t);
    const profile = await t.request({
      method: 'PATCH',
      url: '/api/v1/account/profile',
      headers: bearer(access_token),
      payload: { name: 'Ann\u001b[31mLee' },
    });
    expect(profile.statusCode).toBe(400);
    expect(profile.json().detail).toMatch(/Display name must not contain control characters/);
  });

  it('refuses a bot name with a NUL, a lone surrogate or a direction override on create, rename and clone', async () => {
    const auth = await signUp(t);
    const id = await insertBotRow(t.app.db, auth.user.id, 'bot', t.clock.now(), { name: 'Grid' });
    const create = {
      strategy: 'grid',
      params: {},
      symbol: 'BTCUSDT',
      interval: '1h',
      leverage: 3,
      budget: 100,
    };
    const calls: ['POST' | 'PATCH', string, object][] = [
      ['POST', '/api/v1/agents/', { ...create, mode: 'paper' }],
      ['PATCH', `/api/v1/agents/${id}`, {}],
      ['POST', `/api/v1/agents/${id}/clone`, {}],
    ];
    for (const name of ['Grid\u0000one', 'Grid \uD800', 'gpj\u202Eexe.grid'])
      for (const [method, url, body] of calls) {
        const r = await t.request({
          method,
          url,
          headers: bearer(auth.access_token),
          payload: { ...body, name },
        });
        expect([url, r.statusCode]).toEqual([url, 400]);
        expect(r.json().detail).toMatch(
          /name must not contain control characters, lone surrogates or direction overrides/,
        );
      }
  });

  it('refuses an API key with a letter no HTTP header can carry, instead of calling the exchange unreachable', async () => {
    const { access_token } = await signUp(t);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/credentials/validate/binance',
      headers: bearer(access_token),
      payload: { api_key: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKé', secret_key: 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/API Key must be letters, digits and symbols only/);
  });
});
