import {
  AuthResponseSchema,
  ErrorResponseSchema,
  MeResponseSchema,
  SessionListResponseSchema,
} from '@kestrel/contracts';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { REFRESH_GRACE_MS, SESSION_LIFETIME_MS, THROTTLE } from '../src/core/auth/auth-service';
import { ACCESS_TOKEN_TTL_S } from '../src/core/auth/tokens';
import {
  bearer,
  type DpopKey,
  type Driver,
  makeDpopKey,
  PASSWORD,
  postgresUrl,
  signUp as signUpUnbound,
  type TestApp,
  uniqueEmail,
  useTestApp,
} from './helper';

// argon2 itself, only counted: the timing test below asks whether an unknown email runs a verification at all,
// which a count answers on any machine where CPU time under load does not
const argon2 = vi.hoisted(() => ({ verifications: 0 }));
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...real,
    verify: (...args: Parameters<typeof real.verify>) => {
      argon2.verifications += 1;
      return real.verify(...args);
    },
  };
});

const pgUp = (await postgresUrl()) !== undefined;

describe.each<Driver>(['pglite', 'postgres'])('auth on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUp)('', () => {
    // The browser's key: every sign-in here proves it, so refresh tokens are bound to it (test/abuse/dpop covers
    // the refusals)
    let key: DpopKey;
    /** Another browser: one the accounts here never signed in with (a stranger's) */
    let stranger: DpopKey;
    const t = useTestApp({ database: driver });
    beforeAll(async () => {
      key = await makeDpopKey(() => t.clock.now().getTime());
      stranger = await makeDpopKey(() => t.clock.now().getTime());
    });

    const signUp = (app: TestApp, email?: string, password?: string) =>
      signUpUnbound(app, email, password, key);
    const signinWith = async (device: DpopKey, email: string, password: string, remoteAddress = '10.0.0.1') =>
      t.request({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email, password },
        remoteAddress,
        headers: { dpop: await device.proof('POST', 'http://localhost/api/v1/auth/signin') },
      });
    /** A sign-in from the browser the accounts are made with */
    const signin = (email: string, password: string, remoteAddress = '10.0.0.1') =>
      signinWith(key, email, password, remoteAddress);
    const refresh = async (refresh_token: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        payload: { refresh_token },
        headers: { dpop: await key.proof('POST', 'http://localhost/api/v1/auth/refresh') },
      });
    const me = (token: string) =>
      t.request({ method: 'GET', url: '/api/v1/auth/me', headers: bearer(token) });
    const errorOf = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json());

    describe('sign-up', () => {
      it('creates an account and answers with the fields the browser reads', async () => {
        const email = uniqueEmail();
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/signup',
          payload: { email, password: PASSWORD, name: 'Ada' },
        });
        expect(res.statusCode).toBe(201);
        const body = AuthResponseSchema.parse(res.json());
        expect(body).toMatchObject({ success: true, token_type: 'bearer', user: { email, name: 'Ada' } });
        expect(body.expires_in).toBe(ACCESS_TOKEN_TTL_S);
        // The browser treats a refresh token as expired unless it is a three-part token with an expiry
        expect(body.refresh_token.split('.')).toHaveLength(3);
        expect(
          JSON.parse(Buffer.from(body.refresh_token.split('.')[1] ?? '', 'base64url').toString()),
        ).toHaveProperty('exp');
        expect((await me(body.access_token)).statusCode).toBe(200);
      });

      it('refuses a second account for the same email, whatever the case', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/signup',
          payload: { email: email.toUpperCase(), password: PASSWORD },
        });
        expect(res.statusCode).toBe(409);
        expect(errorOf(res).detail).toBe('An account with this email already exists');
      });

      it.each([
        ['a 7-character password', { password: 'x'.repeat(7) }, /at least 8/],
        ['a 129-character password', { password: 'x'.repeat(129) }, /at most 128/],
        ['an invalid email', { email: 'not-an-email' }, /email/i],
        ['an unknown field', { role: 'admin' }, /role/],
      ])('rejects %s with 400 and says what is wrong', async (_name, patch, pattern) => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/signup',
          payload: { email: uniqueEmail(), password: PASSWORD, ...patch },
        });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).detail).toMatch(pattern);
      });

      it('accepts 8 and 128 characters with no composition rule', async () => {
        for (const password of ['aaaaaaaa', 'a'.repeat(128)]) {
          const res = await t.request({
            method: 'POST',
            url: '/api/v1/auth/signup',
            payload: { email: uniqueEmail(), password },
          });
          expect(res.statusCode).toBe(201);
        }
      });

      it('stores an argon2id hash (m ≥ 19 MiB, t ≥ 2, p = 1), never the password', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const rows = await t.database.db.query<{ password_hash: string }>(
          'SELECT password_hash FROM users WHERE email_normalized = $1',
          [email],
        );
        const hash = rows[0]?.password_hash ?? '';
        expect(hash).not.toContain(PASSWORD);
        const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
        expect(m).not.toBeNull();
        expect(Number(m?.[1])).toBeGreaterThanOrEqual(19 * 1024);
        expect(Number(m?.[2])).toBeGreaterThanOrEqual(2);
        expect(Number(m?.[3])).toBe(1);
      });
    });

    describe('sign-in', () => {
      it('signs in with the right password, email case-insensitive', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const res = await signin(email.toUpperCase(), PASSWORD, '10.1.0.1');
        expect(res.statusCode).toBe(200);
        const body = AuthResponseSchema.parse(res.json());
        expect(body.user.email).toBe(email);
        expect(body.message).toBe('Signed in');
      });

      it('gives the same answer for an unknown email and a wrong password', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const wrong = await signin(email, 'wrong password!', '10.1.0.2');
        const unknown = await signin(uniqueEmail('nobody'), 'wrong password!', '10.1.0.2');
        expect(wrong.statusCode).toBe(401);
        expect(unknown.statusCode).toBe(401);
        expect(wrong.json()).toEqual(unknown.json());
        expect(errorOf(wrong).detail).toBe('Invalid email or password');
      });

      it('spends the same work on an unknown email as on a wrong password (argon2 runs either way)', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        // Without the dummy hash an unknown email would skip argon2 and answer ~5× sooner: a timing oracle
        const verificationsOf = async (e: string, ip: string) => {
          const before = argon2.verifications;
          const res = await signin(e, 'wrong password!', ip);
          expect(res.statusCode).toBe(401);
          return argon2.verifications - before;
        };
        expect(await verificationsOf(email, '10.2.0.1')).toBe(1);
        expect(await verificationsOf(uniqueEmail('ghost'), '10.2.0.2')).toBe(1);
      });

      it('rejects a missing password with 400', async () => {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/signin',
          payload: { email: uniqueEmail() },
        });
        expect(res.statusCode).toBe(400);
        expect(errorOf(res).detail).toMatch(/password/);
      });
    });

    describe('throttling of failed sign-ins', () => {
      it(`blocks an email+IP after ${THROTTLE.emailIpLimit} failures, even for the right password, and only briefly`, async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const ip = '10.3.0.1';
        for (let i = 0; i < THROTTLE.emailIpLimit; i += 1) {
          expect((await signinWith(stranger, email, 'wrong password!', ip)).statusCode).toBe(401);
        }
        const blocked = await signinWith(stranger, email, PASSWORD, ip);
        expect(blocked.statusCode).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBe(THROTTLE.firstBlockMs / 1000);
        expect(errorOf(blocked).detail).toMatch(
          /Too many failed sign-in attempts\. Try again in \d+ seconds/,
        );

        // The real user on another network is not locked out by an attacker's failures
        expect((await signin(email, PASSWORD, '10.3.0.2')).statusCode).toBe(200);

        t.clock.advance(THROTTLE.firstBlockMs);
        expect((await signinWith(stranger, email, PASSWORD, ip)).statusCode).toBe(200);
      });

      it('treats unknown emails the same way (no account enumeration through the throttle)', async () => {
        const email = uniqueEmail('ghost');
        const ip = '10.3.1.1';
        for (let i = 0; i < THROTTLE.emailIpLimit; i += 1) await signin(email, 'wrong password!', ip);
        expect((await signin(email, 'wrong password!', ip)).statusCode).toBe(429);
        t.clock.advance(THROTTLE.firstBlockMs);
      });

      it('doubles the block on further failures but never beyond the cap', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const ip = '10.3.2.1';
        const retries: number[] = [];
        for (let i = 0; i < 16; i += 1) {
          const res = await signin(email, 'wrong password!', ip);
          if (res.statusCode === 429) {
            retries.push(Number(res.headers['retry-after']));
            t.clock.advance(Number(res.headers['retry-after']) * 1000);
          }
        }
        expect(retries).toEqual([30, 60, 120, 240, 300, 300]);
        expect(THROTTLE.maxBlockMs).toBe(300_000);
        t.clock.advance(THROTTLE.maxBlockMs);
        expect((await signin(email, PASSWORD, ip)).statusCode).toBe(200);
      });

      it(`blocks an IP spraying many emails after ${THROTTLE.ipLimit} failures`, async () => {
        const ip = '10.3.3.1';
        for (let i = 0; i < THROTTLE.ipLimit; i += 1) {
          expect((await signin(uniqueEmail('spray'), 'wrong password!', ip)).statusCode).toBe(401);
        }
        expect((await signin(uniqueEmail('spray'), 'wrong password!', ip)).statusCode).toBe(429);
        t.clock.advance(THROTTLE.firstBlockMs);
        expect((await signin(uniqueEmail('spray'), 'wrong password!', ip)).statusCode).toBe(401);
      });

      it('never locks the owner’s own browser out, however many strangers fail from elsewhere', async () => {
        const email = uniqueEmail();
        // The owner's browser: it made the account, so the account knows its key
        await signUp(t, email);
        // Strangers guess from many addresses until the account-wide limit holds them all back
        for (let i = 0; i < THROTTLE.accountLimit; i += 1)
          expect((await signinWith(stranger, email, 'wrong password!', `10.5.1.${i}`)).statusCode).toBe(401);
        expect((await signinWith(stranger, email, PASSWORD, '10.5.2.1')).statusCode).toBe(429);
        // A browser the account has never seen is held back too, the right password or not
        const unseen = await makeDpopKey(() => t.clock.now().getTime());
        expect((await signinWith(unseen, email, PASSWORD, '10.5.0.1')).statusCode).toBe(429);
        // The owner's browser proves its key and signs in, from its usual address or another
        const owner = await signin(email, PASSWORD, '10.5.0.1');
        expect(owner.statusCode).toBe(200);
        // …and finds it was told, once, in its notifications
        const notices = await t.request({
          method: 'GET',
          url: '/api/v1/notifications',
          headers: { authorization: `Bearer ${owner.json().access_token}` },
        });
        const told = (notices.json().data.items as { event: string; message: string }[]).filter(
          (n) => n.event === 'signin_failures',
        );
        expect(told).toHaveLength(1);
        expect(told[0]?.message).toMatch(/^20 wrong passwords for your account within 15 minutes/);
        expect((await signin(email, PASSWORD, '10.5.3.1')).statusCode).toBe(200);
        // Its own wrong guesses are still limited, on its own count
        for (let i = 0; i < THROTTLE.emailIpLimit; i += 1)
          expect((await signin(email, 'wrong password!', '10.5.0.1')).statusCode).toBe(401);
        expect((await signin(email, PASSWORD, '10.5.0.1')).statusCode).toBe(429);
        t.clock.advance(THROTTLE.maxBlockMs);
      });

      it('forgets old failures once the window has passed', async () => {
        const email = uniqueEmail();
        await signUp(t, email);
        const ip = '10.3.4.1';
        for (let i = 0; i < THROTTLE.emailIpLimit - 1; i += 1) await signin(email, 'wrong password!', ip);
        t.clock.advance(THROTTLE.windowMs);
        expect((await signin(email, 'wrong password!', ip)).statusCode).toBe(401);
        expect((await signin(email, PASSWORD, ip)).statusCode).toBe(200);
      });
    });

    describe('access tokens', () => {
      it(`expire after ${ACCESS_TOKEN_TTL_S / 60} minutes`, async () => {
        const { access_token } = await signUp(t);
        t.clock.advance(ACCESS_TOKEN_TTL_S * 1000 - 1000);
        expect((await me(access_token)).statusCode).toBe(200);
        t.clock.advance(1000);
        const res = await me(access_token);
        expect(res.statusCode).toBe(401);
        expect(errorOf(res).detail).toBe('Authentication expired. Please sign in again.');
        expect(res.headers['www-authenticate']).toBe('Bearer');
      });

      it('answers 401 without a token and with a malformed one', async () => {
        const none = await t.request({ method: 'GET', url: '/api/v1/auth/me' });
        expect(none.statusCode).toBe(401);
        expect(errorOf(none).detail).toMatch(/Authorization: Bearer/);
        expect((await me('not.a.token')).statusCode).toBe(401);
        expect((await me('')).statusCode).toBe(401);
      });

      it('rejects the refresh token used as an access token, and vice versa', async () => {
        const auth = await signUp(t);
        expect((await me(auth.refresh_token)).statusCode).toBe(401);
        expect((await refresh(auth.access_token)).statusCode).toBe(401);
      });

      it('rejects alg "none", another algorithm, a forged signature and a wrong audience', async () => {
        const auth = await signUp(t);
        const [header, payload] = auth.access_token.split('.') as [string, string, string];
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const kid = JSON.parse(Buffer.from(header, 'base64url').toString()).kid;
        const none = `${enc({ alg: 'none', typ: 'at+jwt', kid })}.${payload}.`;
        expect((await me(none)).statusCode).toBe(401);
        const hs512 = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS512', typ: 'at+jwt', kid })
          .sign(new Uint8Array(64));
        expect((await me(hs512)).statusCode).toBe(401);
        const forged = await new SignJWT(claims)
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
          .sign(new Uint8Array(32));
        expect((await me(forged)).statusCode).toBe(401);
        // Right key, tampered claims: the signature no longer matches
        const tampered = `${header}.${enc({ ...claims, aud: 'someone-else' })}.${auth.access_token.split('.')[2]}`;
        expect((await me(tampered)).statusCode).toBe(401);
      });
    });

    describe('refresh rotation', () => {
      it('returns a new pair and the old refresh token stops working', async () => {
        const first = await signUp(t);
        const res = await refresh(first.refresh_token);
        expect(res.statusCode).toBe(200);
        const second = AuthResponseSchema.parse(res.json());
        expect(second.refresh_token).not.toBe(first.refresh_token);
        expect(second.user.id).toBe(first.user.id);
        expect((await me(second.access_token)).statusCode).toBe(200);
        const third = await refresh(second.refresh_token);
        expect(third.statusCode).toBe(200);
      });

      it('ends the whole session family when a used refresh token is replayed', async () => {
        const first = await signUp(t);
        const second = AuthResponseSchema.parse((await refresh(first.refresh_token)).json());
        t.clock.advance(REFRESH_GRACE_MS + 1);
        const replay = await refresh(first.refresh_token);
        expect(replay.statusCode).toBe(401);
        expect(errorOf(replay).code).toBe('REFRESH_REUSED');
        // The legitimate holder of the newer tokens is signed out too, access token included
        expect((await refresh(second.refresh_token)).statusCode).toBe(401);
        expect((await me(second.access_token)).statusCode).toBe(401);
      });

      it('only ends the replayed family, not the same user’s other sessions', async () => {
        const email = uniqueEmail();
        const a = await signUp(t, email);
        const b = AuthResponseSchema.parse((await signin(email, PASSWORD, '10.4.0.1')).json());
        await refresh(a.refresh_token);
        t.clock.advance(REFRESH_GRACE_MS + 1);
        expect((await refresh(a.refresh_token)).statusCode).toBe(401);
        expect((await me(b.access_token)).statusCode).toBe(200);
        expect((await refresh(b.refresh_token)).statusCode).toBe(200);
      });

      it('answers the spec texts for an invalid and an expired refresh token', async () => {
        const invalid = await refresh('abc.def.ghi');
        expect(invalid.statusCode).toBe(401);
        expect(errorOf(invalid).detail).toBe('Refresh token invalid. Please sign in again.');
        const missing = await t.request({ method: 'POST', url: '/api/v1/auth/refresh', payload: {} });
        expect(missing.statusCode).toBe(400);

        const auth = await signUp(t);
        t.clock.advance(SESSION_LIFETIME_MS);
        const expired = await refresh(auth.refresh_token);
        expect(expired.statusCode).toBe(401);
        expect(errorOf(expired).detail).toBe('Refresh token expired. Please sign in again.');
      });

      it('never extends a session past its absolute lifetime', async () => {
        let auth = await signUp(t);
        const started = t.clock.now().getTime();
        while (t.clock.now().getTime() + 10 * 24 * 3600 * 1000 < started + SESSION_LIFETIME_MS) {
          t.clock.advance(10 * 24 * 3600 * 1000);
          auth = AuthResponseSchema.parse((await refresh(auth.refresh_token)).json());
        }
        t.clock.advance(started + SESSION_LIFETIME_MS - t.clock.now().getTime());
        expect((await refresh(auth.refresh_token)).statusCode).toBe(401);
      });

      it('rotates once when two refreshes with the same token race: both get the same replacement', async () => {
        const auth = await signUp(t);
        const results = await Promise.all([refresh(auth.refresh_token), refresh(auth.refresh_token)]);
        expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
        const [a, b] = results.map((r) => AuthResponseSchema.parse(r.json()));
        expect(a?.refresh_token).toBe(b?.refresh_token);
        expect(a?.refresh_token).not.toBe(auth.refresh_token);
        // One chain goes on: the shared replacement refreshes, and the session is alive
        const next = await refresh(a?.refresh_token ?? '');
        expect(next.statusCode).toBe(200);
        expect((await me(AuthResponseSchema.parse(next.json()).access_token)).statusCode).toBe(200);
      });

      it('answers a lost refresh again within the grace window, and ends the session after it', async () => {
        const auth = await signUp(t);
        const first = AuthResponseSchema.parse((await refresh(auth.refresh_token)).json());
        t.clock.advance(REFRESH_GRACE_MS - 1000);
        // The first answer never arrived: the client retries with the token it still holds
        const again = await refresh(auth.refresh_token);
        expect(again.statusCode).toBe(200);
        expect(AuthResponseSchema.parse(again.json()).refresh_token).toBe(first.refresh_token);
        // Once the replacement itself is spent, the old token is a replay even inside the window
        const second = AuthResponseSchema.parse((await refresh(first.refresh_token)).json());
        const late = await refresh(auth.refresh_token);
        expect(errorOf(late).code).toBe('REFRESH_REUSED');
        expect((await me(second.access_token)).statusCode).toBe(401);
      });
    });

    describe('logout and sessions', () => {
      it('logout ends the session at once, access token included', async () => {
        const auth = await signUp(t);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/logout',
          headers: bearer(auth.access_token),
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, message: 'Logged out' });
        expect((await me(auth.access_token)).statusCode).toBe(401);
        expect((await refresh(auth.refresh_token)).statusCode).toBe(401);
      });

      it('logout accepts a JSON content type with an empty body', async () => {
        const auth = await signUp(t);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/auth/logout',
          headers: { ...bearer(auth.access_token), 'content-type': 'application/json' },
        });
        expect(res.statusCode).toBe(200);
      });

      it('lists the live sessions, marking the current one', async () => {
        const email = uniqueEmail();
        const a = await signUp(t, email);
        const b = AuthResponseSchema.parse((await signin(email, PASSWORD, '10.5.0.1')).json());
        await t.request({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(b.access_token) });
        const c = AuthResponseSchema.parse((await signin(email, PASSWORD, '10.5.0.2')).json());
        const res = await t.request({
          method: 'GET',
          url: '/api/v1/auth/sessions',
          headers: bearer(a.access_token),
        });
        const { sessions } = SessionListResponseSchema.parse(res.json());
        expect(sessions).toHaveLength(2);
        expect(sessions.filter((s) => s.current)).toHaveLength(1);
        expect(sessions.map((s) => s.ip).sort()).toEqual(['10.5.0.2', '127.0.0.1']);
        const cId = sessions.find((s) => !s.current)?.id;

        const del = await t.request({
          method: 'DELETE',
          url: `/api/v1/auth/sessions/${cId}`,
          headers: bearer(a.access_token),
        });
        expect(del.statusCode).toBe(200);
        expect((await me(c.access_token)).statusCode).toBe(401);
        expect((await refresh(c.refresh_token)).statusCode).toBe(401);
        expect((await me(a.access_token)).statusCode).toBe(200);
      });

      it('one user can neither list nor delete another user’s sessions', async () => {
        const alice = await signUp(t);
        const mallory = await signUp(t);
        const aliceSessions = SessionListResponseSchema.parse(
          (
            await t.request({
              method: 'GET',
              url: '/api/v1/auth/sessions',
              headers: bearer(alice.access_token),
            })
          ).json(),
        ).sessions;
        const mallorySessions = SessionListResponseSchema.parse(
          (
            await t.request({
              method: 'GET',
              url: '/api/v1/auth/sessions',
              headers: bearer(mallory.access_token),
            })
          ).json(),
        ).sessions;
        expect(mallorySessions.map((s) => s.id)).not.toContain(aliceSessions[0]?.id);

        const res = await t.request({
          method: 'DELETE',
          url: `/api/v1/auth/sessions/${aliceSessions[0]?.id}`,
          headers: bearer(mallory.access_token),
        });
        expect(res.statusCode).toBe(404);
        expect((await me(alice.access_token)).statusCode).toBe(200);
      });

      it('answers 400 for a session id that is not a UUID and 404 for an unknown one', async () => {
        const auth = await signUp(t);
        const bad = await t.request({
          method: 'DELETE',
          url: '/api/v1/auth/sessions/42',
          headers: bearer(auth.access_token),
        });
        expect(bad.statusCode).toBe(400);
        expect(errorOf(bad).detail).toMatch(/UUID/);
        const unknown = await t.request({
          method: 'DELETE',
          url: '/api/v1/auth/sessions/00000000-0000-4000-8000-000000000000',
          headers: bearer(auth.access_token),
        });
        expect(unknown.statusCode).toBe(404);
      });

      it('GET /me answers the user', async () => {
        const auth = await signUp(t);
        const res = await me(auth.access_token);
        expect(MeResponseSchema.parse(res.json()).user).toEqual(auth.user);
      });

      // Last in the file: it moves the app's clock past every session's end
      it('liveSessionIds (the open sockets’ re-check) leaves out ended, expired and unknown sessions', async () => {
        const email = uniqueEmail();
        const first = await signUp(t, email);
        const second = AuthResponseSchema.parse((await signin(email, PASSWORD, '10.6.0.1')).json());
        const list = await t.request({
          method: 'GET',
          url: '/api/v1/auth/sessions',
          headers: bearer(first.access_token),
        });
        const sessions = SessionListResponseSchema.parse(list.json()).sessions;
        const firstId = sessions.find((s) => s.current)?.id ?? '';
        const ids = sessions.map((s) => s.id);
        expect(ids).toHaveLength(2);
        const unknown = '00000000-0000-4000-8000-000000000000';
        expect(await t.app.authService.liveSessionIds([...ids, unknown])).toEqual(new Set(ids));

        await t.request({ method: 'POST', url: '/api/v1/auth/logout', headers: bearer(second.access_token) });
        expect(await t.app.authService.liveSessionIds(ids)).toEqual(new Set([firstId]));

        t.clock.advance(SESSION_LIFETIME_MS - 1);
        expect(await t.app.authService.liveSessionIds(ids)).toEqual(new Set([firstId]));
        t.clock.advance(1);
        expect(await t.app.authService.liveSessionIds(ids)).toEqual(new Set());
      });
    });
  });
});
