import { ErrorResponseSchema, MeResponseSchema, SessionListResponseSchema } from '@kestrel/contracts';
import {
  AccountEventsResponseSchema,
  AccountSettingsResponseSchema,
  STEP_UP_WINDOW_MS,
  StepUpResponseSchema,
} from '@kestrel/contracts/account';
import { describe, expect, it } from 'vitest';
import { bearer, PASSWORD, signUp, uniqueEmail, useTestApp } from './helper';
import { PROBE_ACCOUNT } from './probe-account';

const API_KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const SECRET_KEY = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const NEW_PASSWORD = 'a brand new passphrase';

// Saving keys checks them with the exchange: this one accepts them (the exchange's answers are not under test here)
const t = useTestApp({
  deps: {
    exchange: {
      testAccount: async () => ({ ...PROBE_ACCOUNT }),
    },
  },
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: object, userAgent?: string) =>
  t.request({
    method,
    url,
    headers: { ...bearer(token), ...(userAgent ? { 'user-agent': userAgent } : {}) },
    ...(payload ? { payload } : {}),
  });
const signin = async (
  email: string,
  password: string,
  userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
) =>
  t.request({
    method: 'POST',
    url: '/api/v1/auth/signin',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
const tokenOf = (res: { json(): unknown }) => (res.json() as { access_token: string }).access_token;
const errorOf = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json());
const events = async (token: string) =>
  AccountEventsResponseSchema.parse((await call('GET', '/api/v1/account/events', token)).json()).data;
const saveKeys = (token: string) =>
  call('POST', '/api/v1/credentials/binance', token, { api_key: API_KEY, secret_key: SECRET_KEY });

/** A user with two sessions: `a` (the one acting) and `b` (another device) */
async function twoSessions() {
  const email = uniqueEmail('acct');
  const a = (await signUp(t, email)).access_token;
  const b = tokenOf(await signin(email, PASSWORD));
  return { email, a, b };
}

describe('profile', () => {
  it('changes the display name, clears it with an empty one, and records both', async () => {
    const { a } = await twoSessions();
    const res = await call('PATCH', '/api/v1/account/profile', a, { name: '  Ada L.  ' });
    expect(res.statusCode).toBe(200);
    expect(MeResponseSchema.parse((await call('GET', '/api/v1/auth/me', a)).json()).user.name).toBe('Ada L.');
    await call('PATCH', '/api/v1/account/profile', a, { name: '' });
    expect(MeResponseSchema.parse((await call('GET', '/api/v1/auth/me', a)).json()).user.name).toBeNull();
    expect((await events(a)).slice(0, 2).map((e) => e.message)).toEqual([
      'Display name cleared',
      'Display name changed to “Ada L.”',
    ]);
  });

  it('refuses a name over 100 characters, naming the field and the rule', async () => {
    const { a } = await twoSessions();
    const res = await call('PATCH', '/api/v1/account/profile', a, { name: 'x'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).issues?.[0]).toMatchObject({
      path: 'body.name',
      message: 'Display name must be at most 100 characters',
    });
  });
});

describe('password change', () => {
  it('needs the current password: a wrong one is a 403 that leaves the session signed in', async () => {
    const { a } = await twoSessions();
    const res = await call('POST', '/api/v1/account/password', a, {
      current_password: 'not my password',
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({ code: 'WRONG_PASSWORD', detail: 'Password is not correct' });
    expect((await call('GET', '/api/v1/auth/me', a)).statusCode).toBe(200);
  });

  it('stores the new password and signs out every other session, this one staying', async () => {
    const { email, a, b } = await twoSessions();
    const res = await call('POST', '/api/v1/account/password', a, {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { sessionsEnded: 1 } });
    expect(errorOf(await call('GET', '/api/v1/auth/me', b)).code).toBe('SESSION_ENDED');
    expect((await call('GET', '/api/v1/auth/me', a)).statusCode).toBe(200);
    expect((await signin(email, PASSWORD)).statusCode).toBe(401);
    expect((await signin(email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await events(a)).map((e) => e.message)).toContain('Password changed; 1 other session signed out');
  });

  it('refuses a new password shorter than 8 characters or equal to the current one', async () => {
    const { a } = await twoSessions();
    const short = await call('POST', '/api/v1/account/password', a, {
      current_password: PASSWORD,
      new_password: 'short',
    });
    expect(errorOf(short).issues?.[0]).toMatchObject({
      path: 'body.new_password',
      message: 'Password must be at least 8 characters',
    });
    const same = await call('POST', '/api/v1/account/password', a, {
      current_password: PASSWORD,
      new_password: PASSWORD,
    });
    expect(errorOf(same).issues?.[0]?.message).toBe('New password must differ from the current one');
  });

  it('throttles wrong passwords per user: the sixth wrong guess in a row is a 429', async () => {
    const { a } = await twoSessions();
    const wrong = () => call('POST', '/api/v1/account/step-up', a, { password: 'guess' });
    for (let i = 0; i < 5; i++) expect((await wrong()).statusCode).toBe(403);
    const blocked = await wrong();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    // Even the right password waits out the block
    expect((await call('POST', '/api/v1/account/step-up', a, { password: PASSWORD })).statusCode).toBe(429);
  });
});

describe('sessions', () => {
  it('lists the device and IP, revokes one with an audit entry, and revokes all others', async () => {
    const email = uniqueEmail('sess');
    const a = (await signUp(t, email)).access_token;
    const b = tokenOf(await signin(email, PASSWORD, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1'));
    const c = tokenOf(await signin(email, PASSWORD));
    const list = SessionListResponseSchema.parse(
      (await call('GET', '/api/v1/auth/sessions', a)).json(),
    ).sessions;
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    const iphone = list.find((s) => s.user_agent?.includes('iPhone'));
    expect(iphone?.ip).toBe('127.0.0.1');

    expect((await call('DELETE', `/api/v1/auth/sessions/${iphone?.id}`, a)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/auth/me', b)).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/auth/me', c)).statusCode).toBe(200);

    const all = await call('DELETE', '/api/v1/account/sessions', a);
    expect(all.json()).toMatchObject({ data: { sessionsEnded: 1 } });
    expect((await call('GET', '/api/v1/auth/me', c)).statusCode).toBe(401);
    expect((await call('GET', '/api/v1/auth/me', a)).statusCode).toBe(200);
    expect((await events(a)).slice(0, 2).map((e) => e.kind)).toEqual(['sessions_revoked', 'session_revoked']);
  });
});

describe('step-up (the password again within 5 minutes)', () => {
  it('lets a fresh sign-in save keys, then asks again after 5 minutes until the password is given', async () => {
    const { a } = await twoSessions();
    expect((await saveKeys(a)).statusCode).toBe(201);

    t.clock.advance(STEP_UP_WINDOW_MS);
    const refused = await saveKeys(a);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused)).toMatchObject({ code: 'STEP_UP_REQUIRED' });
    expect(errorOf(refused).detail).toContain('Enter your password again');

    const stepUp = await call('POST', '/api/v1/account/step-up', a, { password: PASSWORD });
    expect(StepUpResponseSchema.parse(stepUp.json()).data.validUntil).toBe(
      t.clock.now().getTime() + STEP_UP_WINDOW_MS,
    );
    t.clock.advance(STEP_UP_WINDOW_MS - 1);
    expect((await saveKeys(a)).statusCode).toBe(201);
    expect((await events(a)).slice(0, 3).map((e) => e.kind)).toEqual(['keys_saved', 'step_up', 'keys_saved']);
  });

  it('belongs to the session: another device of the same user is still asked', async () => {
    const { a, b } = await twoSessions();
    t.clock.advance(STEP_UP_WINDOW_MS);
    await call('POST', '/api/v1/account/step-up', a, { password: PASSWORD });
    expect((await saveKeys(a)).statusCode).toBe(201);
    expect(errorOf(await saveKeys(b)).code).toBe('STEP_UP_REQUIRED');
  });
});

describe('settings', () => {
  it('starts with no default bot limits, stores them, and refuses an out-of-range one by name', async () => {
    const { a } = await twoSessions();
    const initial = AccountSettingsResponseSchema.parse(
      (await call('GET', '/api/v1/account/settings', a)).json(),
    );
    expect(initial.data).toEqual({
      defaultBotRiskLimits: { maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null },
      updatedAt: null,
    });
    const limits = { maxNotional: 500, dailyLossLimit: 25, maxDrawdownPercent: 10 };
    expect(
      (await call('PUT', '/api/v1/account/settings', a, { defaultBotRiskLimits: limits })).statusCode,
    ).toBe(200);
    const stored = AccountSettingsResponseSchema.parse(
      (await call('GET', '/api/v1/account/settings', a)).json(),
    );
    expect(stored.data).toEqual({ defaultBotRiskLimits: limits, updatedAt: t.clock.now().getTime() });

    const bad = await call('PUT', '/api/v1/account/settings', a, {
      defaultBotRiskLimits: { ...limits, maxDrawdownPercent: 150 },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).issues?.[0]).toMatchObject({
      path: 'body.defaultBotRiskLimits.maxDrawdownPercent',
      message: 'Max drawdown must be between 0.01 and 100',
    });
    expect((await events(a))[0]?.message).toBe(
      'Default bot limits set: max notional 500 USDT, daily loss 25 USDT, max drawdown 10 %',
    );
  });
});

describe('account deletion', () => {
  it('needs the password and the typed confirmation, then deletes keys and signs out everywhere', async () => {
    const { email, a, b } = await twoSessions();
    expect((await saveKeys(a)).statusCode).toBe(201);

    const unconfirmed = await call('POST', '/api/v1/account/delete', a, {
      password: PASSWORD,
      confirmation: 'yes',
    });
    expect(errorOf(unconfirmed).issues?.[0]).toMatchObject({
      path: 'body.confirmation',
      message: 'Type DELETE to confirm',
    });
    const wrong = await call('POST', '/api/v1/account/delete', a, {
      password: 'nope',
      confirmation: 'DELETE',
    });
    expect(errorOf(wrong).code).toBe('WRONG_PASSWORD');
    expect((await call('GET', '/api/v1/auth/me', a)).statusCode).toBe(200);

    const done = await call('POST', '/api/v1/account/delete', a, {
      password: PASSWORD,
      confirmation: 'DELETE',
    });
    expect(done.statusCode).toBe(200);
    for (const token of [a, b])
      expect(errorOf(await call('GET', '/api/v1/auth/me', token)).code).toBe('SESSION_ENDED');
    expect((await signin(email, PASSWORD)).statusCode).toBe(401);
    const left = await t.database.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM exchange_credentials c JOIN users u ON u.id = c.user_id
               WHERE u.email_normalized = $1)::int
            + (SELECT count(*) FROM users WHERE email_normalized = $1)::int AS n`,
      [email.toLowerCase()],
    );
    expect(left[0]?.n).toBe(0);
    // The email is free again
    expect((await signUp(t, email)).success).toBe(true);
  });
});
