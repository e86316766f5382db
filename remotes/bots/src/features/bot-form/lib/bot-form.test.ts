import { describe, expect, it } from 'vitest';
import { serverRefusal } from './bot-form';

describe('serverRefusal', () => {
  const keys = ['lower', 'upper', 'gridCount'];

  it('puts a refusal of the request schema under its field, on its step', () => {
    expect(serverRefusal('Invalid request: body.budget: budget must be at least 10 USDT', keys)).toEqual({
      field: 'budget',
      text: 'body.budget: budget must be at least 10 USDT',
      step: 'budget',
    });
    expect(
      serverRefusal(
        'Invalid request: body.riskLimits.maxDrawdownPercent: Max drawdown must be between 0.01 and 100',
        keys,
      ),
    ).toMatchObject({ field: 'riskLimits.maxDrawdownPercent', step: 'budget' });
  });

  it("puts the bot service's refusals under theirs, a strategy's parameter only if the strategy has it", () => {
    expect(serverRefusal('Invalid bot: symbol: ZZZUSDT is not listed on the exchange', keys)).toEqual({
      field: 'symbol',
      text: 'symbol: ZZZUSDT is not listed on the exchange',
      step: 'market',
    });
    expect(serverRefusal('Invalid bot: params: gridCount must be at most 300', keys)).toMatchObject({
      field: 'params.gridCount',
      step: 'params',
    });
    expect(serverRefusal('Invalid bot: params: Invalid input', keys)).toEqual({
      field: null,
      text: 'params: Invalid input',
      step: 'params',
    });
  });

  it('leaves a refusal naming no field for the review step, in full', () => {
    expect(serverRefusal('You have 50 bots, the most one user may keep: delete one first', keys)).toEqual({
      field: null,
      text: 'You have 50 bots, the most one user may keep: delete one first',
      step: 'review',
    });
  });
});
