import { describe, expect, it } from 'vitest';
import type { IncomeEntry } from './exchange-adapter';
import { INCOME_PAGE_LIMIT, readIncome } from './income-pages';

const keys = { apiKey: 'k', secretKey: 's' };
const entry = (tranId: number, time: number): IncomeEntry => ({
  symbol: 'BTCUSDT',
  incomeType: 'COMMISSION',
  income: '-0.1',
  asset: 'USDT',
  info: '',
  time,
  tranId: String(tranId),
  tradeId: '',
});

/** Binance's paging rules over a stored list: oldest first from startTime (inclusive) to endTime, at most `limit` */
function exchange(rows: IncomeEntry[]) {
  const calls: { startTime?: number; endTime?: number }[] = [];
  return {
    calls,
    async income(_k: unknown, range: { startTime?: number; endTime?: number; limit: number }) {
      calls.push({ startTime: range.startTime, endTime: range.endTime });
      return rows
        .filter(
          (r) => r.time >= (range.startTime ?? 0) && r.time <= (range.endTime ?? Number.MAX_SAFE_INTEGER),
        )
        .slice(0, range.limit);
    },
  };
}

describe('readIncome', () => {
  it('pages forward from the last entry’s millisecond, keeping each entry once', async () => {
    // 2500 entries, ten per millisecond: page boundaries fall inside a millisecond
    const rows = Array.from({ length: 2500 }, (_, i) => entry(i + 1, 1000 + Math.floor(i / 10)));
    const ex = exchange(rows);
    const read = await readIncome(ex, keys, { from: 0, to: 10_000 });
    expect(read.complete).toBe(true);
    expect(read.entries.map((e) => e.tranId)).toEqual(rows.map((e) => e.tranId));
    expect(ex.calls.map((c) => c.startTime)).toEqual([0, 1099, 1198]);
  });

  it('a full page inside one millisecond moves on instead of asking the same page forever', async () => {
    const rows = [...Array.from({ length: INCOME_PAGE_LIMIT }, (_, i) => entry(i + 1, 5)), entry(5000, 6)];
    const read = await readIncome(exchange(rows), keys, { from: 5, to: 10 });
    expect(read.complete).toBe(true);
    expect(read.entries).toHaveLength(INCOME_PAGE_LIMIT + 1);
  });

  it('stops at the page budget and says so', async () => {
    const rows = Array.from({ length: 3500 }, (_, i) => entry(i + 1, i));
    const read = await readIncome(exchange(rows), keys, { from: 0, to: 10_000 }, 2);
    expect(read.complete).toBe(false);
    expect(read.entries.at(-1)?.time).toBe(1998);
  });
});
