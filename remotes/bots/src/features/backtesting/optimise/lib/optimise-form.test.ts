import { describe, expect, it } from 'vitest';
import type { ParamField } from '../../../strategy-params/lib/params-schema';
import { defaultAxes, defaultOptimiseValues, formCombinations, toOptimisationRequest } from './optimise-form';

const fields: ParamField[] = [
  { key: 'fast', label: 'Fast', kind: 'integer', min: 2 },
  { key: 'slow', label: 'Slow', kind: 'integer', min: 3 },
  { key: 'side', label: 'Side', kind: 'enum', options: ['long', 'short', 'both'] },
  { key: 'leverage', label: 'Leverage', kind: 'integer', min: 1 },
];
const defaults = { fast: 12, slow: 26, side: 'both', leverage: 3 };
const NOW = Date.UTC(2026, 10, 25, 12);

describe('optimise form', () => {
  it('sweeps the first two number parameters around their defaults', () => {
    const axes = defaultAxes(fields, defaults);
    expect(axes.fast).toMatchObject({ sweep: true, from: '6', to: '18', step: '3' });
    expect(axes.slow).toMatchObject({ sweep: true, from: '12', to: '40', step: '7' });
    expect(axes.side).toMatchObject({ sweep: false, values: 'long, short, both' });
    expect(axes.leverage?.sweep).toBe(false);
    expect(formCombinations(defaultOptimiseValues('ema-cross', axes, NOW), fields)).toBe(25);
  });

  it('builds the API request, and refuses with the API’s own rule and field', () => {
    const values = defaultOptimiseValues('ema-cross', defaultAxes(fields, defaults), NOW);
    values.axes.side = { sweep: true, from: '', to: '', step: '', values: 'long, short' };
    values.walkForward = { enabled: true, trainDays: '10', testDays: '5', stepDays: '' };
    const ok = toOptimisationRequest(values, fields, defaults, NOW);
    expect(ok.ok && ok.request.space).toEqual({
      fast: { from: 6, to: 18, step: 3 },
      slow: { from: 12, to: 40, step: 7 },
      side: { values: ['long', 'short'] },
    });
    expect(ok.ok && ok.request.walkForward).toEqual({ trainMs: 10 * 86_400_000, testMs: 5 * 86_400_000 });
    values.axes.fast = { ...(values.axes.fast as NonNullable<typeof values.axes.fast>), step: '0' };
    const refused = toOptimisationRequest(values, fields, defaults, NOW);
    expect(refused.ok ? [] : refused.issues).toEqual([
      { path: 'space.fast.step', message: 'step must be greater than 0' },
    ]);
  });
});
