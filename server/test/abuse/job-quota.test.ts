import { describe, expect, it } from 'vitest';
import { bearer, PASSWORD, SIM_START, signUp, uniqueEmail, useTestServer } from '../helper';

const HOUR = 3_600_000;

/**
 * Issue "Hardening", finding 6: there was no backtest quota (100 created in 2 s, each a worker's minutes, queued
 * ahead of everyone else's). Backtests and optimisation jobs are now capped per user: created per rolling hour, and
 * queued or running at once; past a cap the answer is 429 with Retry-After and a sentence saying which cap.
 */
describe('per-user quota on backtests and optimisation jobs', () => {
  const s = useTestServer({ env: { KESTREL_JOBS_PER_HOUR: '3', KESTREL_JOBS_QUEUED: '2' } });

  /** Two hours of 1m bars inside the simulator's history */
  const backtest = {
    strategy: 'ema-cross',
    params: { fast: 5, slow: 20 },
    symbol: 'BTCUSDT',
    interval: '1m',
    startTime: SIM_START - 5 * HOUR,
    endTime: SIM_START - 3 * HOUR,
  };
  const optimisation = { ...backtest, space: { fast: { values: [5, 6] } }, objective: 'sharpe' };
  const post = (token: string, url: string, payload: object) =>
    s.request({ method: 'POST', url, headers: bearer(token), payload });
  /** A fresh access token after the clock moved past the last one's life */
  const signIn = async (email: string) =>
    (
      await s.request({ method: 'POST', url: '/api/v1/auth/signin', payload: { email, password: PASSWORD } })
    ).json().access_token as string;

  it('refuses the creation past the hourly cap with the seconds until a place frees up, both kinds counted', async () => {
    const email = uniqueEmail();
    const { access_token } = await signUp(s, email);
    expect((await post(access_token, '/api/v1/backtests', backtest)).statusCode).toBe(202);
    await s.app.backtestService.idle();
    s.clock.advance(10 * 60_000);
    expect((await post(access_token, '/api/v1/backtests', backtest)).statusCode).toBe(202);
    await s.app.backtestService.idle();
    const opt = await post(access_token, '/api/v1/optimisations', optimisation);
    expect(opt.statusCode, opt.body).toBe(202);
    await s.app.optimisationService.idle();

    const refused = await post(access_token, '/api/v1/backtests', backtest);
    expect(refused.statusCode).toBe(429);
    // The first of the three leaves the hour 50 minutes from now
    expect(refused.headers['retry-after']).toBe(String(50 * 60));
    expect(refused.json()).toMatchObject({ code: 'JOB_QUOTA_EXCEEDED' });
    expect(refused.json().detail).toBe(
      'Too many backtests and optimisations: 3 an hour is the limit per user. The next one can start in 3000 seconds.',
    );
    expect((await post(access_token, '/api/v1/optimisations', optimisation)).statusCode).toBe(429);

    // Another user is not held back by it
    const other = await signUp(s);
    expect((await post(other.access_token, '/api/v1/backtests', backtest)).statusCode).toBe(202);
    await s.app.backtestService.idle();

    s.clock.advance(50 * 60_000 + 1);
    expect((await post(await signIn(email), '/api/v1/backtests', backtest)).statusCode).toBe(202);
    await s.app.backtestService.idle();
  });

  it('refuses a job while the user already has the most queued or running; 20 parallel asks create at most that', async () => {
    const email = uniqueEmail();
    const { access_token, user } = await signUp(s, email);
    // Two runs another instance holds (leased far ahead): they count as waiting and nobody here takes them
    for (let i = 0; i < 2; i += 1) {
      const res = await post(access_token, '/api/v1/backtests', {
        ...backtest,
        endTime: backtest.endTime - i * 60_000,
      });
      expect(res.statusCode).toBe(202);
      await s.database.db.query(
        `UPDATE backtests SET status = 'running', lease_owner = 'another-instance',
           lease_expires_at = '2100-01-01', finished_at = NULL, result = NULL WHERE id = $1`,
        [res.json().data.id],
      );
    }
    s.clock.advance(HOUR); // out of the hourly window: only the waiting cap speaks
    const token = await signIn(email);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(token, '/api/v1/backtests', backtest)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(429));
    const refused = answers[0];
    expect(refused?.headers['retry-after']).toBe('15');
    expect(refused?.json().detail).toBe(
      'Too many backtests and optimisations waiting: at most 2 may be queued or running at once per user. Wait for one to finish, or cancel one.',
    );
    const [{ n } = { n: -1 }] = await s.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM backtests WHERE user_id = $1',
      [user.id],
    );
    expect(n).toBe(2);
  });

  it('counts parallel creations one after the other: of 10 at once, no more are created than the caps allow', async () => {
    const { access_token, user } = await signUp(s);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(access_token, '/api/v1/backtests', backtest)),
    );
    const created = answers.filter((a) => a.statusCode === 202).length;
    const [{ n } = { n: -1 }] = await s.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM backtests WHERE user_id = $1',
      [user.id],
    );
    expect(n).toBe(created);
    expect(created).toBeLessThanOrEqual(2);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(10 - created);
    await s.app.backtestService.idle();
  });
});
