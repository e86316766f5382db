import { describe, expect, it } from 'vitest';
import { fixed, toJson } from './format';

describe('toJson', () => {
  it('writes ids above 2^53 as bare integers, digit for digit, and leaves other values alone', () => {
    expect(toJson({ orderId: 8389765612825190229n, price: '0.10', n: 1, ok: true })).toBe(
      '{"orderId":8389765612825190229,"price":"0.10","n":1,"ok":true}',
    );
    expect(toJson([[1, '2'], { a: null }])).toBe('[[1,"2"],{"a":null}]');
  });
});

describe('fixed', () => {
  it('writes decimals with the places Binance uses, exactly', () => {
    expect(fixed('0.1', 8)).toBe('0.10000000');
    expect(fixed('600.001', 2)).toBe('600.00');
  });
});
