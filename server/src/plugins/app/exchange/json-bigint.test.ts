import { describe, expect, it } from 'vitest';
import { parseJsonBigSafe } from './json-bigint';

describe('parseJsonBigSafe', () => {
  it('keeps 64-bit order ids exact as decimal strings', () => {
    const parsed = parseJsonBigSafe('{"orderId":9007199254740993,"price":"1.5","n":[18446744073709551615]}');
    expect(parsed).toEqual({ orderId: '9007199254740993', price: '1.5', n: ['18446744073709551615'] });
    // Plain JSON.parse would have rounded it
    expect(String((JSON.parse('{"a":9007199254740993}') as { a: number }).a)).not.toBe('9007199254740993');
  });

  it('leaves safe numbers, decimals and digits inside strings alone', () => {
    const text =
      '{"a":12,"b":-3.25e2,"c":"x,12345678901234567890,y","d":9007199254740991,"e":"q\\"1234567890123456789"}';
    expect(parseJsonBigSafe(text)).toEqual(JSON.parse(text));
  });

  it('still throws on malformed JSON', () => {
    expect(() => parseJsonBigSafe('{"a":')).toThrow();
  });
});
