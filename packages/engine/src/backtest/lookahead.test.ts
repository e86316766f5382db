import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BarSeries } from '../bars/bars';
import { generateBars } from '../bars/bars';
import { builtInStrategies } from '../strategies/built-in';
import { strategyType } from '../strategy/registry';
import { INTERFACE_VERSION, type StrategyContext } from '../strategy/strategy';
import { lookaheadCheck } from './lookahead';

const bars = generateBars({ seed: 21, count: 2_000, startTime: Date.UTC(2025, 0, 1, 1), volatility: 0.002 });
const settings = { broker: { minNotional: 5 } };

/** Buys before rises it can see in `prepare` (the classic batch bug: using the whole series) */
const cheater = strategyType({
  id: 'cheater',
  name: 'cheater',
  description: 'peeks at the last bar of the series',
  interfaceVersion: INTERFACE_VERSION,
  params: z.object({}),
  warmupBars: () => 0,
  create: () => {
    let last = 0;
    return {
      prepare(series: BarSeries) {
        last = series.close[series.length - 1] as number;
      },
      onBar(ctx: StrategyContext) {
        const pos = ctx.broker.positionQty;
        if (pos === 0 && ctx.close(0) < last)
          ctx.broker.submit({ side: 'buy', type: 'market', quantity: 0.01 });
        if (pos > 0 && ctx.close(0) > last)
          ctx.broker.submit({ side: 'sell', type: 'market', quantity: pos });
      },
    };
  },
});

describe('lookahead check', () => {
  it('passes every built-in strategy with its defaults around the price', () => {
    for (const type of builtInStrategies.values()) {
      const params = type.id === 'grid' ? { lower: 45_000, upper: 55_000 } : {};
      expect(lookaheadCheck(type, params, bars, settings).clean, type.id).toBe(true);
    }
  });

  it('catches a strategy whose batch preparation reads the future', () => {
    const report = lookaheadCheck(cheater, {}, bars, settings);
    expect(report.clean).toBe(false);
    expect(report.firstDifference).not.toBeNull();
  });
});
