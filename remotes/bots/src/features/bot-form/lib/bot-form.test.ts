import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths';
import {
  AGENT_DEFAULT_MAX_DRAWDOWN_PERCENT,
  botFormSchema,
  defaultBotValues,
  prefilledBotValues,
  prefillOf,
  SIGNALS_LIVE_ONLY,
  serverRefusal,
} from './bot-form';

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

describe('a new bot prefilled from an address (an optimisation combination)', () => {
  const base = defaultBotValues(
    { id: 'ema-cross', name: 'EMA crossover', defaults: { fast: 12, slow: 26 } },
    () => ({
      fast: 12,
      slow: 26,
    }),
  );

  it('reads symbol, interval and params from the address and puts them over the defaults, leverage included', () => {
    const search = new URLSearchParams(
      paths.createBot
        .getHref({
          strategy: 'ema-cross',
          symbol: 'ETHUSDT',
          interval: '15m',
          params: { fast: 8, slow: 40, leverage: 5 },
        })
        .split('?')[1],
    );
    const prefill = prefillOf(search);
    expect(prefill).toEqual({
      symbol: 'ETHUSDT',
      interval: '15m',
      params: { fast: 8, slow: 40, leverage: 5 },
    });
    const values = prefilledBotValues(base, prefill, (p) => ({ ...p }), 'EMA crossover');
    expect(values).toMatchObject({
      name: 'EMA crossover ETHUSDT',
      strategy: 'ema-cross',
      symbol: 'ETHUSDT',
      interval: '15m',
      leverage: 5,
      params: { fast: 8, slow: 40, leverage: 5 },
      mode: 'paper',
    });
  });

  it('ignores parts that do not read right, and leaves the defaults without a prefill', () => {
    expect(prefillOf(new URLSearchParams('symbol=btc usdt!&interval=7m&params=[1,2]'))).toEqual({});
    expect(prefillOf(new URLSearchParams('params={oops'))).toEqual({});
    expect(prefilledBotValues(base, {}, () => ({}), 'EMA crossover')).toBe(base);
  });
});

describe('a new bot’s limits', () => {
  it('gives an AI agent a drawdown limit of its own (its breach latches the agent); other bots start without', () => {
    const agent = defaultBotValues({ id: 'ml-agent', name: 'AI agent', defaults: {} }, () => ({}));
    expect(agent.riskLimits).toEqual({
      maxNotional: null,
      dailyLossLimit: null,
      maxDrawdownPercent: AGENT_DEFAULT_MAX_DRAWDOWN_PERCENT,
    });
    const grid = defaultBotValues({ id: 'grid', name: 'Grid', defaults: {} }, () => ({}));
    expect(grid.riskLimits.maxDrawdownPercent).toBeNull();
  });
});

describe('a bot that trades on signals', () => {
  const signals = { id: 'webhook-signal', name: 'Webhook signals', defaults: {}, takesSignals: true };
  const schema = botFormSchema(
    () => ({ success: true, params: {} }),
    (id) => id === 'webhook-signal',
  );

  it('starts live, its only mode, and is refused on paper under the mode field, as the server refuses it', () => {
    const values = defaultBotValues(signals, () => ({}));
    expect(values.mode).toBe('live');
    expect(defaultBotValues({ ...signals, takesSignals: false }, () => ({})).mode).toBe('paper');
    const paper = schema.safeParse({ ...values, mode: 'paper' });
    expect(paper.success).toBe(false);
    expect(paper.error?.issues).toEqual([
      expect.objectContaining({ path: ['mode'], message: SIGNALS_LIVE_ONLY }),
    ]);
    expect(schema.safeParse({ ...values, confirmLive: true }).success).toBe(true);
    expect(serverRefusal(`Invalid bot: mode: ${SIGNALS_LIVE_ONLY}`, [])).toMatchObject({
      field: 'mode',
      step: 'mode',
    });
  });
});
