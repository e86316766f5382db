import { BacktestDetailResponseSchema, BacktestSummaryResponseSchema } from '@kestrel/contracts/backtest';
import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, signUp, startTestServer, type TestServer } from '../helper';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 15, 12);

/**
 * Issue "Hardening", item 7: a backtest's Cancel used to wait for the kline page in flight. With a slow exchange
 * (pages can take up to the 10 s client timeout) the canceled run kept the instance's only backtest slot that
 * long, and the user's next run waited behind it. The page's request is now aborted with the run.
 */
describe('canceling a backtest while a kline page is on its way', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer({
      simulator: { clock: new ManualClock(NOW), historyDays: 3, symbols: ['BTCUSDT'] },
    });
    token = (await signUp(t)).access_token;
  });
  afterAll(() => t?.close());

  const post = (url: string, payload?: object) =>
    t.request({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const status = async (id: string) =>
    BacktestDetailResponseSchema.parse(
      (await t.request({ method: 'GET', url: `/api/v1/backtests/${id}`, headers: bearer(token) })).json(),
    ).data.status;
  const create = async (startTime: number, endTime: number) =>
    BacktestSummaryResponseSchema.parse(
      (
        await post('/api/v1/backtests', {
          strategy: 'ema-cross',
          params: { fast: 5, slow: 20 },
          symbol: 'BTCUSDT',
          interval: '1m',
          startTime,
          endTime,
        })
      ).json(),
    ).data;

  it('frees the slot within a second: the next run starts and completes without waiting for the page', async () => {
    // The exchange holds the first run's page for 8 s
    t.sim.faults.add({ kind: 'latency', path: '/fapi/v1/klines', phase: 'before', ms: 8000, remaining: 1 });
    const first = await create(NOW - 70 * HOUR, NOW - 65 * HOUR);
    const second = await create(NOW - 64 * HOUR, NOW - 62 * HOUR);
    await vi.waitFor(async () => expect(await status(first.id)).toBe('running'), { timeout: 5000 });
    expect(await status(second.id)).toBe('queued');

    const canceledAt = Date.now();
    expect((await post(`/api/v1/backtests/${first.id}/cancel`)).statusCode).toBe(200);
    await vi.waitFor(async () => expect(await status(second.id)).not.toBe('queued'), {
      timeout: 7000,
      interval: 50,
    });
    const startedAfterMs = Date.now() - canceledAt;
    expect(startedAfterMs).toBeLessThan(1000);
    await vi.waitFor(async () => expect(await status(second.id)).toBe('completed'), { timeout: 20_000 });
    expect(await status(first.id)).toBe('canceled');
  }, 40_000);
});
