import {
  EquityHistoryResponseSchema,
  ErrorResponseSchema,
  IncomePageResponseSchema,
} from '@kestrel/contracts';
import { ManualClock } from '@kestrel/exchange-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinanceUsdmAdapter } from '../src/core/exchange/binance-adapter';
import {
  type AccountSnapshot,
  ExchangeApiError,
  type ExchangeKeys,
} from '../src/core/exchange/exchange-adapter';
import { AccountRecorder, backoffMs, INCOME_SYNC_MS } from '../src/core/recorder/account-recorder';
import { recorderRepository } from '../src/core/recorder/recorder-repository';
import type { Database } from '../src/lib/database/database';
import { openPostgresDatabase } from '../src/lib/database/postgres-database';
import {
  bearer,
  buildTestApp,
  type Driver,
  postgresUrl,
  SIM_START,
  signUp,
  startTestServer,
  storeKeys,
  type TestApp,
  type TestServer,
  useTestServer,
} from './helper';

const MINUTE = 60_000;
const pgUrl = await postgresUrl();

/** The real adapter, except that the account of one API key is refused as Binance refuses an unknown key */
class RefusingKey extends BinanceUsdmAdapter {
  refused = new Set<string>();
  accountCalls: string[] = [];
  incomeCalls = 0;
  override async income(...args: Parameters<BinanceUsdmAdapter['income']>) {
    this.incomeCalls += 1;
    return super.income(...args);
  }
  override async account(keys: ExchangeKeys): Promise<AccountSnapshot> {
    this.accountCalls.push(keys.apiKey);
    if (this.refused.has(keys.apiKey)) {
      throw new ExchangeApiError(401, -2015, 'Invalid API-key, IP, or permissions for action.');
    }
    return super.account(keys);
  }
}

/**
 * The account recorder on the real app, database and simulator: snapshots each minute of the test clock, income
 * imported once and kept up to date, a second instance on the same database adding nothing
 */
describe.each<Driver>(['pglite', 'postgres'])('account recorder on %s', (driver) => {
  describe.skipIf(driver === 'postgres' && !pgUrl)('', () => {
    let t: TestServer;
    let second: TestApp;
    let secondDb: Database | undefined;
    let adapter: RefusingKey;
    let secondAdapter: RefusingKey;
    let token: string;
    let userId: string;
    let apiKey: string;
    // The exchange's clock moves with the apps': income is stamped with it
    const simClock = new ManualClock(SIM_START);

    beforeAll(async () => {
      t = await startTestServer({
        database: driver,
        simulator: { symbols: ['BTCUSDT', 'SOLUSDT'], clock: simClock },
        deps: (simUrl) => {
          adapter = new RefusingKey({ restUrl: simUrl });
          return { exchangeAdapter: adapter };
        },
      });
      const user = await t.connectedUser();
      token = user.auth.access_token;
      userId = user.auth.user.id;
      apiKey = user.keys.apiKey;
      // A second instance on the same database (PostgreSQL: its own pool, as another process would have)
      let db = t.database.db;
      if (driver === 'postgres') {
        const [row] = await t.database.db.query<{ schema: string }>('SELECT current_schema() AS schema');
        secondDb = await openPostgresDatabase({
          connectionString: pgUrl as string,
          schema: row?.schema as string,
          max: 2,
        });
        db = secondDb;
      }
      secondAdapter = new RefusingKey({ restUrl: t.simUrl });
      second = await buildTestApp(
        db,
        { keyring: t.keyring, exchangeAdapter: secondAdapter },
        { KESTREL_EXCHANGE_BASE_URL: t.simUrl },
      );
    });
    afterAll(async () => {
      await second?.app.close();
      await secondDb?.close();
      await t?.close();
    });

    const get = (path: string) => t.request({ method: 'GET', url: path, headers: bearer(token) });
    const equity = async (query = '') => {
      const res = await get(`/api/v1/dashboard/equity${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return EquityHistoryResponseSchema.parse(res.json()).data;
    };
    const income = async (query = '') => {
      const res = await get(`/api/v1/dashboard/income${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return IncomePageResponseSchema.parse(res.json()).data;
    };
    const count = async (table: string) => {
      const [row] = await t.database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`,
        [userId],
      );
      return Number(row?.n);
    };
    /** Both instances' clocks and the exchange's move together, as wall clocks do */
    const advance = (ms: number) => {
      t.clock.advance(ms);
      second.clock.advance(ms);
      simClock.advance(ms);
    };
    const simAccount = () => {
      const account = t.sim.exchange.accountByKey(apiKey);
      if (!account) throw new Error('the demo account is gone');
      return account;
    };

    it('records a snapshot of the account each minute of the clock, once per minute', async () => {
      await t.app.accountRecorder.tick();
      await t.app.accountRecorder.tick();
      expect(await count('equity_snapshots')).toBe(1);
      for (let i = 0; i < 3; i++) {
        advance(MINUTE);
        await t.app.accountRecorder.tick();
      }
      // Four minutes fit in 1000 buckets of one minute: every snapshot comes back
      const e = await equity(`?from=${SIM_START}&to=${SIM_START + 4 * MINUTE - 1}`);
      expect(e.bucketMs).toBe(MINUTE);
      expect(e.points.map((p) => p.time)).toEqual([0, 1, 2, 3].map((i) => SIM_START + i * MINUTE));
      const figures = t.sim.exchange.figures(simAccount());
      for (const p of e.points) {
        expect(Number(p.walletBalance)).toBe(figures.walletBalance.toNumber());
        expect(Number(p.marginBalance)).toBe(1000);
        expect(p.marginBalanceLow).toBe(p.marginBalance);
      }
    });

    it('imports the income history once, then only what is new; a restart adds no duplicates', async () => {
      // The deposit was imported by the first round
      const first = await income();
      expect(first.items.map((i) => i.incomeType)).toEqual(['TRANSFER']);
      expect(first.syncedTo).toBe(SIM_START);

      const trade = (side: 'BUY' | 'SELL', quantity: string) =>
        t.app.futuresService.placeOrder(
          { userId, environment: 'testnet' },
          { symbol: 'SOLUSDT', side, type: 'MARKET', quantity },
        );
      await trade('BUY', '2');
      await trade('SELL', '1');
      // Not due before INCOME_SYNC_MS: nothing new yet
      advance(MINUTE);
      await t.app.accountRecorder.tick();
      expect((await income()).total).toBe(1);
      advance(INCOME_SYNC_MS);
      await t.app.accountRecorder.tick();
      const booked = simAccount().income;
      const page = await income();
      expect(page.total).toBe(booked.length);
      expect(page.items.map((i) => i.tranId).sort()).toEqual(booked.map((i) => String(i.tranId)).sort());
      expect(new Set(page.items.map((i) => i.incomeType))).toEqual(
        new Set(['TRANSFER', 'COMMISSION', 'REALIZED_PNL']),
      );
      // Newest first; filtered by type; paged
      const times = page.items.map((i) => i.time);
      expect(times).toEqual([...times].sort((a, b) => b - a));
      const fees = await income('?type=commission&pageSize=1&page=2');
      expect(fees).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(fees.items.map((i) => i.incomeType)).toEqual(['COMMISSION']);
      // Sorted on another column: the largest amount first (the deposit)
      const largest = await income('?sort=income&order=desc&pageSize=1');
      expect(largest.items.map((i) => [i.incomeType, Number(i.income)])).toEqual([['TRANSFER', 1000]]);
      const ascending = await income('?sort=income&order=asc');
      const amounts = ascending.items.map((i) => Number(i.income));
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));

      // A restart: a new recorder on the same database, its import mark forgotten too
      await t.database.db.query('DELETE FROM income_sync WHERE user_id = $1', [userId]);
      const restarted = new AccountRecorder({
        db: t.database.db,
        repo: recorderRepository,
        credentials: t.app.credentialsService,
        exchange: t.app.exchangeAdapter,
        clock: t.clock,
        log: t.app.log,
      });
      await restarted.tick();
      await restarted.close();
      expect(await count('income_entries')).toBe(booked.length);
    });

    it('a second instance on the same database records nothing twice', async () => {
      /** A market sell of 1 SOL, then the time to the next income sync */
      const sellOneSol = async () => {
        await t.app.futuresService.placeOrder(
          { userId, environment: 'testnet' },
          { symbol: 'SOLUSDT', side: 'SELL', type: 'MARKET', quantity: '1' },
        );
        advance(INCOME_SYNC_MS);
      };
      const snapshots = await count('equity_snapshots');
      const entries = await count('income_entries');
      await sellOneSol();
      // One after the other: the second finds the minute recorded and the income synced, and asks the exchange
      // nothing
      await t.app.accountRecorder.tick();
      await second.app.accountRecorder.tick();
      expect(secondAdapter.accountCalls).toEqual([]);
      expect(secondAdapter.incomeCalls).toBe(0);
      expect(await count('equity_snapshots')).toBe(snapshots + 1);
      // The closing fill booked a commission and a realized PnL, each stored once
      expect(await count('income_entries')).toBe(entries + 2);

      // At the same moment: both may ask the exchange, the database keeps one copy
      await sellOneSol();
      await Promise.all([t.app.accountRecorder.tick(), second.app.accountRecorder.tick()]);
      expect(await count('equity_snapshots')).toBe(snapshots + 2);
      // Opening a short books a commission only (no realized PnL)
      expect(await count('income_entries')).toBe(entries + 3);
      expect(await count('income_entries')).toBe(simAccount().income.length);
    });

    it('a user whose keys fail is skipped, logged without secrets and retried with backoff', async () => {
      const other = await t.connectedUser();
      // Saving the keys checked them once with the exchange (issue 22): the recorder's tries come after that
      const savedWith = adapter.accountCalls.filter((k) => k === other.keys.apiKey).length;
      adapter.refused.add(other.keys.apiKey);
      advance(MINUTE);
      await t.app.accountRecorder.tick();
      // The healthy user was recorded this minute all the same
      const minute = t.clock.now().getTime();
      const [mine] = await t.database.db.query(
        'SELECT 1 FROM equity_snapshots WHERE user_id = $1 AND minute = $2',
        [userId, new Date(minute)],
      );
      expect(mine).toBeDefined();
      const failed = t.logs.filter((l) => l.includes('recording the account failed'));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toContain(other.auth.user.id);
      expect(failed[0]).toContain('Invalid API-key');
      for (const line of t.logs) {
        expect(line).not.toContain(other.keys.apiKey);
        expect(line).not.toContain(other.keys.secretKey);
      }
      const tries = () => adapter.accountCalls.filter((k) => k === other.keys.apiKey).length - savedWith;
      expect(tries()).toBe(1);
      // Not before the backoff has passed, then again (and twice as long after a second failure)
      advance(backoffMs(1) - 1);
      await t.app.accountRecorder.tick();
      expect(tries()).toBe(1);
      advance(1);
      await t.app.accountRecorder.tick();
      expect(tries()).toBe(2);
      expect(backoffMs(2)).toBe(2 * backoffMs(1));
      // Keys that work again are recorded at the next try
      adapter.refused.delete(other.keys.apiKey);
      advance(backoffMs(2));
      await t.app.accountRecorder.tick();
      const [theirs] = await t.database.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM equity_snapshots WHERE user_id = $1',
        [other.auth.user.id],
      );
      expect(Number(theirs?.n)).toBe(1);
    });
  });
});

describe('equity and income reads', () => {
  let token: string;
  let userId: string;

  const t = useTestServer();
  beforeAll(async () => {
    const user = await signUp(t);
    token = user.access_token;
    userId = user.user.id;
  });

  const get = (path: string) => t.request({ method: 'GET', url: path, headers: bearer(token) });

  it('a long range is downsampled to at most 1000 points that keep each bucket’s lowest margin balance', async () => {
    // Three days of minutes with one dip to 400 in the middle
    const from = SIM_START - 3 * 86_400_000;
    const dip = from + 1_000 * MINUTE;
    await t.database.db.query(
      `INSERT INTO equity_snapshots
         (user_id, environment, minute, taken_at, wallet_balance, unrealized_pnl, margin_balance,
          maintenance_margin)
       SELECT $1, 'testnet', m, m, 1000, 0, CASE WHEN m = $4 THEN 400 ELSE 1000 END, 0
         FROM generate_series($2::timestamptz, $3::timestamptz, interval '1 minute') AS m`,
      [userId, new Date(from), new Date(SIM_START - MINUTE), new Date(dip)],
    );
    const res = await get(`/api/v1/dashboard/equity?from=${from}&to=${SIM_START - 1}`);
    const e = EquityHistoryResponseSchema.parse(res.json()).data;
    expect(e.bucketMs).toBe(5 * MINUTE);
    expect(e.points).toHaveLength(864);
    expect(e.points.filter((p) => Number(p.marginBalanceLow) === 400)).toHaveLength(1);
    expect(e.points.every((p) => Number(p.marginBalance) === 1000)).toBe(true);
    // Each point is its bucket's last minute
    expect(e.points[0]?.time).toBe(from + 4 * MINUTE);
    // The default range is the 30 days up to now
    const all = EquityHistoryResponseSchema.parse((await get('/api/v1/dashboard/equity')).json()).data;
    expect(all.to - all.from).toBe(30 * 86_400_000);
    expect(all.points.length).toBeLessThanOrEqual(1000);
  });

  it('bad ranges and filters get a 400 naming the problem; no keys is no error (nothing recorded)', async () => {
    const bad = await get('/api/v1/dashboard/equity?from=10&to=5');
    expect(bad.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(bad.json()).detail).toMatch(/from must not be after to/);
    const size = await get('/api/v1/dashboard/income?pageSize=5000');
    expect(size.statusCode).toBe(400);
    expect(ErrorResponseSchema.parse(size.json()).detail).toMatch(/pageSize must be at most 1000/);
    const unknown = await get('/api/v1/dashboard/income?sortBy=time');
    expect(unknown.statusCode).toBe(400);
    const empty = IncomePageResponseSchema.parse((await get('/api/v1/dashboard/income')).json()).data;
    expect(empty).toMatchObject({ total: 0, items: [], syncedTo: null });
  });

  it('the recorder’s timer runs with KESTREL_ACCOUNT_RECORDER=on and stops on close', async () => {
    const on = await buildTestApp(
      t.database.db,
      { keyring: t.keyring },
      { KESTREL_EXCHANGE_BASE_URL: t.simUrl, KESTREL_ACCOUNT_RECORDER: 'on' },
    );
    const auth = await signUp(on);
    await storeKeys(on, auth.access_token, t.demoKeys());
    // The start round ran at onReady; the user connected after it: one explicit round, as the timer would
    await on.app.accountRecorder.tick();
    const [row] = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM equity_snapshots WHERE user_id = $1',
      [auth.user.id],
    );
    expect(Number(row?.n)).toBe(1);
    await on.app.close();
    // Closed: a round asked for afterwards does nothing
    on.clock.advance(MINUTE);
    await on.app.accountRecorder.tick();
    const [after] = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM equity_snapshots WHERE user_id = $1',
      [auth.user.id],
    );
    expect(Number(after?.n)).toBe(1);
  });
});
