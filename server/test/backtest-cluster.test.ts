import { randomUUID } from 'node:crypto';
import { BacktestNoticeSchema } from '@kestrel/contracts';
import { BacktestSummaryResponseSchema } from '@kestrel/contracts/backtest';
import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { channelFor } from '../src/core/socket/socket-bus';
import { generateMasterKey, type Keyring, makeKeyring } from '../src/lib/crypto/master-key';
import type { Database } from '../src/lib/database/database';
import { migrate } from '../src/lib/database/migrate';
import { openPostgresDatabase } from '../src/lib/database/postgres-database';
import { backtestRepository } from '../src/trading/backtest/backtest-repository';
import { LEASE_MS } from '../src/trading/jobs/job-runner';
import { insertQueuedBacktest, insertUser, runnerWithEndlessWork } from './backtest-helper';
import {
  bearer,
  buildTestApp,
  type Driver,
  openTestDatabase,
  postgresUrl,
  signUp,
  type TestApp,
  TestClock,
  type TestDatabase,
} from './helper';
import { RecordingAdapter } from './recording-adapter';
import { listenWs, TestSocket, wsUrl } from './socket-helper';

const NOW = Date.UTC(2026, 0, 15, 12);
const HOUR = 3_600_000;
const MINUTE = 60_000;

const pgUrl = await postgresUrl();

/**
 * Two server instances sharing one database: on PostgreSQL each with its own pool and LISTEN connection (as two
 * processes would be), on PGlite two apps on the one embedded database (PGlite is one process)
 */
describe.each<Driver>(['pglite', 'postgres'])('backtest queue shared by two instances on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUrl)('', () => {
    let tdb: TestDatabase;
    let dbB: Database;
    let a: TestApp;
    let b: TestApp;
    let adapterA: RecordingAdapter;
    let adapterB: RecordingAdapter;
    let sim: SimServer;
    let url: string;
    let token: string;
    let userId: string;
    let keyring: Keyring;
    const sockets: TestSocket[] = [];

    beforeAll(async () => {
      sim = new SimServer({ clock: new ManualClock(NOW), historyDays: 5, symbols: ['BTCUSDT'] });
      ({ url } = await sim.listen(0));
      tdb = await openTestDatabase(driver);
      if (driver === 'postgres') {
        const [row] = await tdb.db.query<{ schema: string }>('SELECT current_schema() AS schema');
        dbB = await openPostgresDatabase({
          connectionString: pgUrl as string,
          schema: row?.schema as string,
          max: 4,
        });
      } else {
        dbB = tdb.db;
      }
      // One vault keyring (and with it one token keyring, see buildTestApp), as a deployment shares its keys: a token
      // from one instance works on the other
      keyring = makeKeyring([generateMasterKey()]);
      const env = { KESTREL_EXCHANGE_BASE_URL: url };
      adapterA = new RecordingAdapter({ restUrl: url });
      adapterB = new RecordingAdapter({ restUrl: url });
      a = await buildTestApp(tdb.db, { keyring, exchangeAdapter: adapterA }, env);
      b = await buildTestApp(dbB, { keyring, exchangeAdapter: adapterB }, env);
      const user = await signUp(a);
      token = user.access_token;
      userId = user.user.id;
    });
    afterAll(async () => {
      await Promise.all(sockets.map((s) => s.close()));
      await a?.app.close();
      await b?.app.close();
      if (driver === 'postgres') await dbB?.close();
      await tdb?.cleanup();
      await sim?.close();
    });

    /** 2 h of 1m bars ending `hoursAgo` hours before the simulator's now */
    const request = (hoursAgo: number, hours = 2) => ({
      strategy: 'ema-cross',
      params: { fast: 5, slow: 20 },
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: NOW - (hoursAgo + hours) * HOUR,
      endTime: NOW - hoursAgo * HOUR,
    });
    const create = async (on: TestApp, body: object) => {
      const res = await on.request({
        method: 'POST',
        url: '/api/v1/backtests',
        headers: bearer(token),
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(202);
      return BacktestSummaryResponseSchema.parse(res.json()).data;
    };
    const rows = (ids: string[]) =>
      tdb.db.query<{
        id: string;
        status: string;
        attempts: number;
        lease_owner: string | null;
        progress: number;
      }>('SELECT id, status, attempts, lease_owner, progress FROM backtests WHERE id = ANY($1::uuid[])', [
        ids,
      ]);
    const bothIdle = () => Promise.all([a.app.backtestService.idle(), b.app.backtestService.idle()]);

    it('drains one queue with both instances, each run claimed once', async () => {
      // Posted on A only: B hears of them through NOTIFY (its poll is 10 s away) and takes its share
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await create(a, request(10 + 2 * i))).id);
      await vi.waitFor(
        async () => expect((await rows(ids)).every((r) => r.status === 'completed')).toBe(true),
        { timeout: 60_000, interval: 50 },
      );
      await bothIdle();
      const done = await rows(ids);
      expect(done.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
      const owners = new Set(done.map((r) => r.lease_owner));
      expect(owners).toEqual(
        new Set([a.app.backtestService.runner.owner, b.app.backtestService.runner.owner]),
      );
    });

    it('stops the run on the instance running it when the other one is asked to cancel, and pushes reach both', async () => {
      const baseA = await listenWs(a);
      const baseB = await listenWs(b);
      const onA = await TestSocket.open(wsUrl(baseA, token, 'client-a'));
      const onB = await TestSocket.open(wsUrl(baseB, token, 'client-b'));
      sockets.push(onA, onB);
      await onA.request('tools/list');
      await onB.request('tools/list');
      // 1800 bars not cached yet: two pages. The first is held 1.5 s by the exchange, so the run is surely still
      // fetching when canceled; a run that was not stopped would go on to ask for the second page
      sim.faults.add({
        kind: 'latency',
        path: '/fapi/v1/klines',
        phase: 'before',
        ms: 1500,
        remaining: 1,
      });
      const callsBefore = { a: adapterA.klineCalls.length, b: adapterB.klineCalls.length };
      const fundingBefore = { a: adapterA.fundingCalls, b: adapterB.fundingCalls };
      const run = await create(a, {
        ...request(0),
        startTime: NOW - 4 * 24 * HOUR,
        endTime: NOW - 4 * 24 * HOUR + 1800 * MINUTE,
      });
      // Running in the row and in the runner of the instance holding it (the claim's answer may lag the commit)
      let owner: string | null = null;
      await vi.waitFor(async () => {
        const [row] = await rows([run.id]);
        expect(row?.status).toBe('running');
        owner = row?.lease_owner ?? null;
        const holder = owner === a.app.backtestService.runner.owner ? a : b;
        expect(holder.app.backtestService.runner.runningIds).toEqual([run.id]);
      });
      const runsOnA = owner === a.app.backtestService.runner.owner;
      const [runner, other] = runsOnA ? [a, b] : [b, a];
      const runnerAdapter = runsOnA ? adapterA : adapterB;

      const canceled = await other.request({
        method: 'POST',
        url: `/api/v1/backtests/${run.id}/cancel`,
        headers: bearer(token),
      });
      expect(canceled.statusCode).toBe(200);
      await bothIdle();
      expect(runner.app.backtestService.runner.runningIds).toEqual([]);
      // Only the held first page was asked for; no second page, no funding rates
      const calls = runnerAdapter.klineCalls.length - (runsOnA ? callsBefore.a : callsBefore.b);
      expect(calls).toBe(1);
      expect(runnerAdapter.fundingCalls).toBe(runsOnA ? fundingBefore.a : fundingBefore.b);
      expect((await rows([run.id]))[0]?.status).toBe('canceled');
      // The held page's progress report comes after the cancel: it must neither be stored nor pushed (a late
      // "running" push brought the run back to running on the page)
      const progressBefore = (await rows([run.id]))[0]?.progress;
      expect(await backtestRepository.setProgress(tdb.db, run.id, String(owner), 0.5)).toBe(false);
      expect((await rows([run.id]))[0]?.progress).toBe(progressBefore);

      // The owner's sockets on both instances heard the run start (pushed by the instance running it) and end
      for (const socket of [onA, onB]) {
        const statuses = async () => {
          const notices = socket.frames
            .filter((f) => f.method === 'notifications/backtest')
            .map((f) => BacktestNoticeSchema.parse(f.params))
            .filter((n) => n.backtestId === run.id);
          return notices.map((n) => n.status);
        };
        await vi.waitFor(async () => expect(await statuses()).toContain('canceled'));
        expect(await statuses()).toContain('running');
      }
    });

    it('takes back the run of an instance that died, after its lease, and the dead one cannot write it any more', async () => {
      const template = await create(a, request(30));
      await vi.waitFor(async () => expect((await rows([template.id]))[0]?.status).toBe('completed'), {
        timeout: 30_000,
      });
      await bothIdle();
      // A third instance that claims a run and then stops answering: the real runner, whose work never ends
      // until stopped, and whose heartbeat is never called again (a frozen or killed process)
      const deadClock = new TestClock(b.clock.now().getTime());
      const { runner: dead, stopped: stoppedByLeaseLoss } = runnerWithEndlessWork({
        db: tdb.db,
        clock: deadClock,
        log: a.app.log,
        channel: await channelFor(tdb.db, 'kestrel_backtest'),
      });
      // A queued copy of the finished run, inserted without a wake-up so that the dead instance claims it
      const id = randomUUID();
      await tdb.db.query(
        `INSERT INTO backtests (id, user_id, strategy, strategy_name, symbol, interval, start_time, end_time,
           exchange_env, request, settings, status, created_at)
         SELECT $2, user_id, strategy, strategy_name, symbol, interval, start_time, end_time, exchange_env, request,
           settings, 'queued', created_at FROM backtests WHERE id = $1`,
        [template.id, id],
      );
      await dead.tick();
      await vi.waitFor(() => expect(dead.runningIds).toEqual([id]));
      expect((await rows([id]))[0]).toMatchObject({
        status: 'running',
        lease_owner: dead.owner,
        attempts: 1,
      });

      // B looks while the lease holds: nothing happens
      b.clock.advance(LEASE_MS);
      await b.app.backtestService.runner.tick();
      await bothIdle();
      expect((await rows([id]))[0]).toMatchObject({ status: 'running', lease_owner: dead.owner });

      // The lease has run out: B takes the run back and runs it to the end
      b.clock.advance(1);
      await b.app.backtestService.runner.tick();
      await vi.waitFor(async () => expect((await rows([id]))[0]?.status).toBe('completed'), {
        timeout: 30_000,
      });
      await bothIdle();
      expect((await rows([id]))[0]).toMatchObject({
        attempts: 2,
        lease_owner: b.app.backtestService.runner.owner,
      });

      // Should the dead instance wake up, its next heartbeat finds the run gone and stops its work
      expect(stoppedByLeaseLoss()).toBe(false);
      await dead.heartbeat();
      await dead.idle();
      expect(stoppedByLeaseLoss()).toBe(true);
      expect((await rows([id]))[0]?.status).toBe('completed');
      await dead.close();
      // A's clock catches up with B's, so later leases compare on one time
      a.clock.advance(LEASE_MS + 1);
    });

    it('hands its running runs back to the queue when an instance shuts down, so the other one finishes them', async () => {
      const extra = await buildTestApp(
        tdb.db,
        { keyring, exchangeAdapter: new RecordingAdapter({ restUrl: url }) },
        { KESTREL_EXCHANGE_BASE_URL: url },
      );
      // The instances' clocks agree (leases compare times written by one instance with another's clock)
      extra.clock.advance(b.clock.now().getTime() - extra.clock.now().getTime());
      let closed = false;
      try {
        sim.faults.add({
          kind: 'latency',
          path: '/fapi/v1/klines',
          phase: 'before',
          ms: 1000,
          remaining: 1,
        });
        // Created on the idle new instance: it claims the run itself
        const run = await create(extra, request(0, 1));
        const stopping = extra.app.backtestService.runner.owner;
        await vi.waitFor(async () =>
          expect((await rows([run.id]))[0]).toMatchObject({ status: 'running', lease_owner: stopping }),
        );
        await extra.app.close();
        closed = true;
        await vi.waitFor(async () => expect((await rows([run.id]))[0]?.status).toBe('completed'), {
          timeout: 30_000,
        });
        const [done] = await rows([run.id]);
        // Finished by one of the others, and the shutdown did not count as an attempt
        expect(done?.lease_owner).not.toBe(stopping);
        expect(done?.attempts).toBe(1);
      } finally {
        if (!closed) await extra.app.close();
        await bothIdle();
      }
    });

    it('keeps the runs private to their owner whichever instance serves the request', async () => {
      const other = await signUp(b);
      const [mine] = (
        await tdb.db.query<{ id: string }>('SELECT id FROM backtests WHERE user_id = $1 LIMIT 1', [userId])
      ).map((r) => r.id);
      const res = await b.request({
        method: 'GET',
        url: `/api/v1/backtests/${mine}`,
        headers: bearer(other.access_token),
      });
      expect(res.statusCode).toBe(404);
    });
  });
});

/** The claim order alone, on a bare migrated database (no instance running to take the rows first) */
describe.each<Driver>(['pglite', 'postgres'])('claiming queued backtests on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUrl)('', () => {
    let tdb: TestDatabase;
    beforeAll(async () => {
      tdb = await openTestDatabase(driver);
      await migrate(tdb.db);
    });
    afterAll(async () => {
      await tdb?.cleanup();
    });

    it('takes the oldest run first, but a user with a run going waits behind users with none', async () => {
      const at = new Date(NOW);
      const user = () => insertUser(tdb.db, at);
      const queue = (owner: string, name: string) => insertQueuedBacktest(tdb.db, owner, name, at);
      const x = await user();
      const y = await user();
      const names = new Map<string, string>();
      for (const [owner, name] of [
        [x, 'x1'],
        [x, 'x2'],
        [x, 'x3'],
        [y, 'y1'],
      ] as const)
        names.set(await queue(owner, name), name);
      const lease = new Date(NOW + LEASE_MS);
      const order: string[] = [];
      for (let i = 0; i < 5; i++) {
        const claimed = await backtestRepository.claim(tdb.db, `instance-${i}`, at, lease);
        order.push(claimed ? (names.get(claimed.id) ?? '?') : 'none');
      }
      // x1 first (oldest); then y1, although queued after x2 and x3, because x already has a run going
      expect(order).toEqual(['x1', 'y1', 'x2', 'x3', 'none']);
    });
  });
});
