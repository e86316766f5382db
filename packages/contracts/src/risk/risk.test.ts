import { describe, expect, it } from 'vitest';
import { RiskLimitsFormSchema, RiskLimitsSchema } from './risk';

const empty = { maxLeverage: '', dailyLossLimit: '', maxDrawdownPercent: '', maxPositionNotional: '' };

describe('risk limits', () => {
  it('the form reads empty fields as no limit and numbers as limits', () => {
    expect(RiskLimitsFormSchema.parse({ ...empty, maxLeverage: ' 5 ', dailyLossLimit: '250.5' })).toEqual({
      maxLeverage: 5,
      dailyLossLimit: 250.5,
      maxDrawdownPercent: null,
      maxPositionNotional: null,
    });
  });

  it('the form and the API refuse the same values with the same words', () => {
    const messages = (input: unknown, schema: typeof RiskLimitsSchema | typeof RiskLimitsFormSchema) => {
      const r = schema.safeParse(input);
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(messages({ ...empty, maxLeverage: '200' }, RiskLimitsFormSchema)).toEqual([
      'maxLeverage: Max leverage must be between 1 and 125',
    ]);
    expect(
      messages(
        { maxLeverage: 200, dailyLossLimit: null, maxDrawdownPercent: null, maxPositionNotional: null },
        RiskLimitsSchema,
      ),
    ).toEqual(['maxLeverage: Max leverage must be between 1 and 125']);
    expect(messages({ ...empty, dailyLossLimit: 'ten' }, RiskLimitsFormSchema)).toEqual([
      'dailyLossLimit: Daily loss limit must be a number (or empty for no limit)',
    ]);
    expect(messages({ ...empty, maxDrawdownPercent: '0' }, RiskLimitsFormSchema)).toEqual([
      'maxDrawdownPercent: Max drawdown must be between 0.01 and 100',
    ]);
    expect(messages({ ...empty, maxPositionNotional: '-1' }, RiskLimitsFormSchema)).toEqual([
      'maxPositionNotional: Max position notional must be greater than 0',
    ]);
  });
});
