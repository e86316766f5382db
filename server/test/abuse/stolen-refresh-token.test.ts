import { AuthResponseSchema, ErrorResponseSchema } from '@kestrel/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SWEEP } from '../../src/core/auth/auth-service';
import { DPOP_IAT_WINDOW_S } from '../../src/core/auth/dpop';
import { ManualClock } from '../../src/lib/clock';
import {
  bearer,
  buildTestApp,
  type DpopKey,
  makeDpopKey,
  openTestDatabase,
  signUp,
  type TestApp,
  type TestDatabase,
} from '../helper';

/**
 * Issue "Hardening", finding 6: the spec keeps the 30-day refresh token in the browser's local storage, so a copy
 * of it (an XSS, a synced profile, a backup of the browser) used to be a 30-day login from anywhere. Now the token
 * is bound at sign-in to a non-extractable key of the browser (DPoP, RFC 9449) and every refresh needs a fresh
 * proof signed by that key: the copy alone refreshes nothing, and trying does not even disturb the real session.
 */
describe('a stolen refresh token', () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let browser: DpopKey;
  let thief: DpopKey;
  const REFRESH = '/api/v1/auth/refresh';
  const htu = (path: string) => `https://kestrel.example${path}`;

  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db);
    const now = () => t.clock.now().getTime();
    browser = await makeDpopKey(now);
    thief = await makeDpopKey(now);
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const refresh = (refresh_token: string, dpop?: string) =>
    t.request({
      method: 'POST',
      url: REFRESH,
      payload: { refresh_token },
      headers: dpop === undefined ? {} : { dpop },
    });
  const refused = (res: { statusCode: number; json(): unknown }) => {
    expect(res.statusCode).toBe(401);
    return ErrorResponseSchema.parse(res.json());
  };

  it('binds the refresh token to the key the sign-in proved (cnf.jkt), not to anything the token holder has', async () => {
    const auth = await signUp(t, undefined, undefined, browser);
    const claims = JSON.parse(Buffer.from(auth.refresh_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims.cnf).toEqual({ jkt: browser.jkt });
    expect(claims.dsk).toBe(0);
  });

  it('refreshes from a device whose clock is an hour off, judging iat by the offset seen at sign-in', async () => {
    const hourAhead = await makeDpopKey(() => t.clock.now().getTime() + 3_600_000);
    const auth = await signUp(t, undefined, undefined, hourAhead);
    t.clock.advance(60_000);
    const res = await refresh(auth.refresh_token, await hourAhead.proof('POST', htu(REFRESH)));
    expect(res.statusCode).toBe(200);
    // A proof made now but on the server's own time is 'an hour old' for this device: refused
    const next = AuthResponseSchema.parse(res.json());
    const late = await hourAhead.proof('POST', htu(REFRESH), { claims: { iat: nowS() } });
    expect(refused(await refresh(next.refresh_token, late)).detail).toContain('iat is too far');
  });

  it('refuses the copy without a proof, with another key’s proof, and leaves the real session working', async () => {
    const auth = await signUp(t, undefined, undefined, browser);
    expect(refused(await refresh(auth.refresh_token)).code).toBe('DPOP_INVALID');
    const other = refused(await refresh(auth.refresh_token, await thief.proof('POST', htu(REFRESH))));
    expect(other.code).toBe('DPOP_INVALID');
    expect(other.detail).toContain('signed by another key');
    // A proof copied along with the token is bound to its first use: replayed, it is refused
    const proof = await browser.proof('POST', htu(REFRESH));
    const real = await refresh(auth.refresh_token, proof);
    expect(real.statusCode).toBe(200);
    const next = AuthResponseSchema.parse(real.json());
    expect(refused(await refresh(next.refresh_token, proof)).detail).toContain('already used');
    // None of the refusals spent a token or ended the session
    expect((await refresh(next.refresh_token, await browser.proof('POST', htu(REFRESH)))).statusCode).toBe(
      200,
    );
  });

  it.each<[string, (key: DpopKey) => Promise<string>, string]>([
    ['the wrong method', (k) => k.proof('GET', htu(REFRESH)), 'htm must be POST'],
    ['another call’s URL', (k) => k.proof('POST', htu('/api/v1/auth/signin')), 'htu must be'],
    [
      'an iat too old',
      (k) => k.proof('POST', htu(REFRESH), { claims: { iat: nowS() - DPOP_IAT_WINDOW_S - 5 } }),
      'iat',
    ],
    [
      'an iat in the future',
      (k) => k.proof('POST', htu(REFRESH), { claims: { iat: nowS() + DPOP_IAT_WINDOW_S + 5 } }),
      'iat',
    ],
    ['no jti', (k) => k.proof('POST', htu(REFRESH), { claims: { jti: undefined } }), 'jti'],
    ['another typ', (k) => k.proof('POST', htu(REFRESH), { header: { typ: 'JWT' } }), 'does not verify'],
    ['a header with no key', (k) => k.proof('POST', htu(REFRESH), { header: { jwk: undefined } }), 'jwk'],
    [
      'an HMAC proof (alg confusion)',
      async (k) =>
        new SignJWT({ htm: 'POST', htu: htu(REFRESH), iat: nowS(), jti: crypto.randomUUID() })
          .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: k.jwk })
          .sign(new Uint8Array(32)),
      'does not verify',
    ],
  ])('refuses a proof with %s, naming what is wrong', async (_, make, words) => {
    const auth = await signUp(t, undefined, undefined, browser);
    const error = refused(await refresh(auth.refresh_token, await make(browser)));
    expect(error.code).toBe('DPOP_INVALID');
    expect(error.detail).toContain(words);
  });

  it('refuses a token issued before the binding (no cnf): its holder signs in once again', async () => {
    // What every session opened before this version holds, and what a client that sends no proof gets
    const unbound = await signUp(t);
    const error = refused(await refresh(unbound.refresh_token, await browser.proof('POST', htu(REFRESH))));
    expect(error.code).toBe('REFRESH_UNBOUND');
    expect(error.detail).toContain('Please sign in again.');
    // Its access token keeps working until it expires
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(unbound.access_token) }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a sign-in whose proof does not verify with 400 saying why, instead of an unrefreshable token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: `dpop-${Date.now()}@example.test`, password: 'correct horse battery staple' },
      headers: { dpop: await browser.proof('POST', htu('/api/v1/auth/signup'), { claims: { htm: 'PUT' } }) },
    });
    expect(res.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(res.json())).toMatchObject({
      code: 'DPOP_INVALID',
      detail: 'DPoP proof refused: htm must be POST.',
    });
  });

  function nowS() {
    return Math.floor(t.clock.now().getTime() / 1000);
  }
});

describe('the auth sweep', () => {
  let tdb: TestDatabase;
  let t: TestApp;
  let key: DpopKey;
  // The app's timers run when the test moves its clock: the sweep's round is a step of the test, not a wait
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    t = await buildTestApp(tdb.db, { clock });
    key = await makeDpopKey(() => clock.now().getTime());
  });
  afterAll(async () => {
    await t?.app.close();
    await tdb?.cleanup();
  });

  const count = async (sql: string, params: unknown[] = []) =>
    (await tdb.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]?.n;

  it('deletes ended sessions and spent refresh tokens on its timer, and keeps what is live', async () => {
    const refresh = async (refresh_token: string) =>
      AuthResponseSchema.parse(
        (
          await t.request({
            method: 'POST',
            url: '/api/v1/auth/refresh',
            payload: { refresh_token },
            headers: { dpop: await key.proof('POST', 'http://localhost/api/v1/auth/refresh') },
          })
        ).json(),
      );
    const live = await signUp(t, undefined, undefined, key);
    const loggedOut = await signUp(t, undefined, undefined, key);
    await t.request({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(loggedOut.access_token) });
    // Three rotations of the live session: three used tokens, one current
    let current = live;
    for (let i = 0; i < 3; i++) current = await refresh(current.refresh_token);
    expect(
      await count('refresh_tokens WHERE session_id = (SELECT id FROM sessions WHERE user_id = $1)', [
        live.user.id,
      ]),
    ).toBe(4);

    // Before the keep periods have passed, a pass deletes nothing
    await clock.advance(SWEEP.intervalMs);
    await vi.waitFor(async () =>
      expect(await count('sessions WHERE user_id = $1', [loggedOut.user.id])).toBe(1),
    );

    // A day later (the sweep runs once on the way, as after a suspended host, and again on its round)
    await clock.jump(SWEEP.endedSessionKeepMs + 1);
    await clock.advance(SWEEP.intervalMs);
    await vi.waitFor(async () =>
      expect(await count('sessions WHERE user_id = $1', [loggedOut.user.id])).toBe(0),
    );
    await vi.waitFor(async () =>
      expect(
        await count('refresh_tokens WHERE session_id = (SELECT id FROM sessions WHERE user_id = $1)', [
          live.user.id,
        ]),
      ).toBe(1),
    );
    // The live session and its current token are untouched
    expect((await refresh(current.refresh_token)).user.id).toBe(live.user.id);

    // An expired session goes once its keep period after expiry has passed too
    await clock.jump(30 * 24 * 60 * 60_000 + SWEEP.endedSessionKeepMs);
    await clock.advance(SWEEP.intervalMs);
    await vi.waitFor(async () => expect(await count('sessions WHERE user_id = $1', [live.user.id])).toBe(0));
    expect(await count('refresh_tokens WHERE session_id NOT IN (SELECT id FROM sessions)')).toBe(0);
  });
});
