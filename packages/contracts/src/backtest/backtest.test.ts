import { describe, expect, it } from 'vitest';
import { BacktestIdParamsSchema, BacktestRequestSchema } from './backtest';

const request = {
  strategy: 'ema-cross',
  symbol: 'btcusdt',
  interval: '1h',
  startTime: 1_700_000_000_000,
  endTime: 1_700_360_000_000,
};
const messages = (input: unknown) =>
  BacktestRequestSchema.safeParse(input).error?.issues.map((i) => i.message);

describe('BacktestRequestSchema (POST /api/v1/backtests)', () => {
  it("fills Binance's regular-tier costs and empty params when the form sends none", () => {
    expect(BacktestRequestSchema.parse(request)).toEqual({
      ...request,
      symbol: 'BTCUSDT',
      params: {},
      costs: {
        initialBalance: 10_000,
        marginMode: 'cross',
        makerFeeRate: 0.0002,
        takerFeeRate: 0.0005,
        slippageBps: 1,
        funding: true,
      },
    });
  });

  it('leaves leverage out so the strategy’s own leverage applies', () => {
    expect(BacktestRequestSchema.parse(request).costs).not.toHaveProperty('leverage');
  });

  it('reads the numbers a form sends as strings', () => {
    const costs = { initialBalance: ' 2500.5 ', makerFeeRate: '-0.0001', slippageBps: '0' };
    expect(BacktestRequestSchema.parse({ ...request, costs }).costs).toMatchObject({
      initialBalance: 2500.5,
      makerFeeRate: -0.0001,
      slippageBps: 0,
    });
    expect(messages({ ...request, costs: { initialBalance: 'ten' } })).toEqual([
      'initialBalance must be a number',
    ]);
  });

  it('names the bound a cost is outside of', () => {
    expect(messages({ ...request, costs: { initialBalance: 0 } })).toEqual([
      'initialBalance must be greater than 0',
    ]);
    expect(messages({ ...request, costs: { takerFeeRate: 0.02 } })).toEqual([
      'takerFeeRate must be at most 0.01',
    ]);
    expect(messages({ ...request, costs: { leverage: 126 } })).toEqual(['leverage must be at most 125']);
    expect(messages({ ...request, costs: { marginMode: 'portfolio' } })).toEqual([
      'marginMode must be cross or isolated',
    ]);
  });

  it('wants the end of the range after its start', () => {
    const result = BacktestRequestSchema.safeParse({ ...request, endTime: request.startTime });
    expect(result.error?.issues).toMatchObject([
      { path: ['endTime'], message: 'endTime must be after startTime' },
    ]);
  });

  it('says what a time is when given something else', () => {
    expect(messages({ ...request, startTime: '2024-01-01' })).toEqual([
      'startTime must be a time in milliseconds since 1970',
    ]);
    expect(messages({ ...request, startTime: -1 })).toEqual(['startTime must not be before 1970']);
  });

  it('refuses an unknown cost (a typo would otherwise be ignored silently)', () => {
    const result = BacktestRequestSchema.safeParse({ ...request, costs: { makerFee: 0.0002 } });
    expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['makerFee'] });
  });
});

describe('BacktestIdParamsSchema', () => {
  it('says an id is a UUID', () => {
    expect(BacktestIdParamsSchema.safeParse({ id: '42' }).error?.issues[0]?.message).toBe(
      'id must be a backtest id (a UUID)',
    );
  });
});
