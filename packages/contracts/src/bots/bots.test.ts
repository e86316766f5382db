import { describe, expect, it } from 'vitest';
import { BotRiskLimitsSchema, CreateBotRequestSchema, UpdateBotRequestSchema } from './bots';

const valid = {
  name: ' Grid on BTC ',
  strategy: 'grid',
  symbol: 'btcusdt',
  interval: '1m',
  leverage: 3,
  budget: 500,
  mode: 'paper',
};

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('CreateBotRequestSchema', () => {
  it('trims the name, upper-cases the symbol and fills empty params and limits', () => {
    const bot = CreateBotRequestSchema.parse(valid);
    expect(bot.name).toBe('Grid on BTC');
    expect(bot.symbol).toBe('BTCUSDT');
    expect(bot.params).toEqual({});
    expect(bot.riskLimits).toEqual({ maxNotional: null, dailyLossLimit: null, maxDrawdownPercent: null });
  });

  it('names the rule a bad field breaks', () => {
    expect(firstMessage(CreateBotRequestSchema.safeParse({ ...valid, leverage: 126 }))).toBe(
      'leverage must be at most 125',
    );
    expect(firstMessage(CreateBotRequestSchema.safeParse({ ...valid, leverage: 2.5 }))).toBe(
      'leverage must be a whole number',
    );
    expect(firstMessage(CreateBotRequestSchema.safeParse({ ...valid, budget: 5 }))).toBe(
      'budget must be at least 10 USDT',
    );
    expect(firstMessage(CreateBotRequestSchema.safeParse({ ...valid, mode: 'real' }))).toBe(
      'mode must be paper or live',
    );
    expect(firstMessage(CreateBotRequestSchema.safeParse({ ...valid, name: '   ' }))).toBe(
      'name is required',
    );
  });

  it('refuses fields it does not know, so a typo is not silently dropped', () => {
    expect(CreateBotRequestSchema.safeParse({ ...valid, levrage: 3 }).success).toBe(false);
  });

  it('bounds the bot risk limits and reads null as no limit', () => {
    expect(BotRiskLimitsSchema.parse({ maxNotional: null })).toMatchObject({ maxNotional: null });
    expect(firstMessage(BotRiskLimitsSchema.safeParse({ maxDrawdownPercent: 150 }))).toBe(
      'Max drawdown must be between 0.01 and 100',
    );
  });
});

describe('UpdateBotRequestSchema', () => {
  it('takes any subset of the fields', () => {
    expect(UpdateBotRequestSchema.parse({ budget: 800 })).toEqual({ budget: 800 });
  });
});

describe('UpdateBotRequestSchema keeps what is left out', () => {
  it('changes one limit without touching the others', () => {
    expect(UpdateBotRequestSchema.parse({ riskLimits: { maxNotional: 1000 } })).toEqual({
      riskLimits: { maxNotional: 1000 },
    });
  });
});
