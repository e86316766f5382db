import { ErrorResponseSchema } from '@kestrel/contracts';
import {
  OptimisationDetailResponseSchema,
  OptimisationNoticeSchema,
  OptimisationResultsResponseSchema,
  OptimisationSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import {
  barsFromKlines,
  expandGrid,
  getBuiltInStrategy,
  type KlineRow,
  OVERFITTING_GATES,
  rankResults,
  runCombos,
} from '@kestrel/engine';
import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp, startTestServer, type TestServer } from './helper';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

const NOW = Date.UTC(2026, 0, 15, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

// Worker threads load the engine through tsx: a second or two per job on a busy machine
describe('optimisation jobs against the simulator', { timeout: 60_000 }, () => {
  let t: TestServer;
  let token: string;
  let otherToken: string;

  beforeAll(async () => {
    t = await startTestServer({
      simulator: { clock: new ManualClock(NOW), historyDays: 3, symbols: ['BTCUSDT'] },
    });
    token = (await signUp(t)).access_token;
    otherToken = (await signUp(t)).access_token;
  });
  afterAll(() => t?.close());

  const post = (path: string, payload?: object, auth = token) =>
    t.request({ method: 'POST', url: path, headers: bearer(auth), ...(payload ? { payload } : {}) });
  const get = (path: string, auth = token) => t.request({ method: 'GET', url: path, headers: bearer(auth) });
  const detail = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json()).detail;

  /** One day of 1m bars (1,440: one kline page), funding off so the engine can be rerun on the raw bars alone */
  const request = (overrides: Record<string, unknown> = {}) => ({
    strategy: 'ema-cross',
    params: { side: 'both' },
    symbol: 'BTCUSDT',
    interval: '1m',
    startTime: NOW - 2 * DAY,
    endTime: NOW - DAY,
    costs: { funding: false },
    space: { fast: { from: 4, to: 10, step: 3 }, slow: { values: [20, 40] } },
    objective: 'totalReturn',
    ...overrides,
  });

  async function finished(id: string) {
    await t.app.optimisationService.idle();
    return OptimisationDetailResponseSchema.parse((await get(`/api/v1/optimisations/${id}`)).json()).data;
  }

  it('documents every optimisation route in the OpenAPI document', async () => {
    const paths = (
      (await t.request({ method: 'GET', url: '/api/docs/json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      }
    ).paths;
    expect(Object.keys(paths['/api/v1/optimisations/'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/optimisations/{id}'] ?? {}).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/api/v1/optimisations/{id}/results'] ?? {})).toEqual(['get']);
    expect(Object.keys(paths['/api/v1/optimisations/{id}/cancel'] ?? {})).toEqual(['post']);
  });

  it('refuses bad input with the field named, storing nothing', async () => {
    const refusal = async (body: object) => {
      const res = await post('/api/v1/optimisations', body);
      expect(res.statusCode).toBe(400);
      return detail(res);
    };
    expect(await refusal(request({ space: { fast: { values: [] } } }))).toBe(
      'Invalid request: body.space.fast.values: values must list at least one value',
    );
    expect(await refusal(request({ space: { fast: { from: 2, to: 9, step: 0 } } }))).toBe(
      'Invalid request: body.space.fast.step: step must be greater than 0',
    );
    expect(await refusal(request({ space: { fast: { from: 9, to: 2, step: 1 } } }))).toBe(
      'Invalid request: body.space.fast.to: to must be at least from (the range is empty)',
    );
    expect(
      await refusal(
        request({ space: { fast: { from: 2, to: 201, step: 1 }, slow: { from: 3, to: 103, step: 1 } } }),
      ),
    ).toBe('Invalid request: body.space: space has 20200 combinations; at most 20000 are allowed');
    expect(await refusal(request({ space: { speed: { values: [1] } } }))).toMatch(
      /^Invalid optimisation: space\.speed: EMA .* has no parameter speed; it has fast, slow/,
    );
    expect(await refusal(request({ space: { fast: { values: [30] }, slow: { values: [20] } } }))).toBe(
      'Invalid optimisation: space: the strategy refuses every combination (ema-cross params: fast: fast must be below slow)',
    );
    expect(await refusal(request({ walkForward: { trainMs: DAY, testMs: HOUR } }))).toBe(
      'Invalid optimisation: walkForward.trainMs: a train window of 1440 bars plus a test window of 60 bars is ' +
        'longer than the range (1440 1m bars)',
    );
    expect(await refusal(request({ symbol: 'NOPEUSDT' }))).toBe(
      'Invalid optimisation: symbol: NOPEUSDT is not listed on the exchange',
    );
    const list = (await get('/api/v1/optimisations')).json() as { data: unknown[] };
    expect(list.data).toEqual([]);
  });

  it('fails a range without data, saying which bars are missing', async () => {
    const created = OptimisationSummaryResponseSchema.parse(
      (
        await post('/api/v1/optimisations', request({ startTime: NOW - 20 * DAY, endTime: NOW - 19 * DAY }))
      ).json(),
    ).data;
    const job = await finished(created.id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^The exchange has no BTCUSDT 1m bars between 2025-12-26T12:00:00.000Z/);
  });

  it('stores every combination with the engine’s own metrics, the best one and the statistics', async () => {
    const base = await listenWs(t);
    const socket = await TestSocket.open(wsUrl(base, token));
    try {
      await socket.request('tools/list');
      const res = await post('/api/v1/optimisations', request());
      expect(res.statusCode).toBe(202);
      const created = OptimisationSummaryResponseSchema.parse(res.json()).data;
      expect(created).toMatchObject({ status: 'queued', combinations: 6, objective: 'totalReturn' });
      await socket.next(
        (f) =>
          f.method === 'notifications/optimisation' &&
          (f.params as { status?: string }).status === 'completed',
      );
      const statuses = socket.frames
        .filter((f) => f.method === 'notifications/optimisation')
        .map((f) => OptimisationNoticeSchema.parse(f.params).status);
      expect(statuses[0]).toBe('queued');
      expect(statuses).toContain('running');
    } finally {
      await socket.close();
    }
    const list = (await get('/api/v1/optimisations')).json() as { data: { id: string }[] };
    const id = list.data[0]?.id as string;
    const job = await finished(id);
    expect(job).toMatchObject({
      status: 'completed',
      progress: 1,
      error: null,
      parameters: ['fast', 'slow'],
    });

    // The engine on the same bars, straight from the exchange
    const span = `symbol=BTCUSDT&startTime=${NOW - 2 * DAY}&endTime=${NOW - DAY - 1}&interval=1m&limit=1500`;
    const raw = (await (await fetch(`${t.simUrl}/fapi/v1/klines?${span}`)).json()) as KlineRow[];
    expect(raw).toHaveLength(1_440);
    const combos = expandGrid({ side: 'both' }, { fast: [4, 7, 10], slow: [20, 40] });
    const direct = runCombos(getBuiltInStrategy('ema-cross'), combos, barsFromKlines(raw, '1m'), {
      broker: {
        initialBalance: 10_000,
        leverage: 3,
        marginMode: 'cross',
        makerFee: 0.0002,
        takerFee: 0.0005,
        slippageBps: 1,
        fundingRate: 0,
        tickSize: 0.1,
        stepSize: 0.001,
        minNotional: 100,
      },
    });
    const rows = OptimisationResultsResponseSchema.parse(
      (await get(`/api/v1/optimisations/${id}/results`)).json(),
    ).data;
    expect(rows.map((r) => r.params)).toEqual(combos.map((c) => expect.objectContaining(c)));
    expect(rows.map((r) => r.metrics)).toEqual(direct.map((r) => r.metrics));
    const best = rankResults(direct, 'totalReturn')[0];
    expect(job.best?.params).toMatchObject(best?.params ?? {});
    expect(job.best?.metrics).toEqual(best?.metrics);

    const stats = job.stats;
    expect(stats).toMatchObject({ trials: 6, refused: 0, gates: OVERFITTING_GATES });
    // A day of 1m bars: returns every 22 bars, 65 periods
    expect(stats?.periodMs).toBe(22 * 60_000);
    expect(stats?.periods).toBe(65);
    expect(stats?.pbo?.partitions).toBeGreaterThanOrEqual(4);
    expect(stats?.randomEntry.samples).toBe(200);
    expect(stats?.dsr).toBeGreaterThanOrEqual(0);
    expect(stats?.dsr).toBeLessThanOrEqual(1);
  });

  it('runs a walk-forward over the same grid: folds and the stitched test curve against buy-and-hold', async () => {
    const created = OptimisationSummaryResponseSchema.parse(
      (
        await post('/api/v1/optimisations', request({ walkForward: { trainMs: 6 * HOUR, testMs: 3 * HOUR } }))
      ).json(),
    ).data;
    expect(created.walkForward).toBe(true);
    const job = await finished(created.id);
    expect(job.status).toBe('completed');
    const wf = job.walkForwardResult;
    // 24 h: train 6 h, then 3 h tests moving by 3 h: 6 folds
    expect(wf?.folds).toHaveLength(6);
    expect(wf?.folds[0]).toMatchObject({ trainStart: NOW - 2 * DAY, testStart: NOW - 2 * DAY + 6 * HOUR });
    expect(wf?.folds.at(-1)?.testEnd).toBe(NOW - DAY);
    expect(wf?.stitched).toHaveLength(18 * 60);
    expect(wf?.stitched.at(-1)?.time).toBe(NOW - DAY);
    expect(wf?.stitched.at(-1)?.equity).toBeCloseTo(1 + (wf?.outOfSampleReturn ?? 0), 12);
    expect(wf?.stitched.at(-1)?.buyAndHold).toBeCloseTo(1 + (wf?.buyAndHoldReturn ?? 0), 12);
  });

  it('cancels a running job and frees its workers within a second; keeps jobs private', async () => {
    // 3 days of 1m bars and 10,000 combinations: several seconds even on an idle machine (1,600 could finish
    // between the progress poll and the cancel on a fast one), far longer than the test waits
    const created = OptimisationSummaryResponseSchema.parse(
      (
        await post(
          '/api/v1/optimisations',
          request({
            startTime: NOW - 3 * DAY,
            endTime: NOW - HOUR,
            space: { fast: { from: 2, to: 101, step: 1 }, slow: { from: 110, to: 209, step: 1 } },
          }),
        )
      ).json(),
    ).data;
    expect(created.combinations).toBe(10_000);
    expect((await get(`/api/v1/optimisations/${created.id}`, otherToken)).statusCode).toBe(404);
    expect((await post(`/api/v1/optimisations/${created.id}/cancel`, undefined, otherToken)).statusCode).toBe(
      404,
    );
    // Wait until the sweep has made progress (workers started and running)
    for (;;) {
      const job = OptimisationDetailResponseSchema.parse(
        (await get(`/api/v1/optimisations/${created.id}`)).json(),
      );
      if (job.data.progress > 0.25) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const del = await t.request({
      method: 'DELETE',
      url: `/api/v1/optimisations/${created.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(409);
    const at = performance.now();
    const canceled = await post(`/api/v1/optimisations/${created.id}/cancel`);
    expect(OptimisationSummaryResponseSchema.parse(canceled.json()).data.status).toBe('canceled');
    await t.app.optimisationService.idle();
    expect(performance.now() - at).toBeLessThan(1_000);
    expect(t.app.optimisationService.runner.runningIds).toEqual([]);
    const job = await finished(created.id);
    expect(job).toMatchObject({ status: 'canceled', stats: null, best: null, error: 'Canceled by the user' });
    expect(
      OptimisationResultsResponseSchema.parse(
        (await get(`/api/v1/optimisations/${created.id}/results`)).json(),
      ).data,
    ).toEqual([]);
    const again = await post(`/api/v1/optimisations/${created.id}/cancel`);
    expect(again.statusCode).toBe(409);
    const gone = await t.request({
      method: 'DELETE',
      url: `/api/v1/optimisations/${created.id}`,
      headers: bearer(token),
    });
    expect(gone.statusCode).toBe(200);
  });
});
