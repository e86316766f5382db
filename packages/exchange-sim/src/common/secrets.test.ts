import { describe, expect, it } from 'vitest';
import { randomAlphanumeric } from './secrets';

describe('randomAlphanumeric', () => {
  it('gives keys of the asked length in Binance’s alphabet, different each time', () => {
    const keys = Array.from({ length: 50 }, () => randomAlphanumeric(64));
    for (const k of keys) expect(k).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(new Set(keys).size).toBe(50);
  });
});
