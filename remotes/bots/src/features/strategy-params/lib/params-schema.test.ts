import { builtInStrategies } from '@kestrel/engine';
import { describe, expect, it } from 'vitest';
import { describeParams, paramLabel, paramsToFormValues, parseStrategyParams } from './params-schema';

const schemaOf = (id: string) => builtInStrategies.get(id)?.paramsJsonSchema();

describe('fields from a strategy params schema', () => {
  it('turns the EMA crossover schema into number, integer and choice fields with their bounds', () => {
    const fields = describeParams(schemaOf('ema-cross'));
    expect(fields.find((f) => f.key === 'fast')).toEqual({
      key: 'fast',
      label: 'Fast',
      description: 'Fast EMA period',
      kind: 'integer',
      min: 2,
      max: 500,
    });
    expect(fields.find((f) => f.key === 'side')).toMatchObject({
      kind: 'enum',
      options: ['long', 'short', 'both'],
    });
    expect(fields.find((f) => f.key === 'stopLossPct')).toMatchObject({
      label: 'Stop loss %',
      kind: 'number',
    });
  });

  it('edits the signal rules conditions as JSON text', () => {
    const fields = describeParams(schemaOf('signal-rules'));
    expect(fields.find((f) => f.key === 'entry')?.kind).toBe('json');
    const values = paramsToFormValues(builtInStrategies.get('signal-rules')?.parseParams({}) ?? {}, fields);
    expect(typeof values.entry).toBe('string');
    expect(JSON.parse(values.entry as string)[0].op).toBe('crossesAbove');
  });

  it('labels camelCase keys in words', () => {
    expect(paramLabel('positionFraction')).toBe('Position fraction');
    expect(paramLabel('gridCount')).toBe('Grid count');
  });
});

describe('validating parameters with the engine', () => {
  it('accepts the defaults and fills what is missing', () => {
    const parsed = parseStrategyParams('ema-cross', { fast: 5 });
    expect(parsed).toEqual({ success: true, params: expect.objectContaining({ fast: 5, slow: 26 }) });
  });

  it('names the parameter that is out of range, in words', () => {
    expect(parseStrategyParams('ema-cross', { fast: 1 })).toEqual({
      success: false,
      issues: [{ key: 'fast', message: 'Must be at least 2' }],
    });
    expect(parseStrategyParams('grid', { gridCount: 301 })).toEqual({
      success: false,
      issues: [{ key: 'gridCount', message: 'Must be at most 300' }],
    });
  });

  it("reports the strategy's own rules and empty number fields", () => {
    expect(parseStrategyParams('ema-cross', { fast: 30, slow: 20 })).toEqual({
      success: false,
      issues: [{ key: 'fast', message: 'fast must be below slow' }],
    });
    expect(parseStrategyParams('dca', { takeProfit: Number.NaN })).toEqual({
      success: false,
      issues: [{ key: 'takeProfit', message: 'Enter a number' }],
    });
  });

  it('decodes JSON fields and reports text that is not JSON', () => {
    expect(parseStrategyParams('signal-rules', { entry: '[{ oops' })).toEqual({
      success: false,
      issues: [{ key: 'entry', message: 'Not valid JSON' }],
    });
    const ok = parseStrategyParams('signal-rules', {
      entry: JSON.stringify([{ left: { kind: 'price' }, op: 'above', right: { kind: 'value', value: 1 } }]),
    });
    expect(ok.success && ok.params.entry).toEqual([
      { left: { kind: 'price', field: 'close' }, op: 'above', right: { kind: 'value', value: 1 } },
    ]);
  });

  it('refuses an unknown strategy', () => {
    expect(parseStrategyParams('martingale', {})).toMatchObject({ success: false });
  });
});

describe('fractions shown as percent', () => {
  const dca = builtInStrategies.get('dca');
  const fields = describeParams(dca?.paramsJsonSchema());

  it('a fraction of the strategy is a percent field: its label, its range and its value in percent', () => {
    expect(fields.find((f) => f.key === 'priceDeviation')).toMatchObject({
      label: 'Price deviation %',
      min: 0.1,
      max: 50,
      percent: true,
    });
    expect(fields.find((f) => f.key === 'baseOrderSize')).not.toHaveProperty('percent');
    expect(paramsToFormValues({ priceDeviation: 0.07, takeProfit: 0.015 }, fields)).toMatchObject({
      priceDeviation: 7,
      takeProfit: 1.5,
    });
  });

  it('what is typed in percent reaches the strategy as its fraction, and a bound is said in percent', () => {
    const typed = paramsToFormValues(dca?.parseParams({}) ?? {}, fields);
    const parsed = parseStrategyParams('dca', { ...typed, priceDeviation: 2.5 });
    expect(parsed).toMatchObject({ success: true, params: { priceDeviation: 0.025, takeProfit: 0.01 } });
    expect(parseStrategyParams('dca', { ...typed, priceDeviation: 60 })).toEqual({
      success: false,
      issues: [{ key: 'priceDeviation', message: 'Must be at most 50 %' }],
    });
  });
});
