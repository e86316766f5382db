import { BacktestNoticeSchema, ErrorResponseSchema } from '@kestrel/contracts';
import {
  BacktestCandlesResponseSchema,
  BacktestDetailResponseSchema,
  BacktestListResponseSchema,
  BacktestStrategiesResponseSchema,
  BacktestSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import {
  barsFromKlines,
  getBuiltInStrategy,
  type KlineRow,
  parseLeverageBrackets,
  runBacktest,
} from '@kestrel/engine';
import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BRACKETS_TTL_MS } from '../src/core/market-data/leverage-brackets';
import { LEASE_MS, MAX_ATTEMPTS } from '../src/trading/jobs/job-runner';
import {
  bearer,
  type Driver,
  PASSWORD,
  postgresUrl,
  signUp,
  startTestServer,
  type TestServer,
  uniqueEmail,
} from './helper';
import { RecordingAdapter } from './recording-adapter';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

const NOW = Date.UTC(2026, 0, 15, 12);
const HOUR = 3_600_000;
const MINUTE = 60_000;

const pgUp = (await postgresUrl()) !== undefined;

describe.each<Driver>(['pglite', 'postgres'])('backtest jobs on %s against the simulator', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUp)('', () => {
    let t: TestServer;
    let url: string;
    let adapter: RecordingAdapter;
    let token: string;
    let otherToken: string;

    beforeAll(async () => {
      t = await startTestServer({
        database: driver,
        simulator: { clock: new ManualClock(NOW), historyDays: 3, symbols: ['BTCUSDT'] },
        deps: (simUrl) => {
          adapter = new RecordingAdapter({ restUrl: simUrl });
          return { exchangeAdapter: adapter };
        },
      });
      url = t.simUrl;
      token = (await signUp(t)).access_token;
      otherToken = (await signUp(t)).access_token;
    });
    afterAll(() => t?.close());

    const post = (path: string, payload?: object, auth = token) =>
      t.request({ method: 'POST', url: path, headers: bearer(auth), ...(payload ? { payload } : {}) });
    const get = (path: string, auth = token) =>
      t.request({ method: 'GET', url: path, headers: bearer(auth) });
    const detail = (res: { json(): unknown }) => ErrorResponseSchema.parse(res.json()).detail;

    /** 2 h of 1m bars, 07:00 to 09:00 (the 08:00 funding inside): small, closed, inside the simulator's history */
    const request = (overrides: Record<string, unknown> = {}) => ({
      strategy: 'ema-cross',
      params: { fast: 5, slow: 20 },
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: NOW - 5 * HOUR,
      endTime: NOW - 3 * HOUR,
      ...overrides,
    });

    async function finished(id: string, auth = token) {
      await t.app.backtestService.idle();
      return BacktestDetailResponseSchema.parse((await get(`/api/v1/backtests/${id}`, auth)).json()).data;
    }

    it('lists the built-in strategies with their parameter schemas and defaults', async () => {
      const res = await get('/api/v1/backtests/strategies');
      expect(res.statusCode).toBe(200);
      const list = BacktestStrategiesResponseSchema.parse(res.json()).data;
      expect(list.map((s) => s.id).sort()).toEqual([
        'dca',
        'ema-cross',
        'grid',
        'ml-agent',
        'signal-rules',
        'webhook-signal',
      ]);
      // Only the webhook's strategy trades on outside signals: its backtest has no trade, the form says so
      expect(list.filter((s) => s.takesSignals).map((s) => s.id)).toEqual(['webhook-signal']);
      const ema = list.find((s) => s.id === 'ema-cross');
      expect(ema?.defaults).toMatchObject({ fast: 12, slow: 26 });
      expect(ema?.paramsJsonSchema).toMatchObject({ type: 'object' });
    });

    it('documents every backtest route in the OpenAPI document', async () => {
      const res = await t.request({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const paths = (res.json() as { paths: Record<string, Record<string, unknown>> }).paths;
      expect(Object.keys(paths['/api/v1/backtests/'] ?? {}).sort()).toEqual(['get', 'post']);
      expect(Object.keys(paths['/api/v1/backtests/strategies'] ?? {})).toEqual(['get']);
      expect(Object.keys(paths['/api/v1/backtests/{id}'] ?? {}).sort()).toEqual(['delete', 'get']);
      expect(Object.keys(paths['/api/v1/backtests/{id}/candles'] ?? {})).toEqual(['get']);
      expect(Object.keys(paths['/api/v1/backtests/{id}/cancel'] ?? {})).toEqual(['post']);
    });

    it('needs a signed-in user', async () => {
      expect((await t.request({ method: 'GET', url: '/api/v1/backtests' })).statusCode).toBe(401);
      expect(
        (await t.request({ method: 'POST', url: '/api/v1/backtests', payload: request() })).statusCode,
      ).toBe(401);
    });

    it('runs a job to completion with the metrics of the engine on the same bars, and caches the klines', async () => {
      const calls = adapter.klineCalls.length;
      const created = await post(
        '/api/v1/backtests',
        request({ costs: { initialBalance: '5000', slippageBps: 2 } }),
      );
      expect(created.statusCode).toBe(202);
      const summary = BacktestSummaryResponseSchema.parse(created.json()).data;
      expect(summary).toMatchObject({
        status: 'queued',
        strategy: 'ema-cross',
        strategyName: expect.any(String),
      });

      const run = await finished(summary.id);
      expect(run.status).toBe('completed');
      expect(run.progress).toBe(1);
      expect(run.error).toBeNull();
      expect(run.finishedAt).not.toBeNull();
      // This user has no exchange keys: the engine's default (BTCUSDT) table
      expect(run.bracketsSource).toBe('default');
      // 120 bars: one page from the exchange
      expect(adapter.klineCalls.length).toBe(calls + 1);

      // The same bars and funding rates straight from the exchange, and the engine run directly on them
      const span = `symbol=BTCUSDT&startTime=${NOW - 5 * HOUR}&endTime=${NOW - 3 * HOUR - 1}`;
      const raw = (await (
        await fetch(`${url}/fapi/v1/klines?${span}&interval=1m&limit=1500`)
      ).json()) as KlineRow[];
      expect(raw).toHaveLength(120);
      const funding = (await (await fetch(`${url}/fapi/v1/fundingRate?${span}`)).json()) as {
        fundingTime: number;
        fundingRate: string;
      }[];
      expect(funding.map((f) => f.fundingTime)).toEqual([NOW - 4 * HOUR]);
      const direct = runBacktest(
        getBuiltInStrategy('ema-cross'),
        { fast: 5, slow: 20 },
        barsFromKlines(raw, '1m'),
        {
          broker: {
            initialBalance: 5000,
            leverage: 3,
            marginMode: 'cross',
            makerFee: 0.0002,
            takerFee: 0.0005,
            slippageBps: 2,
            tickSize: 0.1,
            stepSize: 0.001,
            minNotional: 100,
          },
          fundingRates: {
            time: funding.map((f) => f.fundingTime),
            rate: funding.map((f) => Number(f.fundingRate)),
          },
        },
      );
      expect(run.metrics).toEqual({ ...direct.metrics, noTradeReason: null });
      expect(direct.metrics.tradeCount).toBeGreaterThan(0);
      // A position was open at 08:00, so the funding path is exercised (at the exchange's settled rate)
      expect(direct.metrics.fundingPaid).not.toBe(0);
      expect(run.trades).toHaveLength(direct.trades.length);
      expect(run.trades[0]).toMatchObject({
        id: 1,
        entryTime: direct.trades[0]?.entryTime,
        exitTime: direct.trades[0]?.exitTime,
        pnl: direct.trades[0]?.netPnl,
      });
      expect(run.markers).toHaveLength(2 * run.trades.length);
      expect(run.equity).toHaveLength(120);
      expect(run.equity.at(-1)?.equity).toBe(direct.metrics.finalEquity);
      expect(run.request.costs).toMatchObject({
        initialBalance: 5000,
        leverage: 3,
        slippageBps: 2,
        funding: true,
      });
      expect(run.request.params).toMatchObject({ fast: 5, slow: 20, side: 'both' });

      const candles = BacktestCandlesResponseSchema.parse(
        (await get(`/api/v1/backtests/${summary.id}/candles`)).json(),
      );
      expect(candles.data.interval).toBe('1m');
      expect(candles.data.candles.map((c) => c.close)).toEqual(raw.map((k) => Number(k[4])));

      // Same range again: no kline call at all
      const again = BacktestSummaryResponseSchema.parse(
        (await post('/api/v1/backtests', request())).json(),
      ).data;
      expect((await finished(again.id)).status).toBe('completed');
      expect(adapter.klineCalls.length).toBe(calls + 1);

      // A wider range: only the hour that is not cached yet is asked for
      const wider = BacktestSummaryResponseSchema.parse(
        (await post('/api/v1/backtests', request({ endTime: NOW - 2 * HOUR }))).json(),
      ).data;
      const widerRun = await finished(wider.id);
      expect(widerRun.metrics?.bars).toBe(180);
      expect(adapter.klineCalls.slice(calls + 1)).toEqual([
        { symbol: 'BTCUSDT', interval: '1m', startTime: NOW - 3 * HOUR, endTime: NOW - 2 * HOUR - 1 },
      ]);

      const list = BacktestListResponseSchema.parse((await get('/api/v1/backtests')).json()).data;
      expect(list.slice(0, 3).map((r) => r.id)).toEqual([wider.id, again.id, summary.id]);
      expect(list[2]?.metrics).toEqual({ ...direct.metrics, noTradeReason: null });
    });

    it.each(['grid', 'dca', 'signal-rules'])('runs %s with its default parameters', async (strategy) => {
      const created = await post('/api/v1/backtests', request({ strategy, params: {} }));
      expect(created.statusCode).toBe(202);
      const run = await finished(BacktestSummaryResponseSchema.parse(created.json()).data.id);
      expect(run.status).toBe('completed');
      expect(run.metrics?.bars).toBe(120);
      expect(run.trades).toHaveLength(run.metrics?.tradeCount ?? -1);
    });

    it('pages through the exchange 1500 bars at a time', async () => {
      const calls = adapter.klineCalls.length;
      // 1800 bars: a full page of 1500, then the remaining 300
      const created = await post(
        '/api/v1/backtests',
        request({ startTime: NOW - 2 * 24 * HOUR, endTime: NOW - 2 * 24 * HOUR + 1800 * MINUTE }),
      );
      const run = await finished(BacktestSummaryResponseSchema.parse(created.json()).data.id);
      expect(run.status).toBe('completed');
      expect(run.metrics?.bars).toBe(1800);
      const pages = adapter.klineCalls.slice(calls);
      expect(pages.map((p) => p.startTime)).toEqual([
        NOW - 2 * 24 * HOUR,
        NOW - 2 * 24 * HOUR + 1500 * MINUTE,
      ]);
    });

    it('keeps runs private: another user can neither read, cancel nor delete them', async () => {
      const created = BacktestSummaryResponseSchema.parse(
        (await post('/api/v1/backtests', request())).json(),
      ).data;
      await finished(created.id);
      for (const res of [
        await get(`/api/v1/backtests/${created.id}`, otherToken),
        await get(`/api/v1/backtests/${created.id}/candles`, otherToken),
        await post(`/api/v1/backtests/${created.id}/cancel`, undefined, otherToken),
        await t.request({
          method: 'DELETE',
          url: `/api/v1/backtests/${created.id}`,
          headers: bearer(otherToken),
        }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(detail(res)).toBe('No such backtest');
      }
      const theirs = BacktestListResponseSchema.parse(
        (await get('/api/v1/backtests', otherToken)).json(),
      ).data;
      expect(theirs.map((r) => r.id)).not.toContain(created.id);
      // The owner still has it, and can delete it once finished
      const del = await t.request({
        method: 'DELETE',
        url: `/api/v1/backtests/${created.id}`,
        headers: bearer(token),
      });
      expect(del.statusCode).toBe(200);
      expect((await get(`/api/v1/backtests/${created.id}`)).statusCode).toBe(404);
    });

    it('cancels a running run and a queued one; a run still going cannot be deleted', async () => {
      // The exchange holds the first run's kline request for a second, so it is surely running when canceled
      t.sim.faults.add({
        kind: 'latency',
        path: '/fapi/v1/klines',
        phase: 'before',
        ms: 1000,
        remaining: 1,
      });
      const first = BacktestSummaryResponseSchema.parse(
        (
          await post('/api/v1/backtests', request({ startTime: NOW - 70 * HOUR, endTime: NOW - 65 * HOUR }))
        ).json(),
      ).data;
      // One run at a time: the second waits queued
      const second = BacktestSummaryResponseSchema.parse(
        (
          await post('/api/v1/backtests', request({ startTime: NOW - 64 * HOUR, endTime: NOW - 62 * HOUR }))
        ).json(),
      ).data;
      await vi.waitFor(async () => {
        const run = BacktestDetailResponseSchema.parse(
          (await get(`/api/v1/backtests/${first.id}`)).json(),
        ).data;
        expect(run.status).toBe('running');
      });
      expect(
        BacktestDetailResponseSchema.parse((await get(`/api/v1/backtests/${second.id}`)).json()).data.status,
      ).toBe('queued');
      const del = await t.request({
        method: 'DELETE',
        url: `/api/v1/backtests/${first.id}`,
        headers: bearer(token),
      });
      expect(del.statusCode).toBe(409);
      expect(detail(del)).toBe('This backtest is running: cancel it before deleting it');

      const canceledRunning = await post(`/api/v1/backtests/${first.id}/cancel`);
      expect(canceledRunning.statusCode).toBe(200);
      expect(BacktestSummaryResponseSchema.parse(canceledRunning.json()).data).toMatchObject({
        status: 'canceled',
        error: 'Canceled by the user',
      });
      const canceledQueued = await post(`/api/v1/backtests/${second.id}/cancel`);
      expect(BacktestSummaryResponseSchema.parse(canceledQueued.json()).data.status).toBe('canceled');

      const firstRun = await finished(first.id);
      expect(firstRun).toMatchObject({ status: 'canceled', metrics: null, trades: [] });
      expect((await finished(second.id)).status).toBe('canceled');
      const again = await post(`/api/v1/backtests/${first.id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(detail(again)).toBe('This backtest has already been canceled; nothing to cancel');
      const deleted = await t.request({
        method: 'DELETE',
        url: `/api/v1/backtests/${first.id}`,
        headers: bearer(token),
      });
      expect(deleted.statusCode).toBe(200);
    });

    it.each([
      [
        { params: { fast: 30, slow: 20 } },
        'Invalid backtest: params: ema-cross params: fast: fast must be below slow',
      ],
      [
        { params: { fast: 'x' } },
        'Invalid backtest: params: ema-cross params: fast: Invalid input: expected number, received string',
      ],
      [
        { strategy: 'martingale' },
        'Invalid backtest: strategy: unknown strategy "martingale"; known: ema-cross, grid, dca, signal-rules',
      ],
      [{ interval: '7m' }, 'interval: interval must be one of'],
      [{ endTime: NOW - 6 * HOUR }, 'body.endTime: endTime must be after startTime'],
      [
        { startTime: NOW - 400 * 24 * HOUR, endTime: NOW - HOUR },
        'Invalid backtest: endTime: the range holds 575940 1m bars; a backtest takes at most 525600',
      ],
      [
        { startTime: NOW + HOUR, endTime: NOW + 2 * HOUR },
        'Invalid backtest: startTime: the range starts after the last closed bar (now)',
      ],
      [{ symbol: 'NOPEUSDT' }, 'Invalid backtest: symbol: NOPEUSDT is not listed on the exchange'],
      [{ costs: { initialBalance: 0 } }, 'body.costs.initialBalance: initialBalance must be greater than 0'],
      [{ costs: { leverage: 200 } }, 'body.costs.leverage: leverage must be at most 125'],
      [{ costs: { marginMode: 'portfolio' } }, 'body.costs.marginMode: marginMode must be cross or isolated'],
      [{ costs: { feeRate: 0.001 } }, 'body.costs: Unrecognized key: "feeRate"'],
    ])('answers %j with a 400 naming the field', async (overrides, message) => {
      const res = await post('/api/v1/backtests', request(overrides));
      expect(res.statusCode).toBe(400);
      expect(detail(res)).toContain(message);
    });

    it('takes back the runs of an instance that stopped once their lease ran out: run again, or failed after 3 claims', async () => {
      const service = t.app.backtestService;
      const a = BacktestSummaryResponseSchema.parse((await post('/api/v1/backtests', request())).json()).data;
      const b = BacktestSummaryResponseSchema.parse((await post('/api/v1/backtests', request())).json()).data;
      await service.idle();
      // As an instance killed mid-run leaves them: running, its lease renewed a moment ago, never to be renewed
      // again. `a` was claimed once, `b` already MAX_ATTEMPTS times (each of its instances died)
      const leaseEnd = new Date(t.clock.now().getTime() + LEASE_MS);
      for (const [id, attempts] of [
        [a.id, 1],
        [b.id, MAX_ATTEMPTS],
      ] as const) {
        await t.database.db.query(
          `UPDATE backtests SET status = 'running', metrics = NULL, result = NULL, finished_at = NULL,
             brackets_source = NULL, lease_owner = 'killed-instance', lease_expires_at = $2, attempts = $3
           WHERE id = $1`,
          [id, leaseEnd, attempts],
        );
      }
      const read = async (id: string) =>
        BacktestDetailResponseSchema.parse((await get(`/api/v1/backtests/${id}`)).json()).data;

      // The lease still holds: nobody touches the runs
      t.clock.advance(LEASE_MS);
      await service.runner.tick();
      await service.idle();
      expect((await read(a.id)).status).toBe('running');
      expect((await read(b.id)).status).toBe('running');

      // One millisecond later it has expired: `a` goes back to the queue and runs here, `b` fails
      t.clock.advance(1);
      await service.runner.tick();
      await service.idle();
      const rerun = await read(a.id);
      expect(rerun.status).toBe('completed');
      expect(rerun.metrics?.bars).toBe(120);
      expect(await read(b.id)).toMatchObject({
        status: 'failed',
        error: 'The server stopped while this run was in progress; start it again',
        metrics: null,
      });
      const rows = await t.database.db.query<{ id: string; attempts: number; lease_owner: string }>(
        'SELECT id, attempts, lease_owner FROM backtests WHERE id = ANY($1::uuid[])',
        [[a.id, b.id]],
      );
      expect(rows.find((r) => r.id === a.id)).toMatchObject({
        attempts: 2,
        lease_owner: service.runner.owner,
      });
      expect(rows.find((r) => r.id === b.id)).toMatchObject({ attempts: MAX_ATTEMPTS });
    });

    it('pushes status and progress to the owner over the live socket', async () => {
      const base = await listenWs(t);
      const socket = await TestSocket.open(wsUrl(base, token));
      const other = await TestSocket.open(wsUrl(base, otherToken, 'client-other'));
      try {
        // A first reply means the socket is registered for pushes
        await socket.request('tools/list');
        await other.request('tools/list');
        const created = BacktestSummaryResponseSchema.parse(
          (
            await post('/api/v1/backtests', request({ startTime: NOW - 60 * HOUR, endTime: NOW - 58 * HOUR }))
          ).json(),
        ).data;
        const done = await socket.next(
          (f) =>
            f.method === 'notifications/backtest' && (f.params as { status?: string }).status === 'completed',
        );
        expect(BacktestNoticeSchema.parse(done.params)).toMatchObject({
          backtestId: created.id,
          progress: 1,
        });
        const statuses = socket.frames
          .filter((f) => f.method === 'notifications/backtest')
          .map((f) => BacktestNoticeSchema.parse(f.params))
          .filter((n) => n.backtestId === created.id)
          .map((n) => n.status);
        expect(statuses[0]).toBe('queued');
        expect(statuses).toContain('running');
        await t.app.backtestService.idle();
        expect(other.frames.filter((f) => f.method === 'notifications/backtest')).toEqual([]);
      } finally {
        await socket.close();
        await other.close();
      }
    });

    it("uses the symbol's own leverage brackets when the owner has keys stored, read once an hour, else the default", async () => {
      const email = uniqueEmail('keyed');
      let keyed = (await signUp(t, email)).access_token;
      const account = (await (
        await fetch(`${url}/_sim/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ balances: { USDT: '1000' } }),
        })
      ).json()) as { apiKey: string; secretKey: string };
      const stored = await post(
        '/api/v1/credentials/binance',
        { api_key: account.apiKey, secret_key: account.secretKey },
        keyed,
      );
      expect(stored.statusCode).toBe(201);
      // 75x on 20 000: the simulator's BTCUSDT table allows 75x up to 3 M notional, the default table only up to
      // 250 k, so the strategy's 750 k entries are refused with the default table and go through with the real one
      const body = request({ costs: { leverage: 75, initialBalance: '20000' } });
      const run = async (auth: string) => {
        const created = BacktestSummaryResponseSchema.parse(
          (await post('/api/v1/backtests', body, auth)).json(),
        );
        return finished(created.data.id, auth);
      };
      const calls = adapter.bracketCalls;
      const withKeys = await run(keyed);
      const withoutKeys = await run(token);
      expect(withKeys).toMatchObject({ status: 'completed', bracketsSource: 'exchange' });
      expect(withoutKeys).toMatchObject({ status: 'completed', bracketsSource: 'default' });
      expect(adapter.bracketCalls).toBe(calls + 1);

      // The engine on the same bars with the simulator's own table gives the keyed run's figures
      const span = `symbol=BTCUSDT&startTime=${NOW - 5 * HOUR}&endTime=${NOW - 3 * HOUR - 1}`;
      const raw = (await (
        await fetch(`${url}/fapi/v1/klines?${span}&interval=1m&limit=1500`)
      ).json()) as KlineRow[];
      const funding = (await (await fetch(`${url}/fapi/v1/fundingRate?${span}`)).json()) as {
        fundingTime: number;
        fundingRate: string;
      }[];
      const brackets = parseLeverageBrackets(
        [{ symbol: 'BTCUSDT', brackets: t.sim.exchange.market('BTCUSDT').spec.brackets }],
        'BTCUSDT',
      );
      const engineRun = (withBrackets: boolean) =>
        runBacktest(getBuiltInStrategy('ema-cross'), withKeys.request.params, barsFromKlines(raw, '1m'), {
          broker: {
            initialBalance: 20000,
            leverage: 75,
            marginMode: 'cross',
            makerFee: 0.0002,
            takerFee: 0.0005,
            slippageBps: 1,
            tickSize: 0.1,
            stepSize: 0.001,
            minNotional: 100,
          },
          ...(withBrackets ? { brackets } : {}),
          fundingRates: {
            time: funding.map((f) => f.fundingTime),
            rate: funding.map((f) => Number(f.fundingRate)),
          },
        }).metrics;
      expect(withKeys.metrics).toEqual({ ...engineRun(true), noTradeReason: null });
      expect(withKeys.metrics?.tradeCount).toBeGreaterThan(0);
      expect(withoutKeys.metrics?.tradeCount).toBe(0);
      // …and the run says why, in the words of the exchange's rule that refused its orders
      expect(withoutKeys.metrics?.noTradeReason).toMatch(
        /^The exchange's rules rejected \d+ orders? and none filled: /,
      );
      expect(engineRun(false).tradeCount).toBe(0);

      // Within the hour the table is reused; after it, read again. A failed read falls back to the default table
      // (the run still completes) and logs no key
      await run(keyed);
      expect(adapter.bracketCalls).toBe(calls + 1);
      t.clock.advance(BRACKETS_TTL_MS);
      // (access tokens last 15 minutes: sign in again)
      const signin = await t.request({
        method: 'POST',
        url: '/api/v1/auth/signin',
        payload: { email, password: PASSWORD },
      });
      keyed = (signin.json() as { access_token: string }).access_token;
      t.sim.faults.add({
        kind: 'error',
        status: 500,
        method: 'GET',
        path: '/fapi/v1/leverageBracket',
        phase: 'before',
        remaining: 1,
      });
      expect(await run(keyed)).toMatchObject({ status: 'completed', bracketsSource: 'default' });
      expect(adapter.bracketCalls).toBe(calls + 2);
      expect(await run(keyed)).toMatchObject({ status: 'completed', bracketsSource: 'exchange' });
      expect(adapter.bracketCalls).toBe(calls + 3);
      const logs = t.logs.join('\n');
      expect(logs).toContain('leverage brackets not available from the exchange');
      expect(logs).not.toContain(account.apiKey);
      expect(logs).not.toContain(account.secretKey);
    });
  });
});
