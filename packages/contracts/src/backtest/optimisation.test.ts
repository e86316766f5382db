import { describe, expect, it } from 'vitest';
import { axisValues, countCombinations, OptimisationRequestSchema } from './optimisation';

const request = {
  strategy: 'ema-cross',
  symbol: 'BTCUSDT',
  interval: '1h',
  startTime: 1_700_000_000_000,
  endTime: 1_700_360_000_000,
  space: { fast: { values: [5, 10] }, slow: { from: 20, to: 60, step: 20 } },
};
const issues = (input: unknown) =>
  OptimisationRequestSchema.safeParse(input).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('OptimisationRequestSchema (POST /api/v1/optimisations)', () => {
  it('takes lists and ranges, ranks by Sharpe unless told otherwise', () => {
    const parsed = OptimisationRequestSchema.parse(request);
    expect(parsed.objective).toBe('sharpe');
    expect(countCombinations(parsed.space)).toBe(6);
    expect(parsed.walkForward).toBeUndefined();
  });

  it('lists a range as the decimals the user typed', () => {
    expect(axisValues({ from: 0.1, to: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(axisValues({ from: 5, to: 6, step: 2 })).toEqual([5]);
    expect(axisValues({ values: ['long', 'short'] })).toEqual(['long', 'short']);
  });

  it('refuses empty ranges, zero steps and an empty space, naming the field', () => {
    expect(issues({ ...request, space: { fast: { values: [] } } })).toEqual([
      'space.fast.values: values must list at least one value',
    ]);
    expect(issues({ ...request, space: { fast: { from: 10, to: 5, step: 1 } } })).toEqual([
      'space.fast.to: to must be at least from (the range is empty)',
    ]);
    expect(issues({ ...request, space: { fast: { from: 1, to: 5, step: 0 } } })).toEqual([
      'space.fast.step: step must be greater than 0',
    ]);
    expect(issues({ ...request, space: {} })).toEqual(['space: space must sweep at least one parameter']);
  });

  it('caps the grid at 20,000 combinations with the count in the message', () => {
    const big = { a: { from: 1, to: 200, step: 1 }, b: { from: 1, to: 101, step: 1 } };
    expect(issues({ ...request, space: big })).toEqual([
      'space: space has 20200 combinations; at most 20000 are allowed',
    ]);
    expect(issues({ ...request, space: { a: { from: 0, to: 1, step: 1e-9 } } })).toEqual([
      'space.a.step: step is too small: the range would have more than 20000 values',
    ]);
  });

  it('checks the walk-forward windows are positive durations', () => {
    expect(issues({ ...request, walkForward: { trainMs: 0, testMs: 1 } })).toEqual([
      'walkForward.trainMs: trainMs must be greater than 0',
    ]);
    expect(
      OptimisationRequestSchema.parse({ ...request, walkForward: { trainMs: 10, testMs: 5 } }).walkForward,
    ).toEqual({ trainMs: 10, testMs: 5 });
  });
});
