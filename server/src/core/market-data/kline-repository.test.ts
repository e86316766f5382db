import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../lib/database/migrate';
import { openTestDatabase, type TestDatabase } from '../../testing';
import { type KlineSeriesKey, klineRepository as repo } from './kline-repository';

const key: KlineSeriesKey = { env: 'simulator', symbol: 'BTCUSDT', interval: '1m' };
const bar = (openTime: number, close: string) => ({
  openTime,
  open: '1.5',
  high: '2',
  low: '1',
  close,
  volume: '10',
});

describe('klineRepository on PGlite', () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await openTestDatabase('pglite');
    await migrate(tdb.db);
  });
  afterAll(() => tdb?.cleanup());

  it('reads the bars of [start, end) oldest first, keeps a stored bar, and keeps series apart', async () => {
    await repo.insertBars(tdb.db, key, [bar(180_000, '4'), bar(60_000, '2'), bar(120_000, '3')]);
    await repo.insertBars(tdb.db, key, [bar(120_000, '999')]);
    await repo.insertBars(tdb.db, { ...key, env: 'mainnet' }, [bar(60_000, '7')]);

    const bars = await repo.readBars(tdb.db, key, { start: 60_000, end: 180_000 });
    expect(bars).toEqual({
      openTime: [60_000, 120_000],
      open: [1.5, 1.5],
      high: [2, 2],
      low: [1, 1],
      close: [2, 3],
      volume: [10, 10],
    });
    expect((await repo.readBars(tdb.db, key, { start: 0, end: 60_000 })).openTime).toEqual([]);
  });

  it('merges touching and overlapping covered spans into one, leaving separate ones apart', async () => {
    const series = { ...key, symbol: 'SOLUSDT' };
    await repo.addCoverage(tdb.db, series, { start: 0, end: 100 });
    await repo.addCoverage(tdb.db, series, { start: 300, end: 400 });
    await repo.addCoverage(tdb.db, series, { start: 100, end: 150 });
    await repo.addCoverage(tdb.db, series, { start: 120, end: 200 });
    // An empty span records nothing
    await repo.addCoverage(tdb.db, series, { start: 250, end: 250 });

    expect(await repo.coverage(tdb.db, series, { start: 0, end: 1000 })).toEqual([
      { start: 0, end: 200 },
      { start: 300, end: 400 },
    ]);
    // Only the spans overlapping the asked range
    expect(await repo.coverage(tdb.db, series, { start: 200, end: 300 })).toEqual([]);
    expect(await repo.coverage(tdb.db, series, { start: 199, end: 301 })).toEqual([
      { start: 0, end: 200 },
      { start: 300, end: 400 },
    ]);
  });
});
