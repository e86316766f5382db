import { describe, expect, it } from 'vitest';
import { quoteAssetOf } from './symbol';

describe('quoteAssetOf', () => {
  it('is what follows the base asset in the symbol', () => {
    expect(quoteAssetOf('BTCUSDT', 'BTC')).toBe('USDT');
    expect(quoteAssetOf('1000PEPEUSDC', '1000PEPE')).toBe('USDC');
    expect(quoteAssetOf('BTCUSDT_250627', 'BTC')).toBe('USDT');
  });

  it('is unknown when the symbol does not start with its base', () => {
    expect(quoteAssetOf('ETHUSDT', 'BTC')).toBeUndefined();
    expect(quoteAssetOf('BTC', 'BTC')).toBeUndefined();
    expect(quoteAssetOf('BTCUSDT', '')).toBeUndefined();
  });
});
