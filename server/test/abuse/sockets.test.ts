import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, PASSWORD, signUp, uniqueEmail, useTestApp } from '../helper';
import { listenWs, TestSocket } from '../socket-helper';

/**
 * Issue "Hardening", finding 6: a socket kept answering up to 30 s after logout (the periodic session re-check), and
 * one user could hold 500 sockets. Ending a session now closes its sockets at once; a user's sockets are capped.
 */
describe('live sockets follow the session and are capped per user', () => {
  const CAP = 3;
  const t = useTestApp({ env: { KESTREL_MAX_SOCKETS_PER_USER: String(CAP) } });
  let wsUrl: string;
  beforeAll(async () => {
    wsUrl = await listenWs(t);
  });

  /** An open socket whose token check has passed (it answered a request) */
  async function openChecked(token: string): Promise<TestSocket> {
    const s = await TestSocket.open(`${wsUrl}/tab-${Math.random().toString(36).slice(2)}?token=${token}`);
    const reply = await s.request('tools/list');
    expect(reply.error).toBeUndefined();
    return s;
  }

  /**
   * The socket's close, which must come well before the 30 s periodic re-check: the test fails rather than waits.
   * No timers are faked: the close comes from the ending request itself
   */
  async function closedSoon(s: TestSocket): Promise<{ code: number; reason: string }> {
    return Promise.race([
      s.closed,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('socket still open 3 s after its session ended')), 3000),
      ),
    ]);
  }

  const signIn = async (email: string) => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/auth/signin',
      payload: { email, password: PASSWORD },
    });
    return res.json().access_token as string;
  };

  it('closes the socket of a session at once on logout, with 4401 and a reason', async () => {
    const { access_token } = await signUp(t);
    const s = await openChecked(access_token);
    const out = await t.request({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: bearer(access_token),
    });
    expect(out.statusCode).toBe(200);
    expect(await closedSoon(s)).toEqual({ code: 4401, reason: 'Session has ended. Please sign in again.' });
  });

  it('closes the sockets of a revoked session at once, and leaves the revoking session its own', async () => {
    const email = uniqueEmail();
    const { access_token: laptop } = await signUp(t, email);
    const phone = await signIn(email);
    const laptopSocket = await openChecked(laptop);
    const phoneSocket = await openChecked(phone);
    const sessions = (
      await t.request({ method: 'GET', url: '/api/v1/auth/sessions', headers: bearer(laptop) })
    ).json().sessions as { id: string; current: boolean }[];
    const other = sessions.find((x) => !x.current);
    if (!other) throw new Error('the second session is missing');
    const revoked = await t.request({
      method: 'DELETE',
      url: `/api/v1/auth/sessions/${other.id}`,
      headers: bearer(laptop),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await closedSoon(phoneSocket)).code).toBe(4401);
    expect((await laptopSocket.request('tools/list')).error).toBeUndefined();
    await laptopSocket.close();
  });

  it('closes the other sessions’ sockets when the password changes or everything else is signed out', async () => {
    const email = uniqueEmail();
    const { access_token: a } = await signUp(t, email);
    const b = await signIn(email);
    const bSocket = await openChecked(b);
    const changed = await t.request({
      method: 'POST',
      url: '/api/v1/account/password',
      headers: bearer(a),
      payload: { current_password: PASSWORD, new_password: 'violet harbour lantern' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await closedSoon(bSocket)).code).toBe(4401);

    const c = (
      await t.request({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email, password: 'violet harbour lantern' },
      })
    ).json().access_token as string;
    const cSocket = await openChecked(c);
    const all = await t.request({ method: 'DELETE', url: '/api/v1/account/sessions', headers: bearer(a) });
    expect(all.statusCode).toBe(200);
    expect((await closedSoon(cSocket)).code).toBe(4401);
  });

  it(`refuses a user's socket past ${CAP} with 4429 and keeps the open ones; other users are not affected`, async () => {
    const { access_token } = await signUp(t);
    const open = [];
    for (let i = 0; i < CAP; i += 1) open.push(await openChecked(access_token));
    const extra = await TestSocket.open(`${wsUrl}/tab-extra?token=${access_token}`);
    expect(await closedSoon(extra)).toEqual({
      code: 4429,
      reason: `Too many live connections for this account (${CAP}); close another tab or device`,
    });
    for (const s of open) expect((await s.request('tools/list')).error).toBeUndefined();

    const other = await openChecked((await signUp(t)).access_token);
    await other.close();

    // A closed tab frees its place
    await open[0]?.close();
    const again = await openChecked(access_token);
    for (const s of [again, ...open.slice(1)]) await s.close();
  });
});
