import { expect, it } from 'vitest';
import type { Indicator } from './indicator';

/** What the shared contract suite needs to know about one indicator */
export interface IndicatorContractCase<In, Out> {
  create: () => Indicator<In, Out>;
  /** A long, varied input sequence */
  inputs: readonly In[];
  /** The batch form's value at each index (null where not stable) */
  batch: (inputs: readonly In[]) => (Out | null)[];
  /** An input with a NaN in it */
  badInput: In;
}

/**
 * Every indicator passes this: stable exactly after getRequiredInputs(), getResultOrThrow() throws before,
 * replace() behaves as if the replaced input had been added instead, batch equals streaming, NaN fails fast.
 */
export function testIndicatorContract<In, Out>(c: IndicatorContractCase<In, Out>): void {
  it('becomes stable exactly after getRequiredInputs() inputs and throws before', () => {
    const ind = c.create();
    const required = ind.getRequiredInputs();
    for (let i = 0; i < required - 1; i++) {
      ind.add(c.inputs[i] as In);
      expect(ind.isStable()).toBe(false);
      expect(ind.getResult()).toBeNull();
      expect(() => ind.getResultOrThrow()).toThrow(/not stable/);
    }
    ind.add(c.inputs[required - 1] as In);
    expect(ind.isStable()).toBe(true);
    expect(ind.getResultOrThrow()).toEqual(ind.getResult());
  });

  it('gives the batch form’s values exactly', () => {
    const ind = c.create();
    const batch = c.batch(c.inputs);
    c.inputs.forEach((input, i) => {
      ind.add(input);
      expect(ind.getResult(), `index ${i}`).toEqual(batch[i]);
    });
  });

  it('replace() gives the same result as adding the replacement instead', () => {
    const a = c.create();
    const b = c.create();
    const n = a.getRequiredInputs() + 5;
    for (let i = 0; i < n; i++) {
      a.add(c.inputs[i] as In);
      a.replace(c.inputs[i + 1] as In);
      a.replace(c.inputs[i + 2] as In);
      b.add(c.inputs[i + 2] as In);
      const ra = a.getResult();
      const rb = b.getResult();
      if (rb === null) expect(ra).toBeNull();
      else expect(closeTo(ra, rb)).toBe(true);
    }
  });

  it('throws on replace() before any add() and on NaN input', () => {
    expect(() => c.create().replace(c.inputs[0] as In)).toThrow(/before any add/);
    expect(() => c.create().add(c.badInput)).toThrow(/finite/);
  });
}

function closeTo(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return Object.keys(rb).every((k) => closeTo(ra[k], rb[k]));
  }
  return false;
}

/** A deterministic price-like sequence for the contract (no Math.random in the engine) */
export function samplePrices(n: number): number[] {
  const out: number[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    p += Math.sin(i * 0.7) * 2 + Math.cos(i * 0.13) * 1.5;
    out.push(Math.round(p * 100) / 100);
  }
  return out;
}

/** Converts a NaN-padded column to the streaming form's "null until stable" */
export function nullWhereNaN(column: Float64Array): (number | null)[] {
  return Array.from(column, (v) => (Number.isNaN(v) ? null : v));
}
