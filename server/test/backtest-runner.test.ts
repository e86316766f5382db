import Fastify from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backtestRepository } from '../src/trading/backtest/backtest-repository';
import { LEASE_MS, LEASE_RENEW_MS } from '../src/trading/jobs/job-runner';
import { insertQueuedBacktest, runnerWithEndlessWork, useJobDatabase } from './backtest-helper';
import { TestClock } from './helper';

const T0 = Date.UTC(2026, 0, 15, 12);

/** Polls with the real setTimeout (only setInterval is faked here) */
async function until(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// The runner's own timer: leases renewed every LEASE_RENEW_MS (not sooner), and a run canceled behind its back
// (a lost cancel notification) stopped at the next renewal
describe('backtest runner timing', () => {
  const tdb = useJobDatabase(new Date(T0));
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const queue = () => insertQueuedBacktest(tdb.db, tdb.userId, 'EMA crossover', new Date(T0));
  const lease = async (id: string) => {
    const [row] = await tdb.db.query<{ lease_expires_at: Date | null; status: string }>(
      'SELECT lease_expires_at, status FROM backtests WHERE id = $1',
      [id],
    );
    return row;
  };

  it('renews its lease every 10 s and stops a run that was canceled behind its back', async () => {
    const clock = new TestClock(T0);
    const { runner, stopped } = runnerWithEndlessWork({
      db: tdb.db,
      clock,
      log: Fastify({ logger: false }).log,
      channel: 'kestrel_backtest_timing_test',
    });
    const id = await queue();
    await runner.start();
    await until(async () => runner.runningIds.includes(id));
    expect((await lease(id))?.lease_expires_at?.getTime()).toBe(T0 + LEASE_MS);

    clock.advance(LEASE_RENEW_MS);
    await vi.advanceTimersByTimeAsync(LEASE_RENEW_MS - 1);
    expect((await lease(id))?.lease_expires_at?.getTime()).toBe(T0 + LEASE_MS);
    await vi.advanceTimersByTimeAsync(1);
    await until(
      async () => (await lease(id))?.lease_expires_at?.getTime() === T0 + LEASE_RENEW_MS + LEASE_MS,
    );

    // Canceled without a notification reaching this runner: its next renewal misses and stops the work
    await backtestRepository.cancel(tdb.db, id, 'Canceled by the user', clock.now());
    clock.advance(LEASE_RENEW_MS);
    expect(stopped()).toBe(false);
    await vi.advanceTimersByTimeAsync(LEASE_RENEW_MS);
    await until(async () => stopped());
    await runner.idle();
    expect(runner.runningIds).toEqual([]);
    expect((await lease(id))?.status).toBe('canceled');
    await runner.close();
  });
});
