import { describe, expect, it } from 'vitest';
import type { FundingRate } from '../../core/exchange/exchange-adapter';
import { FUNDING_PAGE_LIMIT, fundingHistory } from './funding-history';

const H8 = 8 * 3_600_000;

/** An exchange answering like Binance: funding every 8 h, stamped a few ms late, pages from startTime */
function exchange(first: number, count: number) {
  const all: FundingRate[] = Array.from({ length: count }, (_, i) => ({
    symbol: 'BTCUSDT',
    fundingTime: first + i * H8 + (i % 3),
    fundingRate: (0.0001 * (i + 1)).toFixed(8),
  }));
  const calls: { startTime: number; endTime: number }[] = [];
  return {
    calls,
    async fundingRateHistory(_symbol: string, r: { startTime: number; endTime: number; limit: number }) {
      calls.push({ startTime: r.startTime, endTime: r.endTime });
      return all.filter((f) => f.fundingTime >= r.startTime && f.fundingTime <= r.endTime).slice(0, r.limit);
    },
  };
}

describe('fundingHistory', () => {
  it('pages through the history and floors the times to the minute', async () => {
    const ex = exchange(0, 1500);
    const rates = await fundingHistory(ex, 'BTCUSDT', { start: H8, end: 1400 * H8 });
    expect(rates.time).toHaveLength(1399);
    expect(rates.time[0]).toBe(H8);
    expect(rates.time[1]).toBe(2 * H8);
    expect(rates.rate[0]).toBeCloseTo(0.0002, 12);
    expect(ex.calls).toHaveLength(2);
    expect(ex.calls[1]?.startTime).toBe((FUNDING_PAGE_LIMIT as number) * H8 + 1 + (FUNDING_PAGE_LIMIT % 3));
  });

  it('is empty where the exchange has no funding', async () => {
    expect(await fundingHistory(exchange(100 * H8, 5), 'BTCUSDT', { start: 0, end: 10 * H8 })).toEqual({
      time: [],
      rate: [],
    });
  });
});
