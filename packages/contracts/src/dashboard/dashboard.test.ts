import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DashboardOverviewResponseSchema,
  EquityQuerySchema,
  IncomePageResponseSchema,
  IncomeQuerySchema,
} from './dashboard';

const messages = (r: { success: boolean; error?: z.ZodError }) => r.error?.issues.map((i) => i.message) ?? [];

describe('dashboard queries', () => {
  it('income: page 1 of 100 by default; type and symbol upper-cased; query strings coerced', () => {
    expect(IncomeQuerySchema.parse({})).toEqual({ sort: 'time', order: 'desc', page: 1, pageSize: 100 });
    expect(
      IncomeQuerySchema.parse({ from: '10', to: '20', type: 'funding_fee', symbol: 'btcusdt', page: '3' }),
    ).toEqual({
      from: 10,
      to: 20,
      type: 'FUNDING_FEE',
      symbol: 'BTCUSDT',
      sort: 'time',
      order: 'desc',
      page: 3,
      pageSize: 100,
    });
  });

  it('says what is wrong', () => {
    expect(messages(EquityQuerySchema.safeParse({ from: '20', to: '10' }))).toEqual([
      'from must not be after to',
    ]);
    expect(messages(EquityQuerySchema.safeParse({ from: 'yesterday' }))).toEqual([
      'from must be a time in ms since epoch',
    ]);
    expect(messages(IncomeQuerySchema.safeParse({ pageSize: '1001' }))).toEqual([
      'pageSize must be at most 1000',
    ]);
    expect(messages(IncomeQuerySchema.safeParse({ page: '0' }))).toEqual(['page must be at least 1']);
    expect(messages(IncomeQuerySchema.safeParse({ sort: 'amount' }))).toEqual([
      'sort must be one of time, income, incomeType, symbol',
    ]);
    expect(messages(IncomeQuerySchema.safeParse({ order: 'up' }))).toEqual(['order must be asc or desc']);
    expect(messages(IncomeQuerySchema.safeParse({ type: 'pnl!' }))[0]).toMatch(
      /^type must be an income type/,
    );
    // Strict: a misspelt parameter is refused rather than ignored
    expect(IncomeQuerySchema.safeParse({ types: 'COMMISSION' }).success).toBe(false);
  });

  it('answers survive the trip from server to browser', () => {
    const overview = {
      success: true as const,
      message: 'Account overview',
      data: {
        walletBalance: '1000.00000000',
        marginBalance: '1001.5',
        availableMargin: '900',
        unrealizedPnl: '1.5',
        initialMargin: '100',
        maintenanceMargin: '2',
        marginRatio: '0.0020',
        today: { from: 0, to: 1, realizedPnl: '0', commission: '-0.1', fundingFee: '0', net: '-0.1' },
        openPositions: 1,
        openOrders: 0,
        activeBots: 0,
        asOf: 1,
      },
    };
    const trip = <S extends z.ZodType>(schema: S, v: z.output<S>) =>
      schema.parse(JSON.parse(JSON.stringify(z.encode(schema, v))));
    expect(trip(DashboardOverviewResponseSchema, overview)).toEqual(overview);
    const income = {
      success: true as const,
      message: 'Income history',
      data: {
        from: 0,
        to: 1,
        page: 1,
        pageSize: 100,
        total: 1,
        syncedTo: null,
        items: [
          {
            tranId: '9689322392',
            incomeType: 'TRANSFER',
            symbol: '',
            income: '-0.375',
            asset: 'USDT',
            info: 'TRANSFER',
            tradeId: '',
            time: 1570608000000,
          },
        ],
      },
    };
    expect(trip(IncomePageResponseSchema, income)).toEqual(income);
  });
});
