import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnalyticsQuerySchema, AnalyticsResponseSchema } from './analytics';

const sums = { realizedPnl: '12.5', commission: '-0.1', fundingFee: '0', other: '0', net: '12.4' };

describe('analytics contract', () => {
  it('the range: times in ms, from not after to', () => {
    expect(AnalyticsQuerySchema.parse({ from: '0', to: '10' })).toEqual({ from: 0, to: 10 });
    expect(AnalyticsQuerySchema.safeParse({ from: '20', to: '10' }).error?.issues[0]?.message).toBe(
      'from must not be after to',
    );
  });

  it('ratios carry exactly 4 decimals; the answer survives the trip from server to browser', () => {
    const answer = {
      success: true as const,
      message: 'Account analytics',
      data: {
        from: 0,
        to: 1,
        bucketMs: 60_000,
        equity: [{ time: 0, equity: '1000', equityLow: '990', drawdown: '10', drawdownRatio: '0.0100' }],
        maxDrawdown: { amount: '10', ratio: '0.0100' },
        daily: [{ day: 0, ...sums, startEquity: '1000', return: '0.0124' }],
        symbols: [{ symbol: 'BTCUSDT', ...sums, closingFills: 1, wins: 1, winRate: '1.0000' }],
        bots: [
          {
            botId: '00000000-0000-4000-8000-000000000001',
            name: 'Grid',
            symbol: 'BTCUSDT',
            mode: 'paper' as const,
            fills: 2,
            realizedPnl: '12.5',
            commission: '-0.1',
            net: '12.4',
            closingFills: 1,
            wins: 1,
            winRate: '1.0000',
          },
        ],
        totals: {
          ...sums,
          closingFills: 1,
          wins: 1,
          winRate: '1.0000',
          transfers: '1000',
          grossProfit: '12.5',
          grossLoss: '0',
          profitFactor: null,
        },
        ratios: { sharpe: null, sortino: null, days: 1 },
        syncedTo: null,
      },
    };
    const trip = JSON.parse(JSON.stringify(z.encode(AnalyticsResponseSchema, answer)));
    expect(AnalyticsResponseSchema.parse(trip)).toEqual(answer);
    const badRatio = structuredClone(answer);
    badRatio.data.totals.winRate = '1';
    expect(AnalyticsResponseSchema.safeParse(badRatio).success).toBe(false);
  });
});
